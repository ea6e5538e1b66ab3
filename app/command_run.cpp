#include "commands.h"

#include "bundleio.h"
#include "consoleprogress.h"
#include "datacheck.h"
#include "exportcommandline.h"
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

bool runFailed(const ResultsBundle &results)
{
    for (const ServerRun &server : results.servers) {
        if (server.status == QLatin1String("failed"))
            return true;
        for (const RepeatResult &repeat : server.repeats) {
            if (!repeat.errors.empty())
                return true;
        }
    }
    return false;
}

} // namespace

int runRunCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
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
    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "versus run: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "versus run: unexpected argument '%s'\n", qPrintable(parser.positionalArguments().first()));
        return 2;
    }
    // Installed before the catalog and workload are read, so an early Ctrl-C is a clean stop too.
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    Outcome<RunPlan> plan = runPlanFromParser(parser);
    if (!plan) {
        std::fprintf(stderr, "versus run: %s\n", qPrintable(plan.error()));
        return 2;
    }
    Outcome<ExportRequest> exportRequest = exportRequestFromParser(parser);
    if (!exportRequest) {
        std::fprintf(stderr, "versus run: %s\n", qPrintable(exportRequest.error()));
        return 2;
    }

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

    const WorkloadDescription workload = plan->request.workload->describe();
    std::fprintf(stderr, "Replaying %s (%lld events, %lld commands) into %zu server(s), %s schedule, %d repeat(s)\n",
                 qPrintable(workload.name), workload.events, workload.commands, plan->request.servers.size(),
                 qPrintable(plan->request.schedule), plan->request.repeats);
    if (interrupted.load()) {
        std::fprintf(stderr, "versus run: interrupted before any server started\n");
        return 130;
    }
    controller.start(plan->request);
    QCoreApplication::exec();

    std::printf("%s\n", qPrintable(bundleToMarkdown(results)));
    const QStringList dataProblems = dataCheckProblems(results);
    for (const QString &problem : dataProblems)
        std::fprintf(stderr, "data check: %s\n", qPrintable(problem));
    bool writeFailed = false;
    if (!plan->bundlePath.isEmpty()) {
        Status saved = saveBundle(results, plan->bundlePath);
        if (saved)
            std::printf("Results bundle: %s\n", qPrintable(QDir::current().absoluteFilePath(plan->bundlePath)));
        else {
            std::fprintf(stderr, "versus run: %s\n", qPrintable(saved.error()));
            writeFailed = true;
        }
    }
    if (exportRequest->enabled()) {
        Outcome<QStringList> written = exportRequested(results, exportRequest.value());
        if (written) {
            std::printf("Charts in %s:\n", qPrintable(QDir(exportRequest->directory).absolutePath()));
            for (const QString &file : written.value())
                std::printf("  %s\n", qPrintable(file));
        } else {
            std::fprintf(stderr, "versus run: %s\n", qPrintable(written.error()));
            writeFailed = true;
        }
    }
    if (interrupted.load())
        return 130;
    if (writeFailed)
        return 2;
    return runFailed(results) || !dataProblems.isEmpty() ? 1 : 0;
}
