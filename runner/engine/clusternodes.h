#pragma once
// The cluster of one series as a run uses it: launched on this machine (localcluster.h) with the
// run's server arguments, or an endpoint's cluster as its nodes describe it; its primaries'
// addresses and logins in slot order for the measuring and replay connections
// (nodesessions.h), and the routing of the workload's commands to them (clusterrouting.h).
// Every repeat starts a fresh cluster, as it starts a fresh standalone server, or discovers the
// endpoint's cluster again. Blocks: lives in the worker's thread.

#include "clustermembership.h"
#include "keyrouting.h"
#include "localcluster.h"
#include "nodesessions.h"
#include "outcome.h"
#include "serverspec.h"
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

class ClusterNodes {
public:
    ClusterNodes(const ServerSpec &spec, QString seriesName);

    Status start(const QStringList &extraArguments, int timeoutMs);
    // An endpoint's cluster: its primaries as `topology` gives them, each reached over the
    // proof's TLS with the login clusterNodeLogin() allows it (replay logins are set once each
    // node's access is prepared).
    void adopt(const ClusterTopology &topology, const MembershipProof &proof);
    void stop();
    bool started() const { return m_cluster != nullptr; }
    bool adopted() const { return m_cluster == nullptr && !m_nodes.empty(); }

    // The primaries in slot order, each with its own logins (every node has passwords of its own).
    const std::vector<NodeAddress> &nodes() const { return m_nodes; }
    // "3 primaries: 127.0.0.1:40001 (slots 0-5460, pid 123), …"
    QString describe() const;
    // Reads the keys of the workload's commands from the first node's COMMAND INFO and routes
    // by the cluster's slot map. `checkWorkload` reads the whole workload first and fails at
    // the first command that cannot go to a cluster (clusterrouting.h), naming it.
    Status prepareRouting(RedisConnection &connection, const Workload &workload, bool checkWorkload);
    // Non-const: a MOVED reply during the replay moves its slot to the node it names.
    ClusterRouting *routing() { return m_routing.routing(); }
    // Every node's last lines, each headed by its node.
    QStringList logTail(int lines) const;
    qint64 firstPid() const;

private:
    ServerSpec m_spec;
    QString m_name;
    std::unique_ptr<LocalCluster> m_cluster;   // launched; null for an endpoint's cluster
    ClusterTopology m_topology;
    std::vector<NodeAddress> m_nodes;
    KeyRouting m_routing;
};
