#include "passrunner.h"

#include "clusterredirects.h"
#include "clusterrouting.h"
#include "cpupinning.h"
#include "fairscheduler.h"
#include "hostport.h"
#include "interference.h"

namespace {

// What a pass lost between two readings of the counters. A counter that went back was reset
// (another client's CONFIG RESETSTAT on an endpoint): what it reads now is all since then.
DataLoss lossBetween(const ServerSession::LossCounters &before, const ServerSession::LossCounters &after)
{
    const auto since = [](long long from, long long to) { return to >= from ? to - from : to; };
    return DataLoss{since(before.evictedKeys, after.evictedKeys), since(before.outOfMemoryErrors, after.outOfMemoryErrors)};
}

} // namespace

QString PassPlan::noun() const
{
    if (type.isEmpty())
        return QStringLiteral("the timed pass");
    return QStringLiteral("the %1 pass of %2").arg(timed ? QStringLiteral("timed") : QStringLiteral("memory"), type);
}

PassRunner::PassRunner(const WorkerJob &job, NodeSessions &sessions, const ReplayAccess &access,
                       ClusterRouting *routing, PassHooks hooks)
    : m_job(job), m_sessions(sessions), m_access(access), m_routing(routing), m_hooks(std::move(hooks)),
      m_tails(sessions, job.spec().isEndpoint ? PassTails::Tracking::Off : PassTails::Tracking::Switchable)
{
}

void PassRunner::setTrackingLeftOn(bool leftOn)
{
    if (m_job.spec().isEndpoint)
        m_tails.setTracking(leftOn ? PassTails::Tracking::LeftOn : PassTails::Tracking::Off);
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

qint64 PassRunner::pinnablePid() const
{
    const bool cluster = m_routing && m_routing->isCluster();
    return cluster || m_sessions.size() != 1 ? 0 : m_sessions.addresses().front().pid;
}

Status PassRunner::forgetNonData()
{
    // The ACL log entries of refused commands and the script cache would be counted as the
    // workload's memory; an endpoint's are its owner's and are left alone (docs/MEASUREMENT.md).
    return m_job.spec().isEndpoint ? Status::success() : m_sessions.forgetNonData();
}

Outcome<PassMeasurement> PassRunner::run(const PassPlan &plan)
{
    m_hooks.report(plan.timed ? ProgressState::Replaying : ProgressState::Measuring, plan.label);
    const Outcome<std::vector<long long>> baseline = takeBaseline(plan.timed);
    if (!baseline)
        return Error{baseline.error()};
    if (m_hooks.replayStarting && !plan.timed) {
        if (Status started = m_hooks.replayStarting(); !started)
            return Error{started.error()};
    }
    Outcome<PassResult> pass = replay(plan, sumOf(baseline.value()));
    if (!pass)
        return Error{pass.error()};
    if (m_hooks.replayEnded && !plan.timed) {
        if (Status ended = m_hooks.replayEnded(); !ended)
            return Error{ended.error()};
    }
    PassMeasurement measurement;
    measurement.pass = std::move(pass.value());
    if (measurement.pass.cancelled)
        return measurement;
    if (Status measured = measure(plan, baseline.value(), measurement); !measured)
        return Error{measured.error()};
    return measurement;
}

Status PassRunner::warm()
{
    PassPlan plan;
    plan.warming = true;
    plan.label = QStringLiteral("warming up");
    m_hooks.log(QStringLiteral("latency tracking stays on: the workload runs once before the first baseline, so that each "
                               "command's latency histogram is allocated before any figure is read"));
    Outcome<PassMeasurement> measured = run(plan);
    if (!measured)
        return Error{measured.error()};
    if (measured->pass.cancelled || measured->keys == 0)
        return Status::success();
    // The commands of a type's own pass and of the live probe, which the combined pass does not
    // send, and the one the tails are read with.
    if (Outcome<ServerSession::KeySurvey> survey = m_sessions.surveyKeys(); !survey)
        return Error{survey.error()};
    m_tails.warm(m_job.workload().commandNames);
    if (Outcome<std::vector<long long>> used = m_sessions.usedMemory(); !used)
        return Error{used.error()};
    return m_sessions.flushSync(m_job.request().commandTimeoutMs);
}

Outcome<std::vector<long long>> PassRunner::takeBaseline(bool timed)
{
    // CONFIG RESETSTAT frees memory (latency histograms, the error table): done before the
    // baseline, so the freed bytes are in neither reading rather than taken off the pass.
    // The probes sent between here and the replay are left out of commandstats by name.
    // What an earlier pass left that is no data goes first: SCRIPT FLUSH starts a new Lua
    // state, which the server counts as a CONFIG GET of its own, so it must come before the
    // statistics are reset.
    if (Status cleared = forgetNonData(); !cleared)
        return Error{cleared.error()};
    if (timed) {
        if (Status reset = m_sessions.resetStats(); !reset)
            return Error{reset.error()};
    }
    if (Status flushed = m_sessions.flushSync(m_job.request().commandTimeoutMs); !flushed)
        return Error{flushed.error()};
    Outcome<ServerSession::LossCounters> loss = m_sessions.lossCounters();
    if (!loss)
        return Error{loss.error()};
    m_lossBefore = loss.value();
    if (m_job.spec().isEndpoint && !timed) {
        m_ownBefore = m_sessions.ownCommands();   // before the INFO, which does not count itself
        Outcome<std::map<QString, CommandStat>> stats = m_sessions.commandStats();
        if (!stats)
            return Error{stats.error()};
        m_statsBefore = std::move(stats.value());
    }
    // Read with the replay connections closed: their query and reply buffers would count as data.
    Outcome<std::vector<long long>> used = m_sessions.settledUsedMemory(3000);
    if (!used)
        return used;
    Outcome<MemoryAccounting> accounting = m_sessions.memoryAccounting();
    if (!accounting)
        return Error{accounting.error()};
    m_accountingBefore = std::move(accounting.value());
    return used;
}

Outcome<std::vector<RedisConnection *>> PassRunner::openLanes(int lanes, std::vector<std::unique_ptr<RedisConnection>> &owned) const
{
    std::vector<RedisConnection *> targets;
    for (const NodeAddress &node : m_sessions.addresses()) {
        for (int lane = 0; lane < lanes; ++lane) {
            owned.push_back(std::make_unique<RedisConnection>());
            Status connected = owned.back()->connectTcp(node.host, node.port, m_job.request().commandTimeoutMs, node.name, node.tls);
            if (connected)
                connected = owned.back()->auth(node.replay);
            if (!connected)
                return Error{connected.error()};
            targets.push_back(owned.back().get());
        }
    }
    return targets;
}

Outcome<PassResult> PassRunner::replay(const PassPlan &plan, long long baselineBytes)
{
    const RunRequest &request = m_job.request();
    std::vector<std::unique_ptr<RedisConnection>> connections;
    const int lanes = m_routing ? std::max(1, request.clients) : 1;
    Outcome<std::vector<RedisConnection *>> targets = openLanes(lanes, connections);
    if (!targets)
        return Error{targets.error()};
    PassResult cancelled;
    cancelled.cancelled = true;
    // Every server's timed pass starts together and nobody moves on until all have ended.
    if (plan.timed) {
        m_hooks.report(ProgressState::Waiting, QStringLiteral("to start %1 with the other servers").arg(plan.noun()));
        if (!m_hooks.reachNextPhase())
            return cancelled;
        m_hooks.report(ProgressState::Replaying, plan.label);
    }
    std::optional<CpuPinning> pinning;
    if (plan.timed && m_job.run->cpus && pinnablePid() > 0) {
        pinning.emplace(*m_job.run->cpus, pinnablePid(), m_job.spec().label);
        m_hooks.log(pinning->status() ? QStringLiteral("%1: %2").arg(plan.label, m_job.run->cpus->describe())
                                      : QStringLiteral("timed without CPU pinning: %1").arg(pinning->status().error()));
    }
    PassOptions options;
    options.onlyType = plan.type.toStdString();
    options.eventsPerBatch = request.eventsPerBatch;
    options.cancelled = &m_job.run->cancelled;
    options.workerIndex = m_job.index;
    options.filter = &m_access.filter();
    options.routing = m_routing;
    options.lanes = lanes;
    options.spinForReplies = pinning && pinning->status();
    std::optional<ClusterRedirects> redirects;
    if (m_routing && m_routing->isCluster()) {
        std::vector<NodeEndpoint> endpoints;
        for (const NodeAddress &node : m_sessions.addresses())
            endpoints.push_back(NodeEndpoint{node.host.toStdString(), node.port, node.announced.toStdString()});
        redirects.emplace(*m_routing, std::move(endpoints));
        options.redirects = &*redirects;
    }
    const QStringList shared = probeCommandsOfWorkload(plan);
    const LivePass live{plan.type, plan.timed, baselineBytes, shared.isEmpty(),
                        m_job.workload().unsupportedByCommand};
    if (!live.readsServer)
        m_hooks.log(QStringLiteral("%1: live figures wait for the end of the pass: the workload sends %2, which the live "
                                   "probe sends too").arg(plan.label, shared.join(QStringLiteral(", "))));
    if (!plan.warming)
        options.tick = [this, &live](const PassResult &soFar) { m_hooks.ticked(soFar, live); };
    FairScheduler *fair = plan.timed ? m_job.run->fair.get() : nullptr;
    if (fair) {
        options.fair = fair;
        fair->enter(m_job.index);
    }
    if (plan.timed && !plan.warming) {
        // Before the clock's opening reading, so the meter's own INFO stays out of the server time.
        const bool pinned = pinning && pinning->status();
        m_loadMeter.emplace(m_sessions, pinned ? pinnablePid() : 0,
                            pinned ? m_job.run->cpus->serverCpus : std::vector<int>(), 1 + lanes);
        m_loadMeter->start();
        m_tails.start(m_job.workload().commandNames);   // before the clock: its commands are no part of the pass
        if (Status started = startServerClock(); !started)
            return Error{started.error()};
    }
    Outcome<PassResult> pass = replayPass(*request.workload, targets.value(), options);
    m_replayOwn = CommandTally();
    for (const auto &connection : connections)
        m_replayOwn.merge(connection->sentCommands());
    if (redirects)
        m_replayOwn.addName("asking", redirects->askingSent());
    pinning.reset();
    if (fair)
        fair->leave(m_job.index);
    if (!pass || pass->cancelled)
        return pass;
    if (pass->moved > 0 || pass->asked > 0 || pass->retried > 0)
        m_hooks.log(QStringLiteral("%1: slots moved during the pass: %2 MOVED and %3 ASK replies followed, each command "
                                   "sent again to the primary named, and %4 TRYAGAIN sent again")
                        .arg(plan.label).arg(pass->moved).arg(pass->asked).arg(pass->retried));
    if (plan.timed) {
        m_hooks.report(ProgressState::Waiting, QStringLiteral("for the other servers to finish %1").arg(plan.noun()));
        if (!m_hooks.reachNextPhase())
            return cancelled;
        m_hooks.report(ProgressState::Measuring, plan.label);
    }
    return pass;
}

namespace {

long long commandsIn(const CommandTally &tally)
{
    long long count = 0;
    for (const auto &[name, calls] : tally.byCommand())
        count += calls;
    return count;
}

} // namespace

// What Versus's own reads cost the server's clock, and how they are kept out of a pass's
// change: each reading is one INFO stats cpu (about 8 µs inside the command and 15 µs of event
// loop on valkey-9.1.2). The server adds a loop cycle's duration once the cycle ends, so the
// opening reading's cycle falls inside the change and the closing one's outside; the CPU
// splits each about in half. The live probe's reads during the pass are read around
// (readLiveFigures) and taken off here; the closing read of each stays in. So one reading's
// cycle per probe (every 200 ms) and one more stay in: about 15 µs each, against tens of
// milliseconds of server time in a pass. The commands the server processed are counted
// exactly: Versus's own between the edges (its tally) are taken off.
Status PassRunner::startServerClock()
{
    m_sessions.takeOwnReadTime();
    m_ownAtStart = commandsIn(m_sessions.ownCommands());   // before the INFO, which the server counts after it
    Outcome<ServerClock> clock = m_sessions.serverClock();
    if (!clock)
        return Error{clock.error()};
    m_clockAtStart = clock.value();
    return Status::success();
}

Outcome<ServerClock> PassRunner::passServerTime()
{
    // ASKING is the replay connections' own (clusterredirects.h); their AUTH came before the start.
    const long long ownAtEnd = commandsIn(m_sessions.ownCommands()) + m_replayOwn.ofCommand(QStringLiteral("asking"));
    Outcome<ServerClock> clock = m_sessions.serverClock();
    if (!clock)
        return Error{clock.error()};
    ServerClock pass = clock->since(m_clockAtStart);
    ServerClock own = m_sessions.takeOwnReadTime().value_or(ServerClock());
    own.commandsProcessed = ownAtEnd - m_ownAtStart;
    pass.takeOff(own);
    return pass;
}

Status PassRunner::measure(const PassPlan &plan, const std::vector<long long> &baselineBytes, PassMeasurement &out)
{
    std::map<QString, CommandStat> counted;
    CommandTally own;
    if (plan.timed) {
        // Right before commandstats, so that no reading of Versus's own comes between the two.
        Outcome<ServerClock> clock = passServerTime();
        if (!clock)
            return Error{clock.error()};
        out.serverTime = clock.value();
    }
    if (plan.timed || m_job.spec().isEndpoint) {
        // Read first, before the memory readings add INFO calls of Versus's own to the counts.
        // Versus's own commands are taken before the INFO: the server counts a command after
        // it has run, so INFO commandstats does not count itself.
        own = m_sessions.ownCommands();
        Outcome<std::map<QString, CommandStat>> stats = m_sessions.commandStats();
        if (!stats)
            return Error{stats.error()};
        own.merge(m_replayOwn);
        counted = std::move(stats.value());
    }
    if (plan.timed && m_loadMeter)
        out.load = std::exchange(m_loadMeter, std::nullopt)->finish();
    if (plan.timed) {
        ReconciledStats reconciled = reconcileCommandStats(counted, sentTally(out.pass), own);
        out.stats = std::move(reconciled.workload);
        out.countedNotSent = std::move(reconciled.countedNotSent);
    }
    std::optional<ServerSession::LossCounters> lossAtReset;   // set when the tails reset the statistics
    if (plan.timed) {
        Outcome<ServerTails> tails = m_tails.finish(out.stats, lossAtReset);
        if (!tails)
            return Error{tails.error()};
        out.tails = std::move(tails.value());
    }
    if (Status cleared = forgetNonData(); !cleared)
        return Error{cleared.error()};
    Outcome<std::vector<long long>> used = m_sessions.settledUsedMemory(3000);
    if (!used)
        return Error{used.error()};
    Outcome<std::vector<long long>> keys = m_sessions.dbSizes();
    if (!keys)
        return Error{keys.error()};
    out.usedMemoryDelta = sumOf(used.value()) - sumOf(baselineBytes);
    out.keys = sumOf(keys.value());
    Outcome<ServerSession::LossCounters> loss = m_sessions.lossCounters();
    if (!loss)
        return Error{loss.error()};
    out.loss = lossBetween(m_lossBefore, lossAtReset.value_or(loss.value()));
    if (lossAtReset)
        out.loss += lossBetween(ServerSession::LossCounters(), loss.value());
    Outcome<MemoryAccounting> accounting = m_sessions.memoryAccounting();
    if (!accounting)
        return Error{accounting.error()};
    out.accounting = MemoryAccounting::change(m_accountingBefore, accounting.value());
    if (m_routing && m_routing->isCluster()) {
        for (int node = 0; node < m_sessions.size(); ++node)
            out.nodes.push_back(NodeMemory{m_routing->slotRangesOf(node), keys.value()[size_t(node)],
                                           used.value()[size_t(node)] - baselineBytes[size_t(node)]});
    }
    if (!plan.type.isEmpty() && out.keys > 0) {
        Outcome<ServerSession::KeySurvey> survey = m_sessions.surveyKeys();
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
    QStringList lost;
    if (out.loss.evictedKeys > 0)
        lost << QStringLiteral("evicted %1 keys").arg(out.loss.evictedKeys);
    if (out.loss.refusedWrites > 0)
        lost << QStringLiteral("refused %1 writes as out of memory").arg(out.loss.refusedWrites);
    if (!lost.isEmpty())
        m_hooks.log(QStringLiteral("%1: the server %2: no memory figure").arg(plan.label, lost.join(QStringLiteral(" and "))));
    for (const QString &note : m_sessions.takeNotes())
        m_hooks.log(note);
    return m_job.spec().isEndpoint ? checkInterference(plan, counted, own, out) : Status::success();
}

Status PassRunner::checkInterference(const PassPlan &plan, const std::map<QString, CommandStat> &counted,
                                     const CommandTally &own, const PassMeasurement &out)
{
    const CommandTally sent = sentTally(out.pass);
    const CommandTally errors = errorTally(out.pass);
    // `own` holds the replay connections' AUTH too, m_ownBefore not: they were counted in between.
    Interference found = plan.timed ? interferenceSinceReset(counted, own, sent, errors)
                                    : interferenceBetween(m_statsBefore, counted, m_ownBefore, own, sent, errors);
    // A FLUSHALL or CONFIG RESETSTAT after that reading would still change the memory and keys
    // just read: commandstats once more shows it.
    CommandTally ownLast = m_sessions.ownCommands();   // before the INFO, which does not count itself
    ownLast.merge(m_replayOwn);
    Outcome<std::map<QString, CommandStat>> last = m_sessions.commandStats();
    if (!last)
        return Error{last.error()};
    const Interference late = interferenceBetween(counted, last.value(), own, ownLast, CommandTally(), CommandTally());
    for (const auto &[command, count] : late.flushes)
        found.flushes[command] += count;
    found.statsReset = found.statsReset || late.statsReset;
    if (!found.any())
        return Status::success();
    return Error{found.describe(plan.label, out.keys)};   // the worker names the server
}
