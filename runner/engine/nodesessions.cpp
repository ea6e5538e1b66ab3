#include "nodesessions.h"

namespace {

// Calls `read` on every session, in order; the first failure is the answer.
template <typename Read>
Outcome<std::vector<long long>> perNode(std::vector<std::unique_ptr<ServerSession>> &sessions, Read read)
{
    std::vector<long long> values;
    values.reserve(sessions.size());
    for (auto &session : sessions) {
        Outcome<long long> value = read(*session);
        if (!value)
            return Error{value.error()};
        values.push_back(value.value());
    }
    return values;
}

template <typename Act>
Status onEveryNode(std::vector<std::unique_ptr<ServerSession>> &sessions, Act act)
{
    for (auto &session : sessions) {
        if (Status done = act(*session); !done)
            return done;
    }
    return Status::success();
}

} // namespace

long long sumOf(const std::vector<long long> &values)
{
    long long sum = 0;
    for (const long long value : values)
        sum += value;
    return sum;
}

Status NodeSessions::connect(const std::vector<NodeAddress> &nodes, int timeoutMs)
{
    m_sessions.clear();
    m_addresses = nodes;
    for (const NodeAddress &node : nodes) {
        auto session = std::make_unique<ServerSession>();
        if (Status connected = session->connect(node.host, node.port, node.control, timeoutMs, node.name, node.tls); !connected)
            return connected;
        m_sessions.push_back(std::move(session));
    }
    return Status::success();
}

Status NodeSessions::resetStats()
{
    return onEveryNode(m_sessions, [](ServerSession &session) { return session.resetStats(); });
}

void NodeSessions::setResetByDifference(bool byDifference)
{
    for (auto &session : m_sessions)
        session->setResetByDifference(byDifference);
}

Status NodeSessions::forgetNonData()
{
    return onEveryNode(m_sessions, [](ServerSession &session) { return session.forgetNonData(); });
}

Status NodeSessions::flushSync(int timeoutMs)
{
    return onEveryNode(m_sessions, [timeoutMs](ServerSession &session) { return session.flushSync(timeoutMs); });
}

Status NodeSessions::noteIdleClients()
{
    return onEveryNode(m_sessions, [](ServerSession &session) { return session.noteIdleClients(); });
}

CommandTally NodeSessions::ownCommands() const
{
    CommandTally own;
    for (const auto &session : m_sessions)
        own.merge(session->ownCommands());
    return own;
}

Outcome<std::vector<long long>> NodeSessions::usedMemory()
{
    return perNode(m_sessions, [](ServerSession &session) { return session.usedMemory(); });
}

Outcome<std::vector<long long>> NodeSessions::settledUsedMemory(int timeoutMs)
{
    return perNode(m_sessions, [timeoutMs](ServerSession &session) { return session.settledUsedMemory(timeoutMs); });
}

Outcome<std::vector<long long>> NodeSessions::dbSizes()
{
    return perNode(m_sessions, [](ServerSession &session) { return session.dbSize(); });
}

Outcome<ServerSession::LossCounters> NodeSessions::lossCounters()
{
    ServerSession::LossCounters summed;
    for (auto &session : m_sessions) {
        Outcome<ServerSession::LossCounters> node = session->lossCounters();
        if (!node)
            return Error{node.error()};
        summed.evictedKeys += node->evictedKeys;
        summed.outOfMemoryErrors += node->outOfMemoryErrors;
    }
    return summed;
}

Outcome<std::map<QString, CommandStat>> NodeSessions::commandStats()
{
    std::map<QString, CommandStat> summed;
    for (auto &session : m_sessions) {
        Outcome<std::map<QString, CommandStat>> stats = session->commandStats();
        if (!stats)
            return Error{stats.error()};
        for (const auto &[name, stat] : stats.value()) {
            CommandStat &sum = summed[name];
            sum.calls += stat.calls;
            sum.usec += stat.usec;
        }
    }
    return summed;
}

Outcome<ServerClock> NodeSessions::serverClock()
{
    std::optional<ServerClock> summed;
    for (auto &session : m_sessions) {
        Outcome<ServerClock> node = session->serverClock();
        if (!node)
            return Error{node.error()};
        if (summed)
            summed->add(node.value());
        else
            summed = node.value();
    }
    return summed.value_or(ServerClock());
}

void NodeSessions::addOwnReadTime(const ServerClock &cost)
{
    if (m_ownReadTime)
        m_ownReadTime->add(cost);
    else
        m_ownReadTime = cost;
}

Outcome<ServerSession::KeySurvey> NodeSessions::surveyKeys()
{
    ServerSession::KeySurvey summed;
    for (auto &session : m_sessions) {
        Outcome<ServerSession::KeySurvey> survey = session->surveyKeys();
        if (!survey)
            return Error{survey.error()};
        summed.keys += survey->keys;
        summed.memoryUsageBytes += survey->memoryUsageBytes;
        for (const auto &[encoding, count] : survey->encodings)
            summed.encodings[encoding] += count;
    }
    return summed;
}

Outcome<MemoryAccounting> NodeSessions::memoryAccounting()
{
    MemoryAccounting summed;
    for (auto &session : m_sessions) {
        Outcome<MemoryAccounting> node = readMemoryAccounting(session->connection());
        if (!node)
            return Error{node.error()};
        summed.add(node.value());
    }
    return summed;
}

QStringList NodeSessions::takeNotes()
{
    QStringList notes;
    for (auto &session : m_sessions)
        notes << session->takeNotes();
    return notes;
}
