#include "runcontroller.h"

#include "cpupinning.h"
#include "fairscheduler.h"
#include "machineinfo.h"
#include "passspeedometer.h"
#include "phasebarrier.h"
#include "replayworker.h"

#include <QThread>
#include <QTimer>
#include <algorithm>
#include <atomic>

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

struct RunController::Private {
    std::vector<QThread *> threads;
    std::shared_ptr<std::atomic<bool>> cancelled;
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
    connect(&d->coalesce, &QTimer::timeout, this, [this] {
        for (size_t i = 0; i < d->progressDirty.size(); ++i) {
            if (d->progressDirty[i]) {
                d->progressDirty[i] = false;
                Q_EMIT serverProgress(d->pendingProgress[i]);
            }
        }
        if (d->resultsDirty) {
            d->resultsDirty = false;
            Q_EMIT resultsChanged(m_results);
        }
    });
}

RunController::~RunController()
{
    if (d->cancelled)
        d->cancelled->store(true);
    d->joinAll();
}

bool RunController::isRunning() const
{
    return d->running > 0;
}

void RunController::cancel()
{
    if (d->cancelled)
        d->cancelled->store(true);
}

int RunController::start(const RunRequest &request)
{
    if (isRunning()) {
        cancel();
        // The old run's workers finish on their own; their late signals carry an old run id.
    }
    const int runId = ++m_runId;
    d->cancelled = std::make_shared<std::atomic<bool>>(false);
    const WorkloadDescription description = request.workload->describe();

    m_results = ResultsBundle();
    m_results.created = QDateTime::currentDateTimeUtc();
    m_results.machine = currentMachine();
    m_results.versusVersion = QStringLiteral(VERSUS_VERSION);
    m_results.workload.name = description.name;
    m_results.workload.sourceFile = description.sourceFile;
    m_results.workload.sourceSha256 = description.sourceSha256;
    m_results.workload.parameters = description.parameters;
    m_results.workload.events = description.events;
    m_results.workload.commands = description.commands;
    m_results.workload.types = description.types;
    m_results.schedule = request.schedule;
    m_results.repeats = std::max(1, request.repeats);
    m_results.complete = false;

    const int count = int(request.servers.size());
    d->finished.assign(size_t(count), false);
    d->pendingProgress.assign(size_t(count), ServerProgress());
    d->progressDirty.assign(size_t(count), false);
    d->running = count;
    std::shared_ptr<FairScheduler> fair;
    if (request.schedule == QLatin1String("fair"))
        fair = std::make_shared<FairScheduler>(count);
    // Both schedules keep the servers in step, so repeats interleave A B C A B C.
    auto phases = std::make_shared<PhaseBarrier>(count);
    std::shared_ptr<ServerCpuChooser> cpus;
    std::shared_ptr<PassSpeedometer> speedometer;
    if (fair && request.pinCpus) {
        if (const std::optional<CpuPlan> plan = CpuPlan::forThisMachine()) {
            cpus = std::make_shared<ServerCpuChooser>(*plan);
            PassSpeedometer::Options options;
            options.settleLimitMs = request.settleLimitMs >= 0 ? request.settleLimitMs : (request.repeats > 1 ? 30000 : 0);
            options.retimeLimit = request.retimeLimit >= 0 ? request.retimeLimit : (request.repeats > 1 ? 2 : 0);
            // The usual speed matters where repeats must agree; a single run neither waits for it nor learns it.
            if (request.speedometer)
                speedometer = request.speedometer;
            else if (options.settleLimitMs > 0 || options.retimeLimit > 0)
                speedometer = std::make_shared<PassSpeedometer>(
                    std::make_shared<CpuSpeedReference>(CpuSpeedReference::defaultPath(), m_results.machine.cpuModel), options);
        }
    }

    for (int i = 0; i < count; ++i) {
        const ServerSpec &spec = request.servers[size_t(i)];
        ServerRun placeholder;
        placeholder.id = spec.label.isEmpty() ? spec.identity.label() : spec.label;
        placeholder.product = spec.identity.product;
        placeholder.version = spec.identity.version;
        placeholder.buildId = spec.identity.buildId;
        placeholder.allocator = spec.identity.allocator;
        placeholder.binarySha256 = spec.binarySha256;
        placeholder.endpoint = spec.isEndpoint;
        placeholder.status = QStringLiteral("incomplete");
        m_results.servers.push_back(placeholder);

        WorkerJob job;
        job.runId = runId;
        job.index = i;
        job.spec = spec;
        job.workload = request.workload;
        job.description = description;
        job.repeats = std::max(1, request.repeats);
        job.eventsPerBatch = request.eventsPerBatch;
        job.allowFlush = request.allowFlush;
        job.commandTimeoutMs = request.commandTimeoutMs;
        job.probeIntervalMs = request.probeIntervalMs;
        job.fair = fair;
        job.phases = phases;
        job.cpus = cpus;
        job.speedometer = speedometer;
        job.cancelled = d->cancelled;

        auto *thread = new QThread;
        thread->setObjectName(QStringLiteral("replay %1").arg(placeholder.id));
        auto *worker = new ReplayWorker(job);
        worker->moveToThread(thread);
        connect(thread, &QThread::started, worker, &ReplayWorker::run);
        connect(thread, &QThread::finished, worker, &QObject::deleteLater);
        // A finished thread is released at once, so a window that runs again and again does
        // not collect them until it closes.
        connect(thread, &QThread::finished, this, [this, thread] {
            d->threads.erase(std::remove(d->threads.begin(), d->threads.end(), thread), d->threads.end());
            thread->deleteLater();
        });
        connect(worker, &ReplayWorker::progress, this, [this](int id, int index, const ServerProgress &progress) {
            if (id != m_runId)
                return;
            d->pendingProgress[size_t(index)] = progress;
            d->progressDirty[size_t(index)] = true;
        }, Qt::QueuedConnection);
        connect(worker, &ReplayWorker::live, this, [this](int id, int index, const RepeatResult &partial) {
            if (id != m_runId || d->finished[size_t(index)])
                return;
            ServerRun &run = m_results.servers[size_t(index)];
            if (run.repeats.size() <= size_t(partial.repeat))
                run.repeats.resize(size_t(partial.repeat) + 1);
            run.repeats[size_t(partial.repeat)] = partial;
            d->resultsDirty = true;
        }, Qt::QueuedConnection);
        connect(worker, &ReplayWorker::log, this, [this](int id, const QString &server, const QString &line) {
            if (id == m_runId)
                Q_EMIT serverLog(server, line);
        }, Qt::QueuedConnection);
        connect(worker, &ReplayWorker::finished, this, [this, thread](int id, int index, const ServerRun &run) {
            thread->quit();
            if (id != m_runId)
                return;
            d->finished[size_t(index)] = true;
            m_results.servers[size_t(index)] = run;
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
            bool complete = !d->cancelled->load();
            for (const ServerRun &server : m_results.servers)
                complete = complete && server.status != QLatin1String("incomplete");
            m_results.complete = complete;
            Q_EMIT resultsChanged(m_results);
            Q_EMIT runFinished(m_results);
        }, Qt::QueuedConnection);
        d->threads.push_back(thread);
        thread->start();
    }
    d->coalesce.start();
    Q_EMIT runStarted(runId);
    if (count == 0) {
        m_results.complete = true;
        QTimer::singleShot(0, this, [this, runId] {
            if (runId == m_runId)
                Q_EMIT runFinished(m_results);
        });
    }
    return runId;
}
