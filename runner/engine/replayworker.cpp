#include "replayworker.h"

#include "allocatorfacts.h"
#include "clusternodes.h"
#include "clustertopology.h"
#include "endpointtarget.h"
#include "hostport.h"
#include "fairscheduler.h"
#include "nodesessions.h"
#include "phasebarrier.h"
#include "presentation.h"
#include "repeatassembly.h"
#include "runningexecutable.h"
#include "serverconfig.h"
#include "serverprocess.h"
#include "serversession.h"

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
    if (spec.isEndpoint)
        m_run.origin.kind = BuildKind::Endpoint;
    m_run.endpoint = spec.isEndpoint;
    m_run.topology = spec.topology;
    m_run.transport = transportName(spec.tls);
    if (spec.topology.isCluster() && !spec.isEndpoint)
        m_cluster = std::make_unique<ClusterNodes>(spec, serverDisplayName(m_run));
    if (spec.isEndpoint)
        m_endpoint = std::make_unique<EndpointTarget>(m_job, m_run, [this](const QString &line) { logLine(line); });

    m_progress.runId = m_job.runId;
    m_progress.serverId = m_run.id;
    m_progress.workloadEvents = m_job.workload().events;
    const int passesPerRepeat = int(RepeatAssembly::plansOf(m_job.workload()).size());
    m_progress.eventsTotal = m_job.workload().events * passesPerRepeat * std::max(1, m_job.request().repeats);
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

void ReplayWorker::releaseAccess()
{
    for (ReplayAccess &access : m_accesses) {
        const bool temporary = access.mode() == ReplayAccess::Mode::TemporaryUser;
        const Status released = access.release();
        if (!released)
            logLine(released.error());
        else if (temporary)
            logLine(QStringLiteral("temporary ACL user %1 deleted").arg(access.replayCredentials().user));
    }
    m_accesses.clear();
}

void ReplayWorker::stopServer()
{
    releaseAccess();
    if (m_cluster && m_cluster->started()) {
        const QStringList tail = m_cluster->logTail(10);
        m_cluster->stop();
        if (m_run.status == RunStatus::Failed && m_run.logTail.isEmpty())
            m_run.logTail = tail;
    }
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
    const TlsSettings &tls = m_job.spec().tls;
    if (tls.enabled)
        logLine(QStringLiteral("connections: %1").arg(m_job.spec().isEndpoint ? tlsDescription(tls)
                                                                            : QStringLiteral("TLS, a throwaway CA of this run")));
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
    restoreEndpoint();
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
    else if (m_cluster && m_cluster->started())
        m_run.logTail = m_cluster->logTail(10);
    m_run.repeats.push_back(std::move(result));
    logLine(m_run.error);
}

// How the replay connections logged in, for the bundle: a cluster's, primary by primary.
QString ReplayWorker::accessDescription(const NodeSessions &sessions) const
{
    if (m_accesses.size() == 1)
        return m_accesses.front().description();
    QStringList parts;
    for (size_t index = 0; index < m_accesses.size() && index < sessions.addresses().size(); ++index) {
        const NodeAddress &node = sessions.addresses()[index];
        parts << QStringLiteral("%1: %2").arg(hostPortText(node.host, node.port), m_accesses[index].description());
    }
    return parts.join(QStringLiteral("; "));
}

// A cluster of the run's version: every node started with the same arguments, formed, and
// the slot map checked (localcluster.h), before anything is measured.
Status ReplayWorker::startCluster(const QStringList &arguments)
{
    report(ProgressState::Starting, QStringLiteral("forming the cluster"));
    if (Status started = m_cluster->start(arguments, m_job.request().commandTimeoutMs); !started)
        return started;
    logLine(QStringLiteral("cluster formed: %1").arg(m_cluster->describe()));
    const RunningExecutable running = runningExecutableOf(m_cluster->firstPid());
    m_run.executablePath = running.path;
    m_run.executableSha256 = running.sha256;
    m_accesses.clear();
    m_accesses.push_back(ReplayAccess::launched(m_cluster->nodes().front().replay));
    return Status::success();
}

Status ReplayWorker::startLaunched()
{
    const ServerSpec &spec = m_job.spec();
    // Per-command latency histograms are allocated on a command's first call and freed by
    // CONFIG RESETSTAT, so they would land in whichever pass happens to run first.
    const QStringList arguments = QStringList{QStringLiteral("--latency-tracking"), QStringLiteral("no")}
                                  + startArguments(m_startSettings);
    if (m_cluster)
        return startCluster(arguments);
    m_process = std::make_unique<ServerProcess>(spec);
    m_process->setExtraArguments(arguments);
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
    m_accesses.clear();
    m_accesses.push_back(ReplayAccess::launched(m_process->replayCredentials()));
    return Status::success();
}

Status ReplayWorker::connectSessions(NodeSessions &sessions)
{
    if (m_cluster)
        return sessions.connect(m_cluster->nodes(), m_job.request().commandTimeoutMs);
    const ServerSpec &spec = m_job.spec();
    NodeAddress node;
    node.host = m_host;
    node.port = m_port;
    node.control = m_process ? m_process->controlCredentials() : Credentials{QString(), spec.password};
    node.replay = m_process ? m_process->replayCredentials() : Credentials();   // an endpoint's: once access is prepared
    node.name = QStringLiteral("%1 (%2)").arg(m_run.id, hostPortText(m_host, m_port));
    node.pid = m_process ? m_process->pid() : 0;
    node.tls = m_process ? m_process->tls() : spec.tls;
    return sessions.connect({node}, m_job.request().commandTimeoutMs);
}

// --server-config on a launched server (every node of a cluster): what CONFIG SET cannot change
// is given at start, so the server is started again with it, once per run (later repeats start
// with it).
Status ReplayWorker::configureLaunched(NodeSessions &sessions)
{
    const ServerSettings &requested = m_job.request().serverConfig;
    auto applyEverywhere = [&] {
        ServerConfigOutcome first = applyServerConfig(sessions.first(), requested, m_startSettings, serverDisplayName(m_run));
        for (int node = 1; node < sessions.size(); ++node)
            applyServerConfig(sessions.node(node), requested, m_startSettings, serverDisplayName(m_run));
        return first;
    };
    ServerConfigOutcome outcome = applyEverywhere();
    if (!outcome.startOnly.empty()) {
        m_startSettings.insert(m_startSettings.end(), outcome.startOnly.begin(), outcome.startOnly.end());
        logLine(QStringLiteral("starting again with %1: not settable while running")
                    .arg(startArguments(outcome.startOnly).join(QLatin1Char(' '))));
        stopServer();
        if (Status started = startLaunched(); !started)
            return Error{QStringLiteral("%1 (started with %2)").arg(started.error(), startArguments(m_startSettings).join(QLatin1Char(' ')))};
        if (Status connected = connectSessions(sessions); !connected)
            return connected;
        outcome = applyEverywhere();
    }
    if (m_run.configApplied.empty() && m_run.configRefused.empty()) {
        for (const auto &[name, value] : outcome.applied)
            logLine(QStringLiteral("server config: %1 %2").arg(name, value));
        for (const auto &[name, why] : outcome.refused)
            logLine(QStringLiteral("server config: %1 not applied: %2").arg(name, why));
    }
    m_run.configApplied = outcome.applied;
    m_run.configRefused = outcome.refused;
    return Status::success();
}

// Once per run: the cluster's routing of the workload's commands, each to its slot's primary.
Status ReplayWorker::prepareClusterRouting(NodeSessions &sessions)
{
    const Status routed = m_cluster->prepareRouting(sessions.first().connection(), *m_job.request().workload,
                                                    !m_clusterChecked);
    m_clusterChecked = m_clusterChecked || routed;
    return routed;
}

Status ReplayWorker::reachServer(NodeSessions &sessions)
{
    const ServerSpec &spec = m_job.spec();
    if (spec.isLaunchable()) {
        if (Status started = startLaunched(); !started)
            return started;
    } else {
        m_host = spec.host;
        m_port = spec.port;
        if (Status consent = m_endpoint->checkConsent(); !consent)
            return consent;
    }
    if (Status connected = connectSessions(sessions); !connected)
        return connected;
    if (spec.isEndpoint) {
        if (Status adopted = m_endpoint->adoptCluster(sessions, m_cluster); !adopted)
            return adopted;
    }
    if (spec.isLaunchable() && !m_job.request().serverConfig.empty()) {
        if (Status configured = configureLaunched(sessions); !configured)
            return configured;
    }
    if (Status recorded = recordSettings(sessions); !recorded)
        return recorded;
    recordAllocator(sessions);
    if (m_cluster) {
        if (Status routed = prepareClusterRouting(sessions); !routed)
            return routed;
    } else if (m_job.request().clients > 1) {
        // Several lanes into one server: each command to the lane of its keys' slot. Without
        // the keys (COMMAND INFO refused on an endpoint) it replays over one connection.
        if (Status routed = m_laneRouting.prepare(sessions.first().connection(), *m_job.request().workload, nullptr, false, m_run.id);
            !routed) {
            m_laneRouting.reset();
            logLine(QStringLiteral("one client instead of %1: %2").arg(m_job.request().clients).arg(routed.error()));
        }
    }
    if (spec.isEndpoint) {
        if (Status prepared = m_endpoint->prepare(sessions, m_cluster != nullptr); !prepared)
            return prepared;
        m_run.limits = m_endpoint->limits();
        // A launched server has no client but ours; an endpoint may have its own.
        if (Status noted = sessions.noteIdleClients(); !noted)
            return noted;
        // Latency tracking was turned off by prepare(), and is put back at the end.
        if (Status access = m_endpoint->prepareAccess(sessions, m_cluster != nullptr, m_accesses); !access)
            return access;
    }
    m_run.replayAccess = accessDescription(sessions);
    return Status::success();
}

// Every server's settings, once per run, for the bundle's configuration differences. An
// endpoint is read before Versus turns its latency tracking off, as its owner has it.
Status ReplayWorker::recordSettings(NodeSessions &sessions)
{
    if (!m_run.config.empty())
        return Status::success();
    ServerSession &session = sessions.first();   // a cluster's nodes are of one version, started alike
    Outcome<ServerSession::SettingsReading> settings = recordedSettings(session);
    if (!settings)
        return Error{settings.error()};
    if (!settings->refusal.isEmpty() && !m_job.spec().isEndpoint)
        return Error{QStringLiteral("%1: %2").arg(session.connection().name(), settings->refusal)};
    m_run.config = std::move(settings->settings);   // an endpoint's refusal is one of its limits (endpointtarget.h)
    if (m_job.workload().commandGroups.empty() && !m_job.workload().commandNames.isEmpty()) {
        Outcome<std::map<QString, CommandKind>> kinds = commandKinds(session.connection(), m_job.workload().commandNames);
        if (!kinds)
            return Error{kinds.error()};
        m_run.commandKinds = std::move(kinds.value());
    }
    if (m_job.spec().isEndpoint && !m_job.request().serverConfig.empty())
        logLine(QStringLiteral("server config: not applied to an endpoint (Versus changes only what it must there)"));
    return Status::success();
}

// Once per run, before any pass: what each primary's allocator says. The jemalloc quantum tells
// a Debian package's build from an upstream one, which --version does not.
void ReplayWorker::recordAllocator(NodeSessions &sessions)
{
    if (m_run.allocatorFacts != AllocatorFacts())
        return;
    std::vector<std::pair<QString, AllocatorFacts>> primaries;
    for (int node = 0; node < sessions.size(); ++node) {
        const NodeAddress &address = sessions.addresses()[size_t(node)];
        primaries.emplace_back(hostPortText(address.host, address.port), readAllocatorFacts(sessions.node(node).connection()));
    }
    m_run.allocatorFacts = combinedAllocatorFacts(primaries);
    const AllocatorFacts &facts = m_run.allocatorFacts;
    logLine(QStringLiteral("allocator: %1, %2")
                .arg(facts.memAllocator.isEmpty() ? QStringLiteral("unknown") : facts.memAllocator,
                     facts.quantumBytes > 0 ? QStringLiteral("quantum %1 B").arg(facts.quantumBytes)
                                            : QStringLiteral("quantum unknown (%1)").arg(facts.quantumProblem)));
}

// At the end of every run that reached the endpoint, completed, failed or cancelled.
void ReplayWorker::restoreEndpoint()
{
    if (!m_endpoint || !m_endpoint->prepared())
        return;
    report(ProgressState::Measuring, QStringLiteral("restoring the endpoint"));
    const QStringList failures = m_endpoint->restore();
    if (!failures.isEmpty())
        m_progress.message = QStringLiteral("not restored: %1").arg(failures.join(QStringLiteral("; ")));
}

Status ReplayWorker::runRepeat(RepeatResult &result)
{
    report(ProgressState::Starting, QStringLiteral("repeat %1").arg(result.repeat + 1));
    NodeSessions sessions;
    if (Status reached = reachServer(sessions); !reached)
        return reached;
    PassHooks hooks;
    hooks.report = [this](ProgressState state, const QString &phase) { report(state, phase); };
    hooks.log = [this](const QString &line) { logLine(line); };
    hooks.reachNextPhase = [this] { return reachNextPhase(); };
    hooks.ticked = [this, &sessions, &result](const PassResult &soFar, const LivePass &pass) {
        onTick(sessions, result, soFar, pass);
    };
    PassRunner runner(m_job, sessions, m_accesses.front(), m_cluster ? m_cluster->routing() : m_laneRouting.routing(), hooks);
    if (m_run.limits.needsWarming() && !m_warmed) {
        if (Status warmed = runner.warm(); !warmed || cancelled())
            return warmed;
        m_warmed = true;   // the histograms stay: no reset frees them on this endpoint
    }
    if (Status passes = runPasses(runner, result); !passes || cancelled())
        return passes;
    if (m_job.spec().isEndpoint)
        sessions.flushSync(m_job.request().commandTimeoutMs);   // consent was given; leave it as empty as it was asked to be
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
