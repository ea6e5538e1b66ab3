#include "localcluster.h"

#include "clusterslots.h"
#include "infoparser.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QThread>
#include <algorithm>

namespace {

constexpr int kConnectTimeoutMs = 5000;
constexpr int kPollIntervalMs = 50;

// A command on a control connection whose error reply is an Error naming the node.
Outcome<Reply> commandOk(RedisConnection &connection, const std::vector<std::string> &args)
{
    Outcome<Reply> reply = connection.command(args);
    if (!reply)
        return reply;
    if (reply->isError())
        return Error{QStringLiteral("%1: %2 %3: %4")
                         .arg(connection.name(), QString::fromStdString(args[0]), QString::fromStdString(args.size() > 1 ? args[1] : ""),
                              QString::fromStdString(reply->text))};
    return reply;
}

} // namespace

QString slotMapText(const Reply &clusterSlots)
{
    std::vector<std::pair<long long, QString>> ranges;
    for (const Reply &range : clusterSlots.elements) {
        if (range.elements.size() < 3 || range.elements[2].elements.size() < 2)
            continue;
        const long long first = range.elements[0].integer;
        ranges.emplace_back(first, QStringLiteral("%1-%2@%3").arg(first).arg(range.elements[1].integer)
                                       .arg(range.elements[2].elements[1].integer));
    }
    std::sort(ranges.begin(), ranges.end());
    QStringList parts;
    for (const auto &range : ranges)
        parts << range.second;
    return parts.join(QLatin1Char(' '));
}

LocalCluster::LocalCluster(ServerSpec spec, int primaries) : m_spec(std::move(spec)), m_primaries(std::max(1, primaries)) {}

LocalCluster::~LocalCluster() { stop(); }

QString LocalCluster::name() const
{
    return QStringLiteral("%1 · cluster ×%2").arg(m_spec.identity.label()).arg(m_primaries);
}

ClusterTopology LocalCluster::topology() const
{
    ClusterTopology topology;
    for (int index = 0; index < int(m_nodes.size()); ++index) {
        ClusterPrimary primary;
        primary.host = m_nodes[size_t(index)]->host();
        primary.port = m_nodes[size_t(index)]->port();
        primary.ranges.push_back(slotRange(index));
        topology.primaries.push_back(primary);
    }
    return topology;
}

std::pair<int, int> LocalCluster::slotRange(int index) const
{
    const int first = int(static_cast<long long>(index) * kClusterSlots / m_primaries);
    const int next = int(static_cast<long long>(index + 1) * kClusterSlots / m_primaries);
    return {first, next - 1};
}

int LocalCluster::nodeOfSlot(int slot) const
{
    for (int index = 0; index < m_primaries; ++index)
        if (slot <= slotRange(index).second)
            return index;
    return m_primaries - 1;
}

void LocalCluster::stop()
{
    for (auto &node : m_nodes)
        node->stop();
    m_nodes.clear();
}

Status LocalCluster::start(int formTimeoutMs)
{
    stop();
    Status started = startNodes();
    if (started)
        started = assignAndJoin();
    if (started)
        started = waitUntilFormed(formTimeoutMs);
    if (!started)
        stop();
    return started;
}

Status LocalCluster::startNodes()
{
    // TLS-only nodes share one authority: each trusts the others' certificates on the bus.
    std::shared_ptr<const TlsAuthority> authority;
    if (m_spec.tls.enabled) {
        Outcome<std::shared_ptr<const TlsAuthority>> made = TlsAuthority::create(name());
        if (!made)
            return Error{QStringLiteral("%1: %2").arg(name(), made.error())};
        authority = made.value();
    }
    for (int index = 0; index < m_primaries; ++index) {
        auto node = std::make_unique<ServerProcess>(m_spec);
        node->setClusterNode(true);
        node->setTlsAuthority(authority);
        node->setExtraArguments(m_extraArguments);
        if (Status started = node->start(); !started)
            return Error{QStringLiteral("%1, node %2 of %3: %4").arg(name()).arg(index + 1).arg(m_primaries).arg(started.error())};
        m_nodes.push_back(std::move(node));
    }
    return Status::success();
}

Status LocalCluster::assignAndJoin()
{
    // The first node meets every other one; gossip then tells each about all.
    RedisConnection first;
    if (Status connected = node(0).connect(first, kConnectTimeoutMs); !connected)
        return connected;
    for (int index = 0; index < m_primaries; ++index) {
        RedisConnection connection;
        if (Status connected = node(index).connect(connection, kConnectTimeoutMs); !connected)
            return connected;
        const auto [low, high] = slotRange(index);
        if (Outcome<Reply> added = commandOk(connection, {"CLUSTER", "ADDSLOTSRANGE", std::to_string(low), std::to_string(high)});
            !added)
            return Error{added.error()};
        if (index == 0)
            continue;
        if (Outcome<Reply> met = commandOk(first, {"CLUSTER", "MEET", "127.0.0.1", std::to_string(node(index).port()),
                                                   std::to_string(node(index).busPort())});
            !met)
            return Error{met.error()};
    }
    return Status::success();
}

Outcome<bool> LocalCluster::formed(RedisConnection &connection, QString *lacking)
{
    Outcome<Reply> info = commandOk(connection, {"CLUSTER", "INFO"});
    if (!info)
        return Error{info.error()};
    const std::map<QString, QString> fields = parseInfoFields(QString::fromStdString(info->text));
    auto field = [&fields](const char *key) {
        const auto found = fields.find(QLatin1String(key));
        return found == fields.end() ? QString() : found->second;
    };
    if (field("cluster_state") != QLatin1String("ok") || field("cluster_known_nodes").toInt() != m_primaries) {
        *lacking = QStringLiteral("cluster_state:%1, %2 of %3 nodes known")
                       .arg(field("cluster_state"), field("cluster_known_nodes")).arg(m_primaries);
        return false;
    }
    Outcome<Reply> slotMap = commandOk(connection, {"CLUSTER", "SLOTS"});
    if (!slotMap)
        return Error{slotMap.error()};
    QStringList expected;
    for (int index = 0; index < m_primaries; ++index)
        expected << QStringLiteral("%1-%2@%3").arg(slotRange(index).first).arg(slotRange(index).second).arg(node(index).port());
    const QString seen = slotMapText(slotMap.value());
    if (seen != expected.join(QLatin1Char(' '))) {
        *lacking = QStringLiteral("slot map %1").arg(seen.isEmpty() ? QStringLiteral("(empty)") : seen);
        return false;
    }
    return true;
}

Status LocalCluster::waitUntilFormed(int timeoutMs)
{
    std::vector<std::unique_ptr<RedisConnection>> connections;
    for (int index = 0; index < m_primaries; ++index) {
        connections.push_back(std::make_unique<RedisConnection>());
        if (Status connected = node(index).connect(*connections.back(), kConnectTimeoutMs); !connected)
            return connected;
    }
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        int waitingFor = -1;
        QString lacking;
        for (int index = 0; index < m_primaries && waitingFor < 0; ++index) {
            Outcome<bool> ready = formed(*connections[size_t(index)], &lacking);
            if (!ready)
                return Error{ready.error()};
            if (!ready.value())
                waitingFor = index;
        }
        if (waitingFor < 0)
            return Status::success();
        for (int index = 0; index < m_primaries; ++index)
            if (!node(index).isRunning())
                return Error{QStringLiteral("%1: node %2 %3").arg(name()).arg(index + 1).arg(node(index).exitDescription())};
        if (clock.elapsed() > timeoutMs)
            return Error{QStringLiteral("%1: not formed after %2 s: %3 reports %4")
                             .arg(name()).arg(timeoutMs / 1000).arg(node(waitingFor).connectionName(), lacking)};
        QThread::msleep(kPollIntervalMs);
    }
}
