#include "clusternodes.h"

#include "hostport.h"

ClusterNodes::ClusterNodes(const ServerSpec &spec, QString seriesName) : m_spec(spec), m_name(std::move(seriesName)) {}

Status ClusterNodes::start(const QStringList &extraArguments, int timeoutMs)
{
    stop();
    m_cluster = std::make_unique<LocalCluster>(m_spec, m_spec.topology.primaries);
    m_cluster->setExtraArguments(extraArguments);
    if (Status started = m_cluster->start(std::max(30000, timeoutMs)); !started) {
        m_cluster.reset();
        return started;
    }
    m_topology = m_cluster->topology();
    for (int index = 0; index < m_cluster->size(); ++index) {
        ServerProcess &process = m_cluster->node(index);
        NodeAddress node;
        node.host = process.host();
        node.port = process.port();
        node.control = process.controlCredentials();
        node.replay = process.replayCredentials();
        node.tls = process.tls();
        node.name = QStringLiteral("%1 (%2)").arg(m_name, hostPortText(node.host, node.port));
        node.slotRanges = m_topology.primaries[size_t(index)].rangesText();
        node.pid = process.pid();
        m_nodes.push_back(node);
    }
    return Status::success();
}

void ClusterNodes::adopt(const ClusterTopology &topology, const MembershipProof &proof)
{
    stop();
    m_topology = topology;
    for (const ClusterPrimary &primary : topology.primaries) {
        NodeAddress node;
        node.host = primary.host;
        node.port = primary.port;
        node.control = clusterNodeLogin(primary, proof);
        node.tls = proof.tls;
        node.name = QStringLiteral("%1 (%2)").arg(m_name, hostPortText(node.host, node.port));
        node.slotRanges = primary.rangesText();
        node.announced = primary.announced;
        m_nodes.push_back(node);
    }
}

void ClusterNodes::stop()
{
    m_routing.reset();
    if (m_cluster)
        m_cluster->stop();
    m_cluster.reset();
    m_nodes.clear();
    m_topology = ClusterTopology();
}

QString ClusterNodes::describe() const
{
    QStringList parts;
    for (const NodeAddress &node : m_nodes) {
        const QString pid = node.pid > 0 ? QStringLiteral(", pid %1").arg(node.pid) : QString();
        parts << QStringLiteral("%1 (slots %2%3)").arg(hostPortText(node.host, node.port), node.slotRanges, pid);
    }
    return QStringLiteral("%1 primaries: %2").arg(parts.size()).arg(parts.join(QStringLiteral(", ")));
}

Status ClusterNodes::prepareRouting(RedisConnection &connection, const Workload &workload, bool checkWorkload)
{
    return m_routing.prepare(connection, workload, &m_topology, checkWorkload, m_name);
}

QStringList ClusterNodes::logTail(int lines) const
{
    QStringList tail;
    if (!m_cluster)
        return tail;
    for (int index = 0; index < m_cluster->size(); ++index) {
        tail << QStringLiteral("-- node %1 of %2 (%3)").arg(index + 1).arg(m_cluster->size()).arg(m_cluster->node(index).connectionName());
        tail << m_cluster->node(index).logTail(lines);
    }
    return tail;
}

qint64 ClusterNodes::firstPid() const
{
    return m_cluster && m_cluster->size() > 0 ? m_cluster->node(0).pid() : 0;
}
