#include "replayworker.h"

#include "runningexecutable.h"
#include "endpointprobe.h"
#include "fairscheduler.h"
#include "phasebarrier.h"
#include "runningexecutable.h"
#include "serverprocess.h"
#include "serversession.h"

namespace {

int passesPerRepeat(const WorkloadInfo &workload)
{
    return (workload.typesTimedAlone ? 0 : 1) + int(workload.types.size());
}

bool isUnknownCommandError(const QString &key)
{
    return key.contains(QLatin1String("unknown command"));
}

// A timed pass's errors, except the server's "unknown command": those say a type is
// unsupported, which the type's own figures record.
void addErrors(RepeatResult &result, const PassResult &pass)
{
    for (const auto &[key, count] : pass.errors) {
        if (isUnknownCommandError(key))
            continue;
        result.errors[key] += count;
        if (result.firstError.isEmpty())
            result.firstError = isUnknownCommandError(pass.firstError) ? key : pass.firstError;
    }
}

PassTiming timingOf(const PassMeasurement &measured)
{
    PassTiming timing;
    timing.byCommand = measured.stats;
    timing.events = measured.pass.eventsSent;
    timing.commands = measured.pass.commands;
    timing.seconds = measured.pass.activeSeconds;
    timing.latencyP50Usec = measured.pass.percentileUsec(0.50);
    timing.latencyP99Usec = measured.pass.percentileUsec(0.99);
    return timing;
}

} // namespace

ReplayWorker::ReplayWorker(WorkerJob job) : m_job(std::move(job))
{
    const ServerSpec &spec = m_job.spec();
    const ServerIdentity &identity = spec.identity;
    m_run.id = spec.label.isEmpty() ? identity.label() : spec.label;
    m_run.product = identity.product;
    m_run.version = identity.version;
    m_run.buildId = identity.buildId;
    m_run.allocator = identity.allocator;
    m_run.binarySha256 = spec.binarySha256;
    m_run.gitSha = identity.gitSha;
    m_run.endpoint = spec.isEndpoint;

    m_progress.runId = m_job.runId;
    m_progress.serverId = m_run.id;
    m_progress.eventsTotal = m_job.workload().events * passesPerRepeat(m_job.workload()) * std::max(1, m_job.request().repeats);
}

ReplayWorker::~ReplayWorker() = default;

void ReplayWorker::report(ProgressState state, const QString &phase, const QString &message)
{
    m_progress.state = state;
    m_progress.phase = phase;
    if (!message.isEmpty())
        m_progress.message = message;
    Q_EMIT progress(m_job.runId, m_job.index, m_progress);
}

void ReplayWorker::logLine(const QString &line)
{
    Q_EMIT log(m_job.runId, m_run.id, line);
}

void ReplayWorker::stopServer()
{
    if (!m_process)
        return;
    const QStringList tail = m_process->logTail(20);
    m_process->stop();
    m_process.reset();
    if (m_run.status == RunStatus::Failed && m_run.logTail.isEmpty())
        m_run.logTail = tail;
}

bool ReplayWorker::reachNextPhase()
{
    const int phase = m_phase++;
    if (!m_job.run->phases)
        return !cancelled();
    return m_job.run->phases->arrive(m_job.index, phase, m_job.run->cancelled);
}

void ReplayWorker::run()
{
    for (int repeat = 0; repeat < std::max(1, m_job.request().repeats); ++repeat) {
        if (cancelled())
            break;
        if (repeat > 0)
            report(ProgressState::Waiting, QStringLiteral("for the other servers to finish repeat %1").arg(repeat));
        if (!reachNextPhase())
            break;
        m_progress.repeat = repeat;
        RepeatResult result;
        result.repeat = repeat;
        m_hasLive = false;
        const Status status = runRepeat(result);
        keepRepeat(std::move(result), status);
        stopServer();
        if (m_run.status != RunStatus::Ok)
            break;
    }
    if (cancelled() && m_run.status == RunStatus::Ok) {
        m_run.status = RunStatus::Incomplete;
        m_run.error = QStringLiteral("cancelled");
    }
    if (m_job.run->phases)
        m_job.run->phases->leave(m_job.index);
    if (m_job.run->fair)
        m_job.run->fair->leave(m_job.index);
    stopServer();
    const bool ok = m_run.status == RunStatus::Ok;
    report(ok ? ProgressState::Done : (m_run.status == RunStatus::Failed ? ProgressState::Failed : ProgressState::Cancelled),
           QString(), ok ? QString() : m_run.error);
    Q_EMIT finished(m_job.runId, m_job.index, m_run);
}

// A repeat that failed or was cancelled is kept with the last figures it had: a cancelled
// run shows what was measured, never zeros.
void ReplayWorker::keepRepeat(RepeatResult result, const Status &status)
{
    if (status && !cancelled()) {
        Q_EMIT live(m_job.runId, m_job.index, result);   // the repeat's final figures, before the next one starts
        m_run.repeats.push_back(std::move(result));
        return;
    }
    if (cancelled() && m_hasLive && m_lastLive.repeat == result.repeat)
        result = m_lastLive;
    result.status = cancelled() ? RepeatStatus::Incomplete : RepeatStatus::Failed;
    result.error = status ? QStringLiteral("cancelled") : status.error();
    m_run.status = cancelled() ? RunStatus::Incomplete : RunStatus::Failed;
    m_run.error = result.error;
    if (m_process)
        m_run.logTail = m_process->logTail(20);
    m_run.repeats.push_back(std::move(result));
    logLine(m_run.error);
}

Status ReplayWorker::checkEndpointConsent()
{
    const Outcome<EndpointProbe> probe = probeEndpoint(m_job.spec(), m_job.request().commandTimeoutMs);
    if (!probe)
        return Error{probe.error()};
    if (probe->version.isEmpty())
        return Error{QStringLiteral("%1 is not a Valkey or Redis server (INFO server has no version)").arg(m_run.id)};
    if (m_run.version.isEmpty()) {
        m_run.product = probe->product;
        m_run.version = probe->version;
    }
    if (!m_job.request().allowFlush)
        return Error{QStringLiteral("refusing to flush endpoint %1 (%2 keys): Versus did not launch it; "
                                    "allow flushing it explicitly to use it")
                         .arg(probe->where).arg(probe->keys)};
    return Status::success();
}

Status ReplayWorker::reachServer(ServerSession &session)
{
    const ServerSpec &spec = m_job.spec();
    if (spec.isLaunchable()) {
        m_process = std::make_unique<ServerProcess>(spec);
        // Per-command latency histograms are allocated on a command's first call and freed by
        // CONFIG RESETSTAT, so they would land in whichever pass happens to run first.
        m_process->setExtraArguments({QStringLiteral("--latency-tracking"), QStringLiteral("no")});
        if (Status started = m_process->start(std::max(10000, m_job.request().commandTimeoutMs)); !started)
            return started;
        m_host = m_process->host();
        m_port = m_process->port();
        const qint64 pid = m_process->pid() > 0 ? m_process->pid() : m_process->launchedPid();
        logLine(QStringLiteral("started on %1:%2 (pid %3)").arg(m_host).arg(m_port).arg(pid));
        if (!m_process->pidNote().isEmpty())
            logLine(m_process->pidNote());
        const RunningExecutable running = runningExecutableOf(pid);
        m_run.executablePath = running.path;
        m_run.executableSha256 = running.sha256;
        if (const QString note = runningExecutableNote(running, spec.binarySha256); !note.isEmpty())
            logLine(note);
    } else {
        m_host = spec.host;
        m_port = spec.port;
        if (Status consent = checkEndpointConsent(); !consent)
            return consent;
    }
    const QString name = QStringLiteral("%1 (%2:%3)").arg(m_run.id, m_host).arg(m_port);
    if (Status connected = session.connect(m_host, m_port, spec.password, m_job.request().commandTimeoutMs, name); !connected)
        return connected;
    if (spec.isEndpoint) {
        // A launched server has no client but ours; an endpoint may have its own.
        if (Status noted = session.noteIdleClients(); !noted)
            return noted;
        // Same reason as for launched servers; older servers without the setting refuse it.
        session.connection().command({"CONFIG", "SET", "latency-tracking", "no"});
    }
    return Status::success();
}

Status ReplayWorker::runRepeat(RepeatResult &result)
{
    report(ProgressState::Starting, QStringLiteral("repeat %1").arg(result.repeat + 1));
    ServerSession session;
    if (Status reached = reachServer(session); !reached)
        return reached;
    PassHooks hooks;
    hooks.report = [this](ProgressState state, const QString &phase) { report(state, phase); };
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.reachNextPhase = [this] { return reachNextPhase(); };
    hooks.ticked = [this, &session, &result](const PassResult &soFar, const LivePass &pass) {
        onTick(session, result, soFar, pass);
    };
    PassRunner runner(m_job, session, m_host, m_port, m_process ? m_process->pid() : 0, hooks);
    if (Status passes = runPasses(runner, result); !passes || cancelled())
        return passes;
    if (m_job.spec().isEndpoint)
        session.flushSync(m_job.request().commandTimeoutMs);   // consent was given; leave it as empty as it was asked to be
    return Status::success();
}

Status ReplayWorker::runPasses(PassRunner &runner, RepeatResult &result)
{
    const WorkloadInfo &workload = m_job.workload();
    std::vector<PassPlan> plans;
    if (!workload.typesTimedAlone)
        plans.push_back({QString(), true, QStringLiteral("timed pass")});
    for (const QString &type : workload.types)
        plans.push_back({type, workload.typesTimedAlone,
                         (workload.typesTimedAlone ? QStringLiteral("timed: %1") : QStringLiteral("memory: %1")).arg(type)});
    for (const PassPlan &plan : plans) {
        if (cancelled())
            return Status::success();
        m_passClock.start();
        m_sinceProbe.start();
        m_probeError.clear();
        Outcome<PassMeasurement> measured = runner.run(plan);
        m_eventsBeforePass += workload.events;
        if (!m_probeError.isEmpty())
            logLine(QStringLiteral("live probe: %1").arg(m_probeError));
        if (!measured)
            return Error{measured.error()};
        if (measured->pass.cancelled)
            return Status::success();
        if (plan.type.isEmpty()) {
            result.keys = measured->keys;
            result.usedMemoryDelta = measured->usedMemoryDelta;
            result.bytesPerKey = measured->keys > 0 ? double(measured->usedMemoryDelta) / double(measured->keys) : 0.0;
            result.timing = timingOf(measured.value());
            addErrors(result, measured->pass);
        } else {
            recordType(plan.type, plan.timed, measured.value(), result);
        }
        publish(result);   // the finished pass shows at once, without waiting for the next probe
    }
    return Status::success();
}

void ReplayWorker::recordType(const QString &type, bool timed, const PassMeasurement &measured, RepeatResult &result)
{
    TypeMemory &memory = result.byType[type];
    if (timed) {
        memory.timing = timingOf(measured);
        addErrors(result, measured.pass);
    }
    if (!measured.pass.firstUnknownCommandError.isEmpty()) {
        memory.status = TypeStatus::Unsupported;
        memory.error = measured.pass.firstUnknownCommandError;
        logLine(QStringLiteral("%1 unsupported: %2").arg(type, memory.error));
        m_progress.message = QStringLiteral("%1 unsupported").arg(type);
        return;
    }
    memory.keys = measured.keys;
    memory.usedMemoryDelta = measured.usedMemoryDelta;
    memory.bytesPerKey = measured.keys > 0 ? double(measured.usedMemoryDelta) / double(measured.keys) : 0.0;
    memory.memoryUsageBytesPerKey =
        measured.survey.keys > 0 ? double(measured.survey.memoryUsageBytes) / double(measured.survey.keys) : 0.0;
    memory.encodings = measured.survey.encodings;
}

void ReplayWorker::onTick(ServerSession &session, const RepeatResult &finished, const PassResult &soFar, const LivePass &pass)
{
    // Ticks come between batches with the turn held: no server is executing a command.
    m_progress.eventsDone = m_eventsBeforePass + soFar.events;
    m_progress.commandsDone = soFar.commands;
    const double seconds = double(m_passClock.nsecsElapsed()) / 1e9;
    m_progress.eventsPerSecond = seconds > 0 ? double(soFar.events) / seconds : 0;
    m_progress.etaSeconds = m_progress.eventsPerSecond > 0
        ? double(m_progress.eventsTotal - m_progress.eventsDone) / m_progress.eventsPerSecond
        : -1;
    if (!soFar.firstUnknownCommandError.isEmpty() && !pass.type.isEmpty())
        m_progress.message = QStringLiteral("%1 unsupported").arg(pass.type);
    Q_EMIT progress(m_job.runId, m_job.index, m_progress);
    if (m_sinceProbe.elapsed() < m_job.request().probeIntervalMs)
        return;
    m_sinceProbe.restart();
    Outcome<RepeatResult> figures = readLiveFigures(session, finished, pass, soFar);
    if (figures)
        publish(figures.value());
    else
        m_probeError = figures.error();
}

void ReplayWorker::publish(const RepeatResult &snapshot)
{
    m_lastLive = snapshot;
    m_lastLive.status = RepeatStatus::Incomplete;
    m_hasLive = true;
    Q_EMIT live(m_job.runId, m_job.index, m_lastLive);
}
