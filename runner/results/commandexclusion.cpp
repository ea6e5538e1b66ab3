// Captures replay commands one by one, so a command one server does not know leaves out that
// command on that server, not the capture: the time totals of every server leave it out too,
// and figures that cannot (the memory the capture left, the client's pace) are shown without
// a change against the baseline.

#include "figuresdata.h"

#include "presentation.h"

#include <QLocale>

namespace {

bool cannotExclude(Measure measure)
{
    switch (measure) {
    case Measure::UsecPerCall:
    case Measure::UsecPerEvent:
    case Measure::Calls:
        return false;
    default:
        return true;
    }
}

// "HSETEX (1,000 commands)", "HSETEX (10 commands) and HGETEX (10 commands)"
QString commandCounts(const std::map<QString, long long> &counts)
{
    const QLocale english(QLocale::English);
    QStringList parts;
    for (const auto &[command, count] : counts)
        parts << QStringLiteral("%1 (%2 %3)").arg(command, english.toString(count), count == 1 ? "command" : "commands");
    if (parts.size() <= 1)
        return parts.join(QString());
    const QString last = parts.takeLast();
    return parts.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

} // namespace

std::map<QString, long long> FiguresData::unsupportedCommandsOf(const ServerRun &run)
{
    std::map<QString, long long> commands;
    for (const RepeatResult &repeat : run.repeats) {
        for (const auto &[command, count] : repeat.unsupportedCommands)
            commands[command] = std::max(commands[command], count);
    }
    return commands;
}

QStringList FiguresData::excludedCommands() const
{
    if (excludedCommandsCache)
        return *excludedCommandsCache;
    QStringList &excluded = excludedCommandsCache.emplace();
    for (const QString &id : comparedIds()) {
        for (const auto &entry : unsupportedCommandsOf(*server(id).run)) {
            if (!excluded.contains(entry.first.toLower()))
                excluded << entry.first.toLower();
        }
    }
    excluded.sort();
    return excluded;
}

QString FiguresData::exclusionScope() const
{
    QStringList parts;
    for (const QString &id : comparedIds()) {
        const std::map<QString, long long> commands = unsupportedCommandsOf(*server(id).run);
        if (commands.empty())
            continue;
        QStringList names;
        for (const auto &entry : commands)
            names << entry.first;
        parts << QStringLiteral("%1, which %2 does not know")
                     .arg(names.join(QStringLiteral(", ")), serverDisplayName(bundle, *server(id).run));
    }
    return parts.isEmpty() ? QString() : QStringLiteral("without ") + parts.join(QStringLiteral("; "));
}

void FiguresData::markUncompared(FigureTable &table) const
{
    if (!cannotExclude(table.measure))
        return;
    QStringList reasons;
    const QStringList compared = comparedIds();
    for (int column = 0; column < int(table.servers.size()); ++column) {
        const QString &id = table.servers[column];
        if (!compared.contains(id))
            continue;
        const std::map<QString, long long> commands = unsupportedCommandsOf(*server(id).run);
        if (commands.empty())
            continue;
        const QString name = serverDisplayName(bundle, *server(id).run);
        const QString why = QStringLiteral("%1 did not know %2, so it did other work than the others")
                                .arg(name, commandCounts(commands));
        for (std::vector<Figure> &row : table.cells) {
            if (row[size_t(column)].hasValue())
                row[size_t(column)].uncompared = why;
        }
        reasons << why;
    }
    if (reasons.isEmpty())
        return;
    const QString sentence = reasons.join(QStringLiteral("; ")) + QStringLiteral(": no change is given against it.");
    table.note = table.note.isEmpty() ? sentence : table.note + QLatin1Char(' ') + sentence;
}
