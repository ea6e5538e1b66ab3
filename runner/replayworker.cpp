#include "replayworker.h"

#include "cpupinning.h"
#include "fairscheduler.h"
#include "infoparser.h"
#include "passreplayer.h"
#include "passspeedometer.h"
#include "phasebarrier.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "serversession.h"

#include <QElapsedTimer>

struct ReplayWorker::PassMeasurement {
    PassResult pass;
    std::map<QString, CommandStat> stats;       // timed passes only
    long long usedMemoryDelta = 0;
    long long keys = 0;
    ServerSession::KeySurvey survey;
};

namespace {

int passesPerRepeat(const WorkerJob &job)
{
    return (job.workload->combinedPass() ? 1 : 0) + int(job.description.types.size());
}

void mergeStats(std::map<QString, CommandStat> &into, const std::map<QString, CommandStat> &from)
{
    for (const auto &entry : from) {
        into[entry.first].calls += entry.second.calls;
        into[entry.first].usec += entry.second.usec;
    }
}

} // namespace

ReplayWorker::ReplayWorker(WorkerJob job) : m_job(std::move(job))
{
    const ServerIdentity &identity = m_job.spec.identity;
    m_run.id = m_job.spec.label.isEmpty() ? identity.label() : m_job.spec.label;
    m_run.product = identity.product;
    m_run.version = identity.version;
    m_run.buildId = identity.buildId;
    m_run.allocator = identity.allocator;
    m_run.binarySha256 = m_job.spec.binarySha256;
    m_run.endpoint = m_job.spec.isEndpoint;

    m_progress.runId = m_job.runId;
    m_progress.serverId = m_run.id;
    m_progress.eventsTotal = m_job.description.events * passesPerRepeat(m_job) * std::max(1, m_job.repeats);
}

ReplayWorker::~ReplayWorker() = default;

void ReplayWorker::report(const QString &state, const QString &phase, const QString &message)
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
    if (m_run.status == QLatin1String("failed") && m_run.logTail.isEmpty())
        m_run.logTail = tail;
}

bool ReplayWorker::reachNextPhase()
{
    const int phase = m_phase++;
    if (!m_job.phases)
        return !cancelled();
    return m_job.phases->arrive(m_job.index, phase, *m_job.cancelled);
}

void ReplayWorker::run()
{
    for (int repeat = 0; repeat < std::max(1, m_job.repeats); ++repeat) {
        if (cancelled())
            break;
        if (repeat > 0)
            report(QStringLiteral("waiting"), QStringLiteral("for the other servers to finish repeat %1").arg(repeat));
        if (!reachNextPhase())
            break;
        m_progress.repeat = repeat;
        RepeatResult result;
        result.repeat = repeat;
        Status status = runRepeat(repeat, result);
        if (!status || cancelled()) {
            result.status = cancelled() ? QStringLiteral("incomplete") : QStringLiteral("failed");
            result.error = status ? QStringLiteral("cancelled") : status.error();
            m_run.status = result.status;
            m_run.error = result.error;
            if (m_process)
                m_run.logTail = m_process->logTail(20);
            m_run.repeats.push_back(result);
            logLine(result.error);
            stopServer();
            break;
        }
        m_run.repeats.push_back(result);
        stopServer();
    }
    if (cancelled() && m_run.status == QLatin1String("ok")) {
        m_run.status = QStringLiteral("incomplete");
        m_run.error = QStringLiteral("cancelled");
    }
    if (m_job.phases)
        m_job.phases->leave(m_job.index);
    if (m_job.fair)
        m_job.fair->leave(m_job.index);
    stopServer();
    const bool ok = m_run.status == QLatin1String("ok");
    report(ok ? QStringLiteral("done") : (m_run.status == QLatin1String("failed") ? QStringLiteral("failed")
                                                                                  : QStringLiteral("cancelled")),
           QString(), ok ? QString() : m_run.error);
    Q_EMIT finished(m_job.runId, m_job.index, m_run);
}

Status ReplayWorker::checkEndpointConsent(ServerSession &session)
{
    Outcome<QString> server = session.info("server");
    if (!server)
        return Error{server.error()};
    const InfoServer identity = parseInfoServer(server.value());
    if (identity.version.isEmpty())
        return Error{QStringLiteral("%1 is not a Valkey or Redis server (INFO server has no version)").arg(m_run.id)};
    if (m_run.version.isEmpty()) {
        m_run.product = identity.product;
        m_run.version = identity.version;
    }
    Outcome<long long> keys = session.dbSize();
    if (!keys)
        return Error{keys.error()};
    if (!m_job.allowFlush)
        return Error{QStringLiteral("refusing to flush endpoint %1:%2 (%3 keys): Versus did not launch it; "
                                    "allow flushing it explicitly to use it")
                         .arg(m_host).arg(m_port).arg(keys.value())};
    return Status::success();
}

Status ReplayWorker::runRepeat(int repeat, RepeatResult &result)
{
    report(QStringLiteral("starting"), QStringLiteral("repeat %1").arg(repeat + 1));
    if (m_job.spec.isLaunchable()) {
        m_process = std::make_unique<ServerProcess>(m_job.spec);
        // Per-command latency histograms are allocated on a command's first call and freed by
        // CONFIG RESETSTAT, so they would land in whichever pass happens to run first.
        m_process->setExtraArguments({QStringLiteral("--latency-tracking"), QStringLiteral("no")});
        Status started = m_process->start(std::max(10000, m_job.commandTimeoutMs));
        if (!started)
            return started;
        m_host = m_process->host();
        m_port = m_process->port();
        logLine(QStringLiteral("started on %1:%2 (pid %3)").arg(m_host).arg(m_port).arg(m_process->pid()));
    } else {
        m_host = m_job.spec.host;
        m_port = m_job.spec.port;
    }
    const QString name = QStringLiteral("%1 (%2:%3)").arg(m_run.id, m_host).arg(m_port);
    ServerSession session;
    Status connected = session.connect(m_host, m_port, m_job.spec.password, m_job.commandTimeoutMs, name);
    if (!connected)
        return connected;
    if (m_job.spec.isEndpoint) {
        // A launched server has no client but ours; an endpoint may have its own.
        Status noted = session.noteIdleClients();
        if (!noted)
            return noted;
        Status consent = checkEndpointConsent(session);
        if (!consent)
            return consent;
        // Same reason as for launched servers; older servers without the setting refuse it.
        session.connection().command({"CONFIG", "SET", "latency-tracking", "no"});
    }

    if (m_job.workload->combinedPass()) {
        PassMeasurement all;
        Status status = runPass(session, name, QString(), true, result, all);
        if (!status)
            return status;
        result.keys = all.keys;
        result.usedMemoryDelta = all.usedMemoryDelta;
        result.bytesPerKey = all.keys > 0 ? double(all.usedMemoryDelta) / double(all.keys) : 0.0;
    }
    for (const QString &type : m_job.description.types) {
        if (cancelled())
            return Status::success();
        PassMeasurement measured;
        const bool timed = !m_job.workload->combinedPass();
        Status status = runPass(session, name, type, timed, result, measured);
        if (!status)
            return status;
        TypeMemory &memory = result.byType[type];
        if (!measured.pass.firstUnknownCommandError.isEmpty()) {
            memory.status = QStringLiteral("unsupported");
            memory.error = measured.pass.firstUnknownCommandError;
            logLine(QStringLiteral("%1 unsupported: %2").arg(type, memory.error));
            m_progress.message = QStringLiteral("%1 unsupported").arg(type);
            continue;
        }
        memory.keys = measured.keys;
        memory.usedMemoryDelta = measured.usedMemoryDelta;
        memory.bytesPerKey = measured.keys > 0 ? double(measured.usedMemoryDelta) / double(measured.keys) : 0.0;
        memory.memoryUsageBytesPerKey =
            measured.survey.keys > 0 ? double(measured.survey.memoryUsageBytes) / double(measured.survey.keys) : 0.0;
        memory.encodings = measured.survey.encodings;
        if (timed)
            memory.commands = measured.stats;
    }
    if (!m_job.workload->combinedPass()) {
        // Each pattern stood alone: the overall figure is the key-weighted mean of the supported ones.
        for (const auto &entry : result.byType) {
            if (entry.second.status != QLatin1String("ok"))
                continue;
            result.keys += entry.second.keys;
            result.usedMemoryDelta += entry.second.usedMemoryDelta;
        }
        result.bytesPerKey = result.keys > 0 ? double(result.usedMemoryDelta) / double(result.keys) : 0.0;
    }
    if (m_job.spec.isEndpoint)
        session.flushSync(m_job.commandTimeoutMs);   // consent was given; leave it as empty as it was asked to be
    return Status::success();
}

// The live probe: the same figures as the final ones, read mid-pass. Memory passes are
// probed too, so each type's bar grows while its pass runs; their command counts are left
// alone, since CONFIG RESETSTAT only precedes timed passes.
Status ReplayWorker::publishLive(ServerSession &session, const QString &type, bool timed, long long baselineBytes,
                                 const RepeatResult &totals, long long eventsDone, long long commandsDone)
{
    Outcome<std::map<QString, CommandStat>> stats = timed ? session.commandStats()
                                                          : Outcome<std::map<QString, CommandStat>>(std::map<QString, CommandStat>());
    Outcome<long long> used = session.usedMemory();
    Outcome<long long> keys = session.dbSize();
    if (!stats || !used || !keys)
        return Error{!stats ? stats.error() : (!used ? used.error() : keys.error())};
    RepeatResult partial = totals;
    partial.status = QStringLiteral("incomplete");
    if (timed) {
        partial.events = eventsDone;
        partial.commands = commandsDone;
    }
    if (type.isEmpty()) {
        partial.byCommand = stats.value();
        partial.keys = keys.value();
        partial.usedMemoryDelta = used.value() - baselineBytes;
        partial.bytesPerKey = keys.value() > 0 ? double(partial.usedMemoryDelta) / double(keys.value()) : 0;
    } else {
        mergeStats(partial.byCommand, stats.value());
        TypeMemory &memory = partial.byType[type];
        memory.keys = keys.value();
        memory.usedMemoryDelta = used.value() - baselineBytes;
        memory.bytesPerKey = keys.value() > 0 ? double(memory.usedMemoryDelta) / double(keys.value()) : 0;
    }
    partial.eventsPerSecond = m_progress.eventsPerSecond;
    Q_EMIT live(m_job.runId, m_job.index, partial);
    return Status::success();
}

Status ReplayWorker::runPass(ServerSession &session, const QString &name, const QString &type, bool timed,
                             RepeatResult &totals, PassMeasurement &out)
{
    const QString phase = type.isEmpty() ? QStringLiteral("timed pass")
                                         : (timed ? QStringLiteral("timed: %1") : QStringLiteral("memory: %1")).arg(type);
    long long before = m_eventsBeforePass;
    long long baselineBytes = 0;
    for (int attempt = 1;; ++attempt) {
        report(timed ? QStringLiteral("replaying") : QStringLiteral("measuring"), phase);
        Status flushed = session.flushSync(m_job.commandTimeoutMs);
        if (!flushed)
            return flushed;
        // Read with the replay connection closed: its query and reply buffers would count as data.
        Outcome<long long> baseline = session.settledUsedMemory(3000);
        if (!baseline)
            return Error{baseline.error()};
        baselineBytes = baseline.value();
        if (timed) {
            Status reset = session.resetStats();
            if (!reset)
                return reset;
        }
        RedisConnection replay;
        Status connected = replay.connectTcp(m_host, m_port, m_job.commandTimeoutMs, name);
        if (connected && !m_job.spec.password.isEmpty())
            connected = replay.auth(m_job.spec.password);
        if (!connected)
            return connected;

        PassOptions options;
        options.onlyType = type.toStdString();
        options.eventsPerBatch = m_job.eventsPerBatch;
        options.cancelled = m_job.cancelled.get();
        options.workerIndex = m_job.index;
        // Every server's timed pass starts together and nobody moves on until all have ended.
        if (timed) {
            report(QStringLiteral("waiting"), QStringLiteral("to start %1 with the other servers").arg(phase));
            if (!reachNextPhase())
                return Status::success();
        }
        // m_phase - 1 is the phase just reached: the same for every server of this pass.
        const int timedPhase = m_phase - 1;
        std::optional<CpuPinning> pinning;
        if (timed && m_job.cpus && m_process) {
            const CpuPlan plan = m_job.cpus->planFor(timedPhase);
            totals.cpuLoopMs = std::max(totals.cpuLoopMs, plan.serverLoopMilliseconds());
            pinning.emplace(plan, m_process->pid(), m_run.id);
            logLine(pinning->status() ? QStringLiteral("%1: %2").arg(phase, plan.describe())
                                      : QStringLiteral("timed without CPU pinning: %1").arg(pinning->status().error()));
            if (pinning->status() && m_job.speedometer) {
                report(QStringLiteral("waiting"), QStringLiteral("for the machine's usual speed"));
                const QString waited = m_job.speedometer->begin(timedPhase, plan.serverCpus.front(), m_job.cancelled.get());
                if (!waited.isEmpty())
                    logLine(QStringLiteral("%1: %2").arg(phase, waited));
            }
        }
        const bool sampling = pinning && pinning->status() && m_job.speedometer;
        if (timed)
            report(QStringLiteral("replaying"), phase);
        if (timed && m_job.fair) {
            options.fair = m_job.fair.get();
            m_job.fair->enter(m_job.index);
        }
        QElapsedTimer passClock;
        passClock.start();
        QElapsedTimer sinceProbe;
        sinceProbe.start();
        QString probeError;
        options.tick = [&](long long eventsDone, long long commandsDone) {
            // Ticks come between batches with the turn held: no server is executing a command.
            if (sampling)
                m_job.speedometer->tick();
            m_progress.eventsDone = before + eventsDone;
            m_progress.commandsDone = commandsDone;
            const double seconds = double(passClock.nsecsElapsed()) / 1e9;
            m_progress.eventsPerSecond = seconds > 0 ? double(eventsDone) / seconds : 0;
            m_progress.etaSeconds = m_progress.eventsPerSecond > 0
                ? double(m_progress.eventsTotal - m_progress.eventsDone) / m_progress.eventsPerSecond
                : -1;
            Q_EMIT progress(m_job.runId, m_job.index, m_progress);
            if (sinceProbe.elapsed() < m_job.probeIntervalMs)
                return;
            sinceProbe.restart();
            Status probed = publishLive(session, type, timed, baselineBytes, totals, eventsDone, commandsDone);
            if (!probed)
                probeError = probed.error();
        };

        Outcome<PassResult> pass = replayPass(*m_job.workload, replay, options);
        pinning.reset();
        if (options.fair)
            m_job.fair->leave(m_job.index);
        m_eventsBeforePass = before + m_job.description.events;
        if (!probeError.isEmpty())
            logLine(QStringLiteral("live probe: %1").arg(probeError));
        if (!pass)
            return Error{pass.error()};
        out.pass = std::move(pass.value());
        if (out.pass.cancelled)
            return Status::success();
        if (timed) {
            report(QStringLiteral("waiting"), QStringLiteral("for the other servers to finish %1").arg(phase));
            if (!reachNextPhase())
                return Status::success();
            report(QStringLiteral("measuring"), phase);
        }
        replay.close();
        if (!sampling)
            break;
        const PassSpeedometer::Judgement judged = m_job.speedometer->finish(timedPhase, attempt);
        if (!judged.retime) {   // this attempt is kept
            totals.passLoopMs = std::max(totals.passLoopMs, judged.speed.loopNs / 1e6);
            totals.passChaseNs = std::max(totals.passChaseNs, judged.speed.chaseNs);
            if (judged.verdict.slow) {
                totals.slowPasses += 1;
                logLine(attempt == 1 ? QStringLiteral("%1: %2; kept, and marked slow").arg(phase, judged.verdict.reason)
                                     : QStringLiteral("%1: %2 in attempt %3 as well; kept, and marked slow")
                                           .arg(phase, judged.verdict.reason).arg(attempt));
            }
            break;
        }
        totals.retimed += 1;
        logLine(QStringLiteral("%1: %2; timing it again (attempt %3 of %4)")
                    .arg(phase, judged.verdict.reason).arg(attempt + 1).arg(m_job.speedometer->retimeLimit() + 1));
        // The progress bar gets the extra pass, so it neither stalls nor passes 100%.
        m_progress.eventsTotal += m_job.description.events;
        before += m_job.description.events;
    }

    Outcome<long long> used = session.settledUsedMemory(3000);
    if (!used)
        return Error{used.error()};
    Outcome<long long> keys = session.dbSize();
    if (!keys)
        return Error{keys.error()};
    out.usedMemoryDelta = used.value() - baselineBytes;
    out.keys = keys.value();

    if (timed) {
        Outcome<std::map<QString, CommandStat>> stats = session.commandStats();
        if (!stats)
            return Error{stats.error()};
        out.stats = stats.value();
        mergeStats(totals.byCommand, out.stats);
        totals.events += out.pass.eventsSent;
        totals.commands += out.pass.commands;
        totals.seconds += out.pass.activeSeconds;
        totals.eventsPerSecond = totals.seconds > 0 ? double(totals.events) / totals.seconds : 0;
        totals.commandsPerSecond = totals.seconds > 0 ? double(totals.commands) / totals.seconds : 0;
        totals.latencyP50Usec = out.pass.percentileUsec(0.50);
        totals.latencyP99Usec = out.pass.percentileUsec(0.99);
        for (const auto &error : out.pass.errors) {
            if (out.pass.firstUnknownCommandError.isEmpty() || !error.first.contains(QLatin1String("unknown command")))
                totals.errors[error.first] += error.second;
        }
    }
    if (!type.isEmpty() && out.keys > 0) {
        Outcome<ServerSession::KeySurvey> survey = session.surveyKeys();
        if (!survey)
            return Error{survey.error()};
        out.survey = survey.value();
    }
    logLine(QStringLiteral("%1: %2 events, %3 commands, %4 keys, %5 bytes")
                .arg(phase)
                .arg(out.pass.events)
                .arg(out.pass.commands)
                .arg(out.keys)
                .arg(out.usedMemoryDelta));
    for (const QString &note : session.takeNotes())
        logLine(note);
    return Status::success();
}
