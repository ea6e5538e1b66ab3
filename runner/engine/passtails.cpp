#include "passtails.h"

namespace {

QString offReason()
{
    return QStringLiteral("latency tracking is off: Versus turns it off on a server it did not start, so that its "
                          "histograms land in no memory figure");
}

} // namespace

void PassTails::start(const QStringList &commands)
{
    m_atStart.clear();
    m_unavailable.clear();
    m_turnedOn = false;
    m_request = {"LATENCY", "HISTOGRAM"};
    for (const QString &command : commands)
        m_request.push_back(command.toLower().toStdString());
    if (m_tracking == Tracking::Off) {
        m_unavailable = offReason();
        return;
    }
    if (m_tracking == Tracking::Switchable) {
        for (int node = 0; node < m_sessions.size(); ++node) {
            Outcome<Reply> on = m_sessions.node(node).connection().command({"CONFIG", "SET", "latency-tracking", "yes"});
            if (!on || on->isError()) {
                m_unavailable = on ? refusalText(QStringLiteral("CONFIG SET latency-tracking yes"), on.value()) : on.error();
                return;
            }
            m_turnedOn = true;
        }
    }
    Outcome<std::vector<LatencyHistograms>> read = readAll();
    if (!read) {
        m_unavailable = read.error();
        return;
    }
    m_atStart = std::move(read.value());
}

void PassTails::warm(const QStringList &commands)
{
    start(commands);   // a refusal allocates nothing, and the next start says it again
    m_atStart.clear();
}

Outcome<std::vector<LatencyHistograms>> PassTails::readAll()
{
    std::vector<LatencyHistograms> all;
    for (int node = 0; node < m_sessions.size(); ++node) {
        RedisConnection &connection = m_sessions.node(node).connection();
        Outcome<Reply> reply = connection.command(m_request);
        if (!reply)
            return Error{reply.error()};
        if (reply->isError())
            return Error{QStringLiteral("%1: %2").arg(connection.name(), refusalText(QStringLiteral("LATENCY HISTOGRAM"), reply.value()))};
        Outcome<LatencyHistograms> parsed = parseLatencyHistogram(reply.value());
        if (!parsed)
            return Error{QStringLiteral("%1: %2").arg(connection.name(), parsed.error())};
        all.push_back(std::move(parsed.value()));
    }
    return all;
}

Outcome<ServerTails> PassTails::finish(const std::map<QString, CommandStat> &workload,
                                       std::optional<ServerSession::LossCounters> &beforeReset)
{
    ServerTails tails;
    if (m_unavailable.isEmpty()) {
        Outcome<std::vector<LatencyHistograms>> after = readAll();
        if (after)
            tails = difference(after.value(), workload);
        else
            m_unavailable = after.error();
    }
    if (!m_unavailable.isEmpty()) {
        tails.byCommand.clear();
        tails.unavailable = m_unavailable;
    }
    if (Status stopped = stopTracking(beforeReset); !stopped)
        return Error{stopped.error()};
    return tails;
}

ServerTails PassTails::difference(const std::vector<LatencyHistograms> &after, const std::map<QString, CommandStat> &workload) const
{
    ServerTails tails;
    for (const auto &[command, stat] : workload) {
        if (stat.calls <= 0)
            continue;
        LatencyBuckets summed;
        QString problem;
        for (size_t node = 0; node < after.size() && problem.isEmpty(); ++node) {
            const auto before = m_atStart[node].find(command);
            const auto now = after[node].find(command);
            if (now == after[node].end()) {
                if (before != m_atStart[node].end())
                    problem = QStringLiteral("its histogram went away during the pass (the statistics were reset)");
                continue;
            }
            Outcome<LatencyBuckets> change = latencyChange(before == m_atStart[node].end() ? CumulativeLatency() : before->second,
                                                           now->second);
            Outcome<LatencyBuckets> added = change ? addLatencyBuckets(summed, change.value()) : change;
            if (added)
                summed = std::move(added.value());
            else
                problem = added.error();
        }
        if (problem.isEmpty() && summed.calls() != stat.calls)
            problem = summed.calls() == 0
                ? QStringLiteral("the server tracked none of its %1 calls (latency tracking is off)").arg(stat.calls)
                : QStringLiteral("the server's histogram counted %1 calls where the workload made %2: not the workload's "
                                 "alone").arg(summed.calls()).arg(stat.calls);
        if (problem.isEmpty())
            tails.byCommand[command] = std::move(summed);
        else
            tails.commandUnavailable[command] = problem;
    }
    return tails;
}

Status PassTails::stopTracking(std::optional<ServerSession::LossCounters> &beforeReset)
{
    if (!m_turnedOn)
        return Status::success();
    // The reset sets evicted_keys and errorstat_OOM back to 0: the pass's are read first.
    Outcome<ServerSession::LossCounters> loss = m_sessions.lossCounters();
    if (!loss)
        return Error{loss.error()};
    beforeReset = loss.value();
    for (int node = 0; node < m_sessions.size(); ++node) {
        // Off first: with tracking on, CONFIG RESETSTAT would allocate its own histogram after it ran.
        Outcome<Reply> off = m_sessions.node(node).connection().command({"CONFIG", "SET", "latency-tracking", "no"});
        if (off && off->isError())
            return Error{QStringLiteral("%1: %2").arg(m_sessions.node(node).connection().name(),
                                                      refusalText(QStringLiteral("CONFIG SET latency-tracking no"), off.value()))};
        if (!off)
            return Error{off.error()};
    }
    m_turnedOn = false;
    return m_sessions.resetStats();
}
