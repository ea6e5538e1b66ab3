#include "commands.h"

#include "bundlejson.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "exportcommandline.h"
#include "outputchecks.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <cstdio>

namespace {

int exportFails(const QString &message)
{
    writeTerminal(stderr, QStringLiteral("versus export: %1\n").arg(message));
    return 2;
}

} // namespace

int runExportCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Re-renders the charts of a saved results bundle, without running anything.\n"
        "Writes <chart>.<format> for every chart plus results.csv and results.json.\n\n"
        "Examples:\n"
        "  versus export results.json --export-dir charts\n"
        "  versus export results.json --export-dir slides --preset slide --scale 2 --format png,pdf --theme dark\n\n"
        "Files already in the folder are replaced only with --force.\n"
        "Exit codes: 0 written, 2 bad options, bad bundle, unwritable folder or files that would be replaced."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("BUNDLE"), QStringLiteral("Results bundle (JSON) to render."));
    addExportOptions(parser);
    if (!parser.parse(arguments))
        return exportFails(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("export"))), stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return exportFails(QStringLiteral("give exactly one BUNDLE (see --help)"));
    const Outcome<ExportRequest> request = exportRequestFromParser(parser);
    if (!request)
        return exportFails(request.error());
    if (!request->enabled())
        return exportFails(QStringLiteral("--export-dir DIR is required"));

    const Outcome<ResultsBundle> bundle = loadBundle(positional.first());
    if (!bundle)
        return exportFails(bundle.error());
    if (!bundle->holdsAnyServer())
        return exportFails(QStringLiteral("%1: the bundle holds no server: there is nothing to export%2")
                               .arg(positional.first(), bundle->complete ? QString()
                                                                         : QStringLiteral(" (its run was stopped before any server started)")));
    // One Figures for the whole export: every chart, file and report reads it.
    const Figures figures(bundle.value(), request->shown);
    const QStringList names = exportRequestFileNames(request.value(), chartKindsOf(figures), sweepChartKinds(bundle.value()));
    // Checked before anything is written: no name the export writes may be the bundle itself.
    const ExistingFiles existing = parser.isSet(QStringLiteral("force")) ? ExistingFiles::Replace : ExistingFiles::Keep;
    if (Status folder = checkOutputFolder(QStringLiteral("--export-dir"), request->directory, names,
                                          {{QStringLiteral("BUNDLE"), positional.first()}}, existing,
                                          QStringLiteral("nothing was written"));
        !folder)
        return exportFails(folder.error());
    const Outcome<QStringList> written = exportRequested(figures, request.value());
    if (!written)
        return exportFails(written.error());
    for (const QString &path : written.value())
        writeTerminal(stdout, path + QLatin1Char('\n'));
    return 0;
}
