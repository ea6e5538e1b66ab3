#include "runcontroller.h"

#include "cpupinning.h"
#include "fairscheduler.h"
#include "machineinfo.h"
#include "phasebarrier.h"
#include "releasenotes.h"
#include "replayworker.h"
#include "servercatalog.h"

#include <QThread>
#include <QTimer>
#include <QVersionNumber>
#include <algorithm>

namespace {

void registerMetaTypes()
{
    static const bool registered = [] {
        qRegisterMetaType<ServerProgress>("ServerProgress");
        qRegisterMetaType<RepeatResult>("RepeatResult");
        qRegisterMetaType<ServerRun>("ServerRun");
        qRegisterMetaType<ResultsBundle>("ResultsBundle");
        return true;
    }();
    Q_UNUSED(registered);
}

} // namespace

ServerRun placeholderRun(const ServerSpec &spec)
{
    ServerRun run;
    run.id = spec.label.isEmpty() ? spec.identity.label() : spec.label;
    run.product = spec.identity.product;
    run.version = spec.identity.version;
    run.buildId = spec.identity.buildId;
    run.allocator = spec.identity.allocator;
    run.binarySha256 = spec.binarySha256;
    run.gitSha = spec.identity.gitSha;
    run.origin = spec.origin;
    if (spec.isEndpoint)
        run.origin.kind = BuildKind::Endpoint;
    run.endpoint = spec.isEndpoint;
    run.topology = spec.topology;
    run.selfCheck = spec.selfCheck;
    run.status = RunStatus::Incomplete;
    return run;
}

// Each server's release notes as its build brought them, of the versions after the oldest of its
// product in the run: the only entries a comparison in this run can list (docs/BUNDLE.md).
static void recordReleaseNotes(std::vector<ServerRun> &runs, const std::vector<ServerSpec> &specs)
{
    const QString cacheDir = ServerCatalog::defaultCacheDir();
    for (size_t i = 0; i < runs.size() && i < specs.size(); ++i) {
        ServerRun &run = runs[i];
        if (run.endpoint)
            continue;
        QVersionNumber oldest = QVersionNumber::fromString(run.version);
        for (const ServerRun &other : runs) {
            if (other.product == run.product)
                oldest = std::min(oldest, QVersionNumber::fromString(other.version));
        }
        run.releaseNotes = releaseNotesOfBuild(run.origin, specs[i].binaryPath, run.product, run.version, cacheDir);
        keepReleaseNotesAfter(run.releaseNotes, oldest);
    }
}

QString progressStateName(ProgressState state)
{
    switch (state) {
    case ProgressState::Starting: return QStringLiteral("starting");
    case ProgressState::Replaying: return QStringLiteral("replaying");
    case ProgressState::Waiting: return QStringLiteral("waiting");
    case ProgressState::Measuring: return QStringLiteral("measuring");
    case ProgressState::Done: return QStringLiteral("done");
    case ProgressState::Failed: return QStringLiteral("failed");
    case ProgressState::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

struct RunController::Private {
    std::vector<QThread *> threads;
    std::shared_ptr<RunShared> shared;
    std::vector<bool> finished;
    std::vector<ServerProgress> pendingProgress;
    std::vector<bool> progressDirty;
    bool resultsDirty = false;
    QTimer coalesce;
    int running = 0;

    void joinAll()
    {
        for (QThread *thread : threads) {
            thread->quit();
            thread->wait();
            delete thread;
        }
        threads.clear();
    }
};

RunController::RunController(QObject *parent) : QObject(parent), d(std::make_unique<Private>())
{
    registerMetaTypes();
    // Workers may report thousands of times a second; the GUI hears of it a few times a second.
    d->coalesce.setInterval(100);
    connect(&d->coalesce, &QTimer::timeout, this, [this] { flushCoalesced(); });
}

RunController::~RunController()
{
    cancel();
    d->joinAll();
}

bool RunController::isRunning() const
{
    return d->running > 0;
}

void RunController::cancel()
{
    if (d->shared)
        d->shared->cancelled.store(true);
}

void RunController::flushCoalesced()
{
    for (size_t i = 0; i < d->progressDirty.size(); ++i) {
        if (d->progressDirty[i]) {
            d->progressDirty[i] = false;
            Q_EMIT serverProgress(d->pendingProgress[i]);
        }
    }
    if (d->resultsDirty) {
        d->resultsDirty = false;
        announceResults();
    }
}

void RunController::announceResults()
{
    m_snapshot = std::make_shared<const ResultsBundle>(m_results);
    Q_EMIT resultsChanged(m_snapshot);
}

void RunController::resetResults(const RunRequest &request, const WorkloadInfo &workload)
{
    m_results = ResultsBundle();
    m_results.created = QDateTime::currentDateTimeUtc();
    m_results.machine = currentMachine();
    m_results.versusVersion = QStringLiteral(VERSUS_VERSION);
    m_results.workload = workload;
    m_results.schedule = request.schedule;
    m_results.repeats = std::max(1, request.repeats);
    m_results.eventsPerBatch = std::max(1, request.eventsPerBatch);
    m_results.clients = std::max(1, request.clients);
    m_results.complete = false;
    m_results.running = true;
    for (const ServerSpec &spec : request.servers) {
        ServerRun run = placeholderRun(spec);
        // What the binary's build recorded of its allocator stands until the running server
        // says it, so that a build caveat stands under the first provisional figure.
        run.allocatorFacts = spec.recordedAllocator;
        m_results.servers.push_back(run);
    }
    recordReleaseNotes(m_results.servers, request.servers);
    m_snapshot = std::make_shared<const ResultsBundle>(m_results);
}

std::shared_ptr<RunShared> RunController::sharedStateFor(const RunRequest &request) const
{
    auto shared = std::make_shared<RunShared>();
    shared->request = request;
    shared->request.repeats = std::max(1, request.repeats);
    shared->workload = request.workload->describe();
    const int count = int(request.servers.size());
    if (request.schedule == Schedule::Fair) {
        shared->fair = std::make_shared<FairScheduler>(count);
        if (request.pinCpus)
            shared->cpus = CpuPlan::forThisMachine();
    }
    if (request.profile)
        shared->perf = perfAccess();
    // Both schedules keep the servers in step, so repeats interleave A B C A B C.
    shared->phases = std::make_shared<PhaseBarrier>(count);
    return shared;
}

int RunController::start(const RunRequest &request)
{
    // A previous run's workers finish on their own; their late signals carry an old run id.
    cancel();
    const int runId = ++m_runId;
    d->shared = sharedStateFor(request);
    resetResults(d->shared->request, d->shared->workload);
    const int count = int(request.servers.size());
    d->finished.assign(size_t(count), false);
    d->pendingProgress.assign(size_t(count), ServerProgress());
    d->progressDirty.assign(size_t(count), false);
    d->running = count;
    for (int i = 0; i < count; ++i)
        launchWorker(runId, i);
    d->coalesce.start();
    // Once for the run, not once per server: every server would say the same.
    if (d->shared->perf && !d->shared->perf->allowed() && count > 0)
        Q_EMIT serverLog(QString(), d->shared->perf->refused);
    if (count == 0) {
        m_results.complete = true;
        m_results.running = false;
        QTimer::singleShot(0, this, [this, runId] {
            if (runId == m_runId)
                Q_EMIT runFinished(m_results);
        });
    }
    return runId;
}

void RunController::launchWorker(int runId, int index)
{
    auto *thread = new QThread;
    thread->setObjectName(QStringLiteral("replay %1").arg(m_results.servers[size_t(index)].id));
    auto *worker = new ReplayWorker(WorkerJob{runId, index, d->shared});
    worker->moveToThread(thread);
    connect(thread, &QThread::started, worker, &ReplayWorker::run);
    connect(thread, &QThread::finished, worker, &QObject::deleteLater);
    // A finished thread is released at once, so a window that runs again and again does
    // not collect them until it closes.
    connect(thread, &QThread::finished, this, [this, thread] {
        d->threads.erase(std::remove(d->threads.begin(), d->threads.end(), thread), d->threads.end());
        thread->deleteLater();
    });
    connect(worker, &ReplayWorker::progress, this, [this](int id, int at, const ServerProgress &progress) {
        if (id != m_runId)
            return;
        d->pendingProgress[size_t(at)] = progress;
        d->progressDirty[size_t(at)] = true;
    }, Qt::QueuedConnection);
    connect(worker, &ReplayWorker::live, this, [this](int id, int at, const RepeatResult &partial) {
        if (id != m_runId || d->finished[size_t(at)])
            return;
        ServerRun &run = m_results.servers[size_t(at)];
        if (run.repeats.size() <= size_t(partial.repeat))
            run.repeats.resize(size_t(partial.repeat) + 1);
        run.repeats[size_t(partial.repeat)] = partial;
        d->resultsDirty = true;
    }, Qt::QueuedConnection);
    connect(worker, &ReplayWorker::log, this, [this](int id, const QString &server, const QString &line) {
        if (id == m_runId)
            Q_EMIT serverLog(server, line);
    }, Qt::QueuedConnection);
    connect(worker, &ReplayWorker::finished, this, [this, thread](int id, int at, const ServerRun &run) {
        thread->quit();
        if (id == m_runId)
            workerFinished(at, run);
    }, Qt::QueuedConnection);
    d->threads.push_back(thread);
    thread->start();
}

void RunController::workerFinished(int index, const ServerRun &run)
{
    d->finished[size_t(index)] = true;
    ReleaseNotes notes = std::move(m_results.servers[size_t(index)].releaseNotes);   // read here, not by the worker
    m_results.servers[size_t(index)] = run;
    m_results.servers[size_t(index)].releaseNotes = std::move(notes);
    // The final state must not wait for the coalescing timer, nor be overtaken by it.
    if (d->progressDirty[size_t(index)]) {
        d->progressDirty[size_t(index)] = false;
        Q_EMIT serverProgress(d->pendingProgress[size_t(index)]);
    }
    if (--d->running > 0) {
        d->resultsDirty = true;
        return;
    }
    d->coalesce.stop();
    bool complete = !d->shared->cancelled.load();
    for (const ServerRun &server : m_results.servers)
        complete = complete && server.status != RunStatus::Incomplete;
    m_results.complete = complete;
    m_results.running = false;
    announceResults();
    const BundleSnapshot last = m_snapshot;   // a receiver may start the next run
    Q_EMIT runFinished(*last);
}
