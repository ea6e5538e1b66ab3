#include "commands.h"

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "figureviews.h"
#include "consoleprogress.h"
#include "exportcommandline.h"
#include "figures.h"
#include "interruption.h"
#include "machineinfo.h"
#include "outputchecks.h"
#include "presentation.h"
#include "runcontroller.h"
#include "whymarkdown.h"
#include "releasenotesmarkdown.h"
#include "profilemarkdown.h"
#include "whytimemarkdown.h"
#include "runoptions.h"
#include "sweepbundle.h"
#include "sweepmarkdown.h"
#include "topology.h"
#include "sweepcontroller.h"
#include "workloadfactory.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <unistd.h>

namespace {

int runFails(const QString &message, int code = 2)
{
    writeTerminal(stderr, QStringLiteral("versus run: %1\n").arg(message));
    return code;
}

// A server of `figures` failed, lost data to maxmemory, or its commands got errors.
bool serverFailed(const Figures &figures)
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

// The run (`figures`, of the shown point), or a point of the sweep, did not give clean figures.
bool runFailed(const Figures &figures)
{
    const ResultsBundle &results = figures.bundle();
    if (!results.isSweep())
        return serverFailed(figures);
    for (int point = 0; point < int(results.sweep.points.size()); ++point) {
        if (serverFailed(Figures(sweepPointBundle(results, point))))
            return true;
    }
    return false;
}

// The data checks of the run, or of every point of a sweep (each message naming its point).
QStringList sweepDataProblems(const Figures &figures)
{
    const ResultsBundle &results = figures.bundle();
    if (!results.isSweep())
        return figures.dataProblems();
    QStringList problems;
    for (int point = 0; point < int(results.sweep.points.size()); ++point) {
        const QString at = QStringLiteral("%1=%2: ").arg(results.sweep.parameter, results.sweep.points[size_t(point)].value);
        for (const QString &problem : Figures(sweepPointBundle(results, point)).dataProblems())
            problems << at + problem;
    }
    return problems;
}

void addOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Replays one workload into several servers at once and measures memory per stored attribute and server "
        "time per command.\n\nExamples:\n"
        "  versus run\n"
        "  versus run --servers valkey-8.0.1,valkey-9.1.2 --repeat 5 --out results.json --export-dir charts\n"
        "  versus run --workload hash-ttl --set keys=20000 --set value-size=120 --set ttl=900\n"
        "  versus run --workload hash-ttl --set keys=20000 --topology standalone,cluster:3\n"
        "  versus run --workload capture.txt --servers valkey-9.1.2,127.0.0.1:6379 --allow-flush\n"
        "  versus run --servers 10.0.0.5:6379 --allow-flush --user app --askpass --allow-cluster-auth\n\n"
        "Exit codes: 0 every server completed; 1 a server failed, lost data to maxmemory (evicted keys, refused "
        "writes) or its commands got unexpected errors; "
        "2 bad usage or input; 130 interrupted."));
    parser.addHelpOption();
    addRunOptions(parser);
    addExportOptions(parser);
}

// Turns Ctrl-C, SIGTERM or SIGHUP into `cancel` from the event loop (signal handlers may only
// set a flag).
void watchInterrupts(QTimer &watch, const std::function<void()> &cancel)
{
    QObject::connect(&watch, &QTimer::timeout, [cancel] {
        if (interruptRequested())
            cancel();
    });
    watch.start(50);
}

void sayWhatRuns(const RunPlan &plan)
{
    const WorkloadInfo workload = plan.request.workload->describe();
    if (plan.sweep) {
        QStringList values;
        for (const SweepRequest::Point &point : plan.sweep->points)
            values << point.value;
        writeTerminal(stderr, QStringLiteral("Sweeping %1 over %2: %3 runs of %4 into %5 server(s), %6 schedule, %7 repeat(s) each\n")
                                  .arg(plan.sweep->parameter, values.join(QStringLiteral(", ")))
                                  .arg(plan.sweep->points.size())
                                  .arg(workload.name)
                                  .arg(plan.request.servers.size())
                                  .arg(scheduleName(plan.request.schedule))
                                  .arg(plan.request.repeats));
        return;
    }
    // The workload's name may be a capture's file name: written as text, like any name a user gave.
    writeTerminal(stderr, QStringLiteral("Replaying %1 (%2 events, %3 commands) into %4 server(s), %5 schedule, %6 repeat(s)\n")
                              .arg(workload.name)
                              .arg(workload.events)
                              .arg(workload.commands)
                              .arg(plan.request.servers.size())
                              .arg(scheduleName(plan.request.schedule))
                              .arg(plan.request.repeats));
    if (const QString skipped = skippedCommandsText(workload); !skipped.isEmpty())
        writeTerminal(stderr, skipped + QLatin1Char('\n'));
}

// Runs the plan (one run, or each point of a sweep) with progress on stderr; Ctrl-C cancels
// cleanly. Returns the results.
ResultsBundle runWithProgress(const RunPlan &plan)
{
    SweepController sweep;
    RunController &controller = sweep.runs();
    const bool interactive = isatty(fileno(stderr)) != 0;
    ConsoleProgress progress(controller, stderr, interactive);
    ResultsBundle results;
    QTimer interruptWatch;
    sayWhatRuns(plan);
    if (plan.sweep) {
        QObject::connect(&sweep, &SweepController::pointStarted, [&progress](int, int, const QString &label) {
            progress.beginSection(label);
        });
        QObject::connect(&sweep, &SweepController::sweepFinished, [&results](const ResultsBundle &finished) {
            results = finished;
            QCoreApplication::quit();
        });
        watchInterrupts(interruptWatch, [&sweep] { sweep.cancel(); });
        sweep.start(plan.sweep.value());
    } else {
        QObject::connect(&controller, &RunController::runFinished, [&results](const ResultsBundle &finished) {
            results = finished;
            QCoreApplication::quit();
        });
        watchInterrupts(interruptWatch, [&controller] { controller.cancel(); });
        controller.start(plan.request);
    }
    QCoreApplication::exec();
    return results;
}

// Writes the bundle and the charts of `figures`; false when a write failed (already said on stderr).
bool writeOutputs(const Figures &figures, const RunPlan &plan, const ExportRequest &exportRequest)
{
    bool ok = true;
    if (!plan.bundlePath.isEmpty()) {
        const Status saved = saveBundle(figures.bundle(), figures, plan.bundlePath);
        if (saved)
            writeTerminal(stdout, QStringLiteral("Results bundle: %1\n").arg(QDir::current().absoluteFilePath(plan.bundlePath)));
        else
            ok = runFails(saved.error()) == 0;
    }
    if (exportRequest.enabled()) {
        const Outcome<QStringList> written = exportRequested(figures, exportRequest);
        if (written) {
            writeTerminal(stdout, QStringLiteral("Charts in %1:\n").arg(QDir(exportRequest.directory).absolutePath()));
            for (const QString &file : written.value())
                writeTerminal(stdout, QStringLiteral("  %1\n").arg(file));
        } else {
            ok = runFails(written.error()) == 0;
        }
    }
    return ok;
}

// The files `versus run` reads, which no output may overwrite.
std::vector<NamedInput> runInputs(const QCommandLineParser &parser)
{
    std::vector<NamedInput> inputs;
    const QString workload = parser.value(QStringLiteral("workload"));
    if (!builtInWorkloadNames().contains(workload))
        inputs.push_back({QStringLiteral("--workload"), workload});
    inputs.push_back({QStringLiteral("--attributes"), parser.value(QStringLiteral("attributes"))});
    return inputs;
}

// The charts a run will have: with a cluster and standalone among --topology, the launched
// versions run in both; with --profile, the profile (figureviews.h).
std::vector<ChartKind> chartKindsOfRun(const QCommandLineParser &parser)
{
    const Outcome<std::vector<Topology>> topologies = parseTopologies(parser.value(QStringLiteral("topology")));
    const auto isCluster = [](const Topology &topology) { return topology.isCluster(); };
    return plannedChartKinds(topologies && std::any_of(topologies->begin(), topologies->end(), isCluster)
                             && !std::all_of(topologies->begin(), topologies->end(), isCluster),
                             parser.isSet(QStringLiteral("profile")));
}

// Every output option, checked before the workload is prepared or any server starts.
Outcome<ExportRequest> checkOutputs(const QCommandLineParser &parser)
{
    Outcome<ExportRequest> exportRequest = exportRequestFromParser(parser);
    if (!exportRequest)
        return exportRequest;
    const std::vector<NamedInput> inputs = runInputs(parser);
    // A sweep's charts are named before its workload says whether it has a reference category.
    const std::vector<ChartKind> chartKinds = chartKindsOfRun(parser);
    std::vector<SweepChartKind> sweepKinds;
    if (parser.isSet(QStringLiteral("sweep")))
        sweepKinds = sweepChartKindsOfRun(std::find(chartKinds.begin(), chartKinds.end(), ChartKind::ClusterOverhead)
                                          != chartKinds.end());
    if (Status out = checkOutputFile(QStringLiteral("--out"), parser.value(QStringLiteral("out")), inputs); !out)
        return Error{out.error()};
    if (Status folder = checkOutputFolder(QStringLiteral("--export-dir"), exportRequest->directory,
                                          exportRequestFileNames(exportRequest.value(), chartKinds, sweepKinds), inputs,
                                          parser.isSet(QStringLiteral("force")) ? ExistingFiles::Replace : ExistingFiles::Keep,
                                          QStringLiteral("nothing was run"));
        !folder)
        return Error{folder.error()};
    return exportRequest;
}

// Interrupted before any server started (while the workload was prepared): the bundle says so.
int stopBeforeStart(const QCommandLineParser &parser)
{
    const QString out = parser.value(QStringLiteral("out"));
    std::fprintf(stderr, "versus run: interrupted before any server started\n");
    if (!out.isEmpty()) {
        ResultsBundle bundle;
        bundle.created = QDateTime::currentDateTimeUtc();
        bundle.machine = currentMachine();
        bundle.versusVersion = QStringLiteral(VERSUS_VERSION);
        // What the workload was is known only once it is prepared: the bundle names what was asked.
        const QString workload = parser.value(QStringLiteral("workload"));
        if (builtInWorkloadNames().contains(workload))
            bundle.workload.name = workload;
        else
            bundle.workload.sourceFile = QFileInfo(workload).fileName();
        bundle.complete = false;
        const Status saved = saveBundle(bundle, out);
        if (saved)
            writeTerminal(stdout, QStringLiteral("Results bundle (incomplete): %1\n").arg(QDir::current().absoluteFilePath(out)));
        else
            runFails(saved.error());
    }
    return 130;
}

} // namespace

int runRunCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments))
        return runFails(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(commandHelp(parser, QStringLiteral("run"))));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return runFails(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    // Installed before the catalog and workload are read, so an early Ctrl-C, SIGTERM or SIGHUP
    // is a clean stop too; preparing the workload polls it.
    installInterruptHandlers();
    const Outcome<ExportRequest> exportRequest = checkOutputs(parser);
    if (!exportRequest)
        return runFails(exportRequest.error());
    const Outcome<RunPlan> plan = runPlanFromParser(parser);
    // Ctrl-C at the --askpass prompt says so itself; any other interruption is a clean stop.
    if (!plan && interruptRequested() && plan.error().startsWith(QLatin1String("--askpass")))
        return runFails(plan.error(), 130);
    if (interruptRequested())
        return stopBeforeStart(parser);
    if (!plan)
        return runFails(plan.error());
    for (const QString &notice : plan->notices)
        writeTerminal(stderr, QStringLiteral("versus run: %1\n").arg(notice));

    const ResultsBundle results = runWithProgress(plan.value());
    // One Figures for everything the run prints and writes.
    const Figures figures(results, exportRequest->shown);
    writeTerminal(stdout, bundleToMarkdown(figures, figures.options().order) + QLatin1Char('\n'));
    if (results.isSweep())
        writeTerminal(stdout, sweepToMarkdown(results) + QLatin1Char('\n'));
    const QStringList dataProblems = sweepDataProblems(figures);
    for (const QString &problem : dataProblems)
        writeTerminal(stderr, QStringLiteral("data check: %1\n").arg(problem));
    const bool written = writeOutputs(figures, plan.value(), exportRequest.value());
    // The last screen is the answer, with its caveat: the details are above it.
    if (const QString answer = figures.answer(); !answer.isEmpty()) {
        const QString caveat = figures.answerCaveat();
        writeTerminal(stdout, QStringLiteral("\nAnswer: %1%2\n").arg(answer, caveat.isEmpty() ? QString() : QStringLiteral(" (") + caveat + QLatin1Char(')')));
        if (const QString noise = figures.noiseNote(); !noise.isEmpty())
            writeTerminal(stdout, noise + QLatin1Char('\n'));
        if (const QString why = whySummary(figures); !why.isEmpty())
            writeTerminal(stdout, QStringLiteral("Why: %1\n").arg(why));
        if (const QString why = whyTimeSummary(figures); !why.isEmpty())
            writeTerminal(stdout, QStringLiteral("Why (time): %1\n").arg(why));
    }
    if (const QString profile = profileSummary(figures); !profile.isEmpty())
        writeTerminal(stdout, QStringLiteral("Profile: %1\n").arg(profile));
    if (const QString candidates = releaseNotesSummary(figures); !candidates.isEmpty())
        writeTerminal(stdout, QStringLiteral("Release-note candidates (candidates, not causes):\n") + candidates);
    if (interruptRequested())
        return 130;
    if (!written)
        return 2;
    return runFailed(figures) || !dataProblems.isEmpty() ? 1 : 0;
}
