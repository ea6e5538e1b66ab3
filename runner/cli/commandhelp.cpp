// The help text of a subcommand, named as the user types it.

#include "commands.h"

#include <QCommandLineParser>

QString commandHelp(const QCommandLineParser &parser, const QString &command)
{
    // QCommandLineParser names the program by the path it was started with
    // ("Usage: /home/…/build/app/versus [options]"): the reader types "versus run".
    QString text = parser.helpText();
    const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'));
    const QString usage = text.left(lineEnd);
    const qsizetype options = usage.indexOf(QLatin1String(" ["));
    const QString rest = options < 0 ? QString() : usage.mid(options);
    return QStringLiteral("Usage: versus %1%2").arg(command, rest) + text.mid(lineEnd);
}
