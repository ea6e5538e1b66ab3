#include "passrunner.h"

#include "cpupinning.h"
#include "fairscheduler.h"
#include "hostport.h"

PassRunner::PassRunner(const WorkerJob &job, ServerSession &session, const ReplayAccess &access, QString host, int port,
                       qint64 serverPid, PassHooks hooks)
    : m_job(job), m_session(session), m_access(access), m_host(std::move(host)), m_port(port), m_serverPid(serverPid),
      m_hooks(std::move(hooks))
{
}

QStringList PassRunner::probeCommandsOfWorkload(const PassPlan &plan) const
{
    QStringList shared;
    if (!plan.timed)
        return shared;
    for (const QString &command : liveProbeCommands()) {
        if (m_job.workload().commandNames.contains(command))
            shared << command;
    }
    return shared;
}

QString PassRunner::connectionName() const
{
    return QStringLiteral("%1 (%2)").arg(m_job.spec().label, hostPortText(m_host, m_port));
}

Outcome<PassMeasurement> PassRunner::run(const PassPlan &plan)
{
    m_hooks.report(plan.timed ? ProgressState::Replaying : ProgressState::Measuring, plan.label);
    const Outcome<long long> baseline = takeBaseline(plan.timed);
    if (!baseline)
        return Error{baseline.error()};
    Outcome<PassResult> pass = replay(plan, baseline.value());
    if (!pass)
        return Error{pass.error()};
    PassMeasurement measurement;
    measurement.pass = std::move(pass.value());
    if (measurement.pass.cancelled)
        return measurement;
    if (Status measured = measure(plan, baseline.value(), measurement); !measured)
        return Error{measured.error()};
    return measurement;
}

Outcome<long long> PassRunner::takeBaseline(bool timed)
{
    // CONFIG RESETSTAT frees memory (latency histograms, the error table): done before the
    // baseline, so the freed bytes are in neither reading rather than taken off the pass.
    // The probes sent between here and the replay are left out of commandstats by name.
    if (timed) {
        if (Status reset = m_session.resetStats(); !reset)
            return Error{reset.error()};
    }
    if (Status flushed = m_session.flushSync(m_job.request().commandTimeoutMs); !flushed)
        return Error{flushed.error()};
    // Read with the replay connection closed: its query and reply buffers would count as data.
    Outcome<long long> baseline = m_session.settledUsedMemory(3000);
    if (!baseline)
        return Error{baseline.error()};
    return baseline.value();
}

Outcome<PassResult> PassRunner::replay(const PassPlan &plan, long long baselineBytes)
{
    const RunRequest &request = m_job.request();
    RedisConnection connection;
    Status connected = connection.connectTcp(m_host, m_port, request.commandTimeoutMs, connectionName());
    if (connected)
        connected = connection.auth(m_access.replayCredentials());
    if (!connected)
        return Error{connected.error()};
    PassResult cancelled;
    cancelled.cancelled = true;
    // Every server's timed pass starts together and nobody moves on until all have ended.
    if (plan.timed) {
        m_hooks.report(ProgressState::Waiting, QStringLiteral("to start %1 with the other servers").arg(plan.label));
        if (!m_hooks.reachNextPhase())
            return cancelled;
        m_hooks.report(ProgressState::Replaying, plan.label);
    }
    std::optional<CpuPinning> pinning;
    if (plan.timed && m_job.run->cpus && m_serverPid > 0) {
        pinning.emplace(*m_job.run->cpus, m_serverPid, m_job.spec().label);
        m_hooks.log(pinning->status() ? QStringLiteral("%1: %2").arg(plan.label, m_job.run->cpus->describe())
                                      : QStringLiteral("timed without CPU pinning: %1").arg(pinning->status().error()));
    }
    PassOptions options;
    options.onlyType = plan.type.toStdString();
    options.eventsPerBatch = request.eventsPerBatch;
    options.cancelled = &m_job.run->cancelled;
    options.workerIndex = m_job.index;
    options.filter = &m_access.filter();
    const QStringList shared = probeCommandsOfWorkload(plan);
    const LivePass live{plan.type, plan.timed, baselineBytes, shared.isEmpty(),
                        m_job.workload().unsupportedByCommand};
    if (!live.readsServer)
        m_hooks.log(QStringLiteral("%1: live figures wait for the end of the pass: the workload sends %2, which the live "
                                   "probe sends too").arg(plan.label, shared.join(QStringLiteral(", "))));
    options.tick = [this, &live](const PassResult &soFar) { m_hooks.ticked(soFar, live); };
    FairScheduler *fair = plan.timed ? m_job.run->fair.get() : nullptr;
    if (fair) {
        options.fair = fair;
        fair->enter(m_job.index);
    }
    Outcome<PassResult> pass = replayPass(*request.workload, connection, options);
    m_replayOwn = connection.sentCommands();
    pinning.reset();
    if (fair)
        fair->leave(m_job.index);
    if (!pass || pass->cancelled)
        return pass;
    if (plan.timed) {
        m_hooks.report(ProgressState::Waiting, QStringLiteral("for the other servers to finish %1").arg(plan.label));
        if (!m_hooks.reachNextPhase())
            return cancelled;
        m_hooks.report(ProgressState::Measuring, plan.label);
    }
    return pass;
}

Status PassRunner::measure(const PassPlan &plan, long long baselineBytes, PassMeasurement &out)
{
    if (plan.timed) {
        // Read first, before the memory readings add INFO calls of Versus's own to the counts.
        // Versus's own commands are taken before the INFO: the server counts a command after
        // it has run, so INFO commandstats does not count itself.
        CommandTally own = m_session.ownCommands();
        Outcome<std::map<QString, CommandStat>> stats = m_session.commandStats();
        if (!stats)
            return Error{stats.error()};
        own.merge(m_replayOwn);
        ReconciledStats reconciled = reconcileCommandStats(stats.value(), sentTally(out.pass), own);
        out.stats = std::move(reconciled.workload);
        out.countedNotSent = std::move(reconciled.countedNotSent);
    }
    Outcome<long long> used = m_session.settledUsedMemory(3000);
    if (!used)
        return Error{used.error()};
    Outcome<long long> keys = m_session.dbSize();
    if (!keys)
        return Error{keys.error()};
    out.usedMemoryDelta = used.value() - baselineBytes;
    out.keys = keys.value();
    if (!plan.type.isEmpty() && out.keys > 0) {
        Outcome<ServerSession::KeySurvey> survey = m_session.surveyKeys();
        if (!survey)
            return Error{survey.error()};
        out.survey = survey.value();
    }
    m_hooks.log(QStringLiteral("%1: %2 events, %3 commands, %4 keys, %5 bytes")
                    .arg(plan.label)
                    .arg(out.pass.events)
                    .arg(out.pass.commands)
                    .arg(out.keys)
                    .arg(out.usedMemoryDelta));
    for (const QString &note : m_session.takeNotes())
        m_hooks.log(note);
    return Status::success();
}
