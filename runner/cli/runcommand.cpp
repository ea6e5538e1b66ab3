#include "commands.h"

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "consoleprogress.h"
#include "exportcommandline.h"
#include "figures.h"
#include "runcontroller.h"
#include "runoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QTimer>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace {

std::atomic<bool> interrupted{false};

void onInterrupt(int)
{
    interrupted.store(true);
}

int fail(const QString &message, int code = 2)
{
    std::fprintf(stderr, "versus run: %s\n", qPrintable(message));
    return code;
}

// A server failed, or its commands got errors: the run did not give clean figures.
bool runFailed(const Figures &figures)
{
    for (const QString &id : figures.allServerIds()) {
        switch (figures.summary(id).verdict) {
        case ServerVerdict::Completed:
        case ServerVerdict::Cancelled:
        case ServerVerdict::Running:
            break;
        default:
            return true;
        }
    }
    return false;
}

void addOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Replays one workload into several servers at once and measures memory per stored attribute and server "
        "time per command.\n\nExamples:\n"
        "  versus run\n"
        "  versus run --servers valkey-8.0.1,valkey-9.1.2 --repeat 5 --out results.json --export-dir charts\n"
        "  versus run --workload hash-ttl --set keys=20000 --set value-size=120 --set ttl=900\n"
        "  versus run --workload capture.txt --servers valkey-9.1.2,127.0.0.1:6379 --allow-flush\n\n"
        "Exit codes: 0 every server completed; 1 a server failed or commands got unexpected errors; "
        "2 bad usage or input; 130 interrupted."));
    parser.addHelpOption();
    addRunOptions(parser);
    addExportOptions(parser);
}

// Runs the plan with progress on stderr; Ctrl-C cancels cleanly. Returns the results.
ResultsBundle runWithProgress(const RunPlan &plan)
{
    RunController controller;
    ConsoleProgress progress(controller, stderr, isatty(fileno(stderr)) != 0);
    ResultsBundle results;
    QObject::connect(&controller, &RunController::runFinished, [&results](const ResultsBundle &finished) {
        results = finished;
        QCoreApplication::quit();
    });
    // Signal handlers may only set a flag; the event loop turns it into a clean cancel.
    QTimer interruptWatch;
    QObject::connect(&interruptWatch, &QTimer::timeout, [&controller] {
        if (interrupted.load())
            controller.cancel();
    });
    interruptWatch.start(50);
    const WorkloadInfo workload = plan.request.workload->describe();
    std::fprintf(stderr, "Replaying %s (%lld events, %lld commands) into %zu server(s), %s schedule, %d repeat(s)\n",
                 qPrintable(workload.name), workload.events, workload.commands, plan.request.servers.size(),
                 qPrintable(scheduleName(plan.request.schedule)), plan.request.repeats);
    controller.start(plan.request);
    QCoreApplication::exec();
    return results;
}

// Writes the bundle and the charts; false when a write failed (already said on stderr).
bool writeOutputs(const ResultsBundle &results, const RunPlan &plan, const ExportRequest &exportRequest)
{
    bool ok = true;
    if (!plan.bundlePath.isEmpty()) {
        const Status saved = saveBundle(results, plan.bundlePath);
        if (saved)
            std::printf("Results bundle: %s\n", qPrintable(QDir::current().absoluteFilePath(plan.bundlePath)));
        else
            ok = fail(saved.error()) == 0;
    }
    if (exportRequest.enabled()) {
        const Outcome<QStringList> written = exportRequested(results, exportRequest);
        if (written) {
            std::printf("Charts in %s:\n", qPrintable(QDir(exportRequest.directory).absolutePath()));
            for (const QString &file : written.value())
                std::printf("  %s\n", qPrintable(file));
        } else {
            ok = fail(written.error()) == 0;
        }
    }
    return ok;
}

} // namespace

int runRunCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments))
        return fail(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    // Installed before the catalog and workload are read, so an early Ctrl-C is a clean stop too.
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    const Outcome<RunPlan> plan = runPlanFromParser(parser);
    if (!plan)
        return fail(plan.error(), interrupted.load() ? 130 : 2);   // Ctrl-C at the --askpass prompt: 130
    const Outcome<ExportRequest> exportRequest = exportRequestFromParser(parser);
    if (!exportRequest)
        return fail(exportRequest.error());
    if (interrupted.load())
        return fail(QStringLiteral("interrupted before any server started"), 130);
    for (const QString &notice : plan->notices)
        std::fprintf(stderr, "versus run: %s\n", qPrintable(notice));

    const ResultsBundle results = runWithProgress(plan.value());
    const Figures figures(results);
    std::printf("%s\n", qPrintable(bundleToMarkdown(figures)));
    const QStringList dataProblems = figures.dataProblems();
    for (const QString &problem : dataProblems)
        std::fprintf(stderr, "data check: %s\n", qPrintable(problem));
    const bool written = writeOutputs(results, plan.value(), exportRequest.value());
    if (interrupted.load())
        return 130;
    if (!written)
        return 2;
    return runFailed(figures) || !dataProblems.isEmpty() ? 1 : 0;
}
