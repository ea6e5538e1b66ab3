#include "replayworker.h"

#include "fairscheduler.h"
#include "hostport.h"
#include "nodesessions.h"
#include "phasebarrier.h"
#include "profilepass.h"
#include "repeatassembly.h"
#include "servertarget.h"

#include <QFileInfo>

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
    m_run.origin = spec.origin;
    m_run.topology = spec.topology;
    m_run.selfCheck = spec.selfCheck;
    m_run.transport = transportName(spec.tls);
    TargetHooks hooks;
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.report = [this](ProgressState state, const QString &phase) { report(state, phase); };
    m_target = ServerTarget::create(m_job, m_run, std::move(hooks));   // records what kind of server it is

    m_progress.runId = m_job.runId;
    m_progress.serverId = m_run.id;
    m_progress.workloadEvents = m_job.workload().events;
    const int passesPerRepeat = int(RepeatAssembly::plansOf(m_job.workload()).size());
    m_progress.eventsTotal = m_job.workload().events * passesPerRepeat * std::max(1, m_job.request().repeats);
    if (m_job.request().profile)
        m_progress.eventsTotal += m_job.workload().events;
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
    const QStringList tail = m_target->stop();
    if (m_run.status == RunStatus::Failed && m_run.logTail.isEmpty())
        m_run.logTail = tail;
}

// At the end of every run that reached the server, completed, failed or cancelled.
void ReplayWorker::restoreServer()
{
    const QStringList failures = m_target->restore();
    if (!failures.isEmpty())
        m_progress.message = QStringLiteral("not restored: %1").arg(failures.join(QStringLiteral("; ")));
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
    const TlsSettings &tls = m_job.spec().tls;
    if (tls.enabled)
        logLine(QStringLiteral("connections: %1").arg(m_target->tlsNote()));
    if (tls.enabled && tls.insecure)
        logLine(insecureWarning(hostPortText(m_job.spec().host, m_job.spec().port)));
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
    restoreServer();
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
    if (const QStringList tail = m_target->logTail(); !tail.isEmpty())
        m_run.logTail = tail;
    m_run.repeats.push_back(std::move(result));
    logLine(m_run.error);
}

Status ReplayWorker::runRepeat(RepeatResult &result)
{
    report(ProgressState::Starting, QStringLiteral("repeat %1").arg(result.repeat + 1));
    NodeSessions sessions;
    if (Status reached = m_target->reach(sessions); !reached)
        return reached;
    PassHooks hooks;
    hooks.report = [this](ProgressState state, const QString &phase) { report(state, phase); };
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.reachNextPhase = [this] { return reachNextPhase(); };
    hooks.ticked = [this, &sessions, &result](const PassResult &soFar, const LivePass &pass) {
        onTick(sessions, result, soFar, pass);
    };
    PassRunner runner(m_job, sessions, m_target->replayAccess(), m_target->routing(), hooks);
    runner.setTrackingLeftOn(m_run.limits.needsWarming());
    if (m_run.limits.needsWarming() && !m_warmed) {
        if (Status warmed = runner.warm(); !warmed || cancelled())
            return warmed;
        m_warmed = true;   // the histograms stay: no reset frees them on this endpoint
    }
    if (Status passes = runPasses(runner, result); !passes || cancelled())
        return passes;
    if (m_job.request().profile && result.repeat + 1 == std::max(1, m_job.request().repeats))
        profileServer(sessions);
    m_target->finishRepeat(sessions);
    return Status::success();
}

Status ReplayWorker::runPasses(PassRunner &runner, RepeatResult &result)
{
    RepeatAssembly::Hooks hooks;
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.progressMessage = [this](const QString &message) { m_progress.message = message; };
    const RepeatAssembly assembly(m_job.workload(), std::move(hooks));
    for (const PassPlan &plan : RepeatAssembly::plansOf(m_job.workload())) {
        if (cancelled())
            return Status::success();
        m_passClock.start();
        m_sinceProbe.start();
        m_probeError.clear();
        Outcome<PassMeasurement> measured = runner.run(plan);
        m_eventsBeforePass += m_job.workload().events;
        if (!m_probeError.isEmpty())
            logLine(QStringLiteral("live probe: %1").arg(m_probeError));
        if (!measured)
            return Error{measured.error()};
        if (measured->pass.cancelled)
            return Status::success();
        assembly.add(plan, measured.value(), result);
        publish(result);   // the finished pass shows at once, without waiting for the next probe
    }
    return Status::success();
}

void ReplayWorker::onTick(NodeSessions &sessions, const RepeatResult &finished, const PassResult &soFar, const LivePass &pass)
{
    // Ticks come between batches with the turn held: no server is executing a command.
    m_progress.eventsDone = m_eventsBeforePass + soFar.events;
    m_progress.commandsDone = soFar.commands;
    const double seconds = double(m_passClock.nsecsElapsed()) / 1e9;
    m_progress.eventsPerSecond = seconds > 0 ? double(soFar.events) / seconds : 0;
    m_progress.etaSeconds = m_progress.eventsPerSecond > 0
        ? double(m_progress.eventsTotal - m_progress.eventsDone) / m_progress.eventsPerSecond
        : -1;
    if (!soFar.unknownCommands.empty() && pass.unsupportedByCommand)
        m_progress.message = QStringLiteral("%1 unsupported").arg(soFar.unknownCommands.begin()->first);
    else if (!soFar.firstUnknownCommandError.isEmpty() && !pass.type.isEmpty())
        m_progress.message = QStringLiteral("%1 unsupported").arg(pass.type);
    Q_EMIT progress(m_job.runId, m_job.index, m_progress);
    if (!pass.readsServer || m_sinceProbe.elapsed() < m_job.request().probeIntervalMs)
        return;
    m_sinceProbe.restart();
    Outcome<RepeatResult> figures = readLiveFigures(sessions, finished, pass, soFar);
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

void ReplayWorker::profileServer(NodeSessions &sessions)
{
    report(ProgressState::Waiting, QStringLiteral("for the other servers to finish their timed passes"));
    if (!reachNextPhase())
        return;
    m_run.profile = profileOf(sessions);
}

ServerProfile ReplayWorker::profileOf(NodeSessions &sessions)
{
    ServerProfile none;
    const PerfAccess access = m_job.run->perf ? *m_job.run->perf : perfAccess();
    if (!access.allowed()) {
        none.unavailable = access.refused;   // said once for the run (RunController::start)
        return none;
    }
    if (m_job.spec().isEndpoint) {
        none.unavailable = QStringLiteral("--profile profiles only servers Versus launched: %1 is an endpoint").arg(m_run.id);
        logLine(none.unavailable);
        return none;
    }
    std::vector<qint64> pids;
    for (const NodeAddress &node : sessions.addresses()) {
        if (node.pid > 0)
            pids.push_back(node.pid);
    }
    PerfRecording recording(access);
    Outcome<ServerProfile> folded = Error{QStringLiteral("--profile: the profile pass ended before perf stopped")};
    PassHooks hooks;
    hooks.report = [this](ProgressState state, const QString &phase) { report(state, phase); };
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.reachNextPhase = [] { return true; };   // untimed: nothing to meet the others at
    // Progress only: the repeat's live figures stay those of its measured passes.
    hooks.ticked = [this](const PassResult &soFar, const LivePass &) {
        m_progress.eventsDone = m_eventsBeforePass + soFar.events;
        Q_EMIT progress(m_job.runId, m_job.index, m_progress);
    };
    hooks.replayStarting = [&recording, &pids] { return recording.start(pids); };
    hooks.replayEnded = [this, &recording, &folded] {
        folded = recording.stopAndFold(QFileInfo(m_job.spec().binaryPath).fileName());
        return Status::success();
    };
    PassRunner runner(m_job, sessions, m_target->replayAccess(), m_target->routing(), hooks);
    PassPlan plan;
    plan.label = QStringLiteral("profile pass (perf, untimed)");
    const Outcome<PassMeasurement> measured = runner.run(plan);
    m_eventsBeforePass += m_job.workload().events;
    // perf's own failures say "--profile: …" already; the pass's are the server's.
    if (!measured && measured.error().startsWith(QLatin1String("--profile: ")))
        none.unavailable = measured.error();
    else if (!measured)
        none.unavailable = QStringLiteral("--profile: the profile pass failed: %1").arg(measured.error());
    else if (!folded)
        none.unavailable = folded.error();
    if (!none.unavailable.isEmpty()) {
        logLine(none.unavailable);
        return none;
    }
    return folded.value();
}
