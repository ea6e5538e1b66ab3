#pragma once
// The cluster of one (version, topology) series as a run uses it: launched on this machine
// (localcluster.h) with the run's server arguments, its primaries' addresses and logins in slot
// order for the measuring and replay connections (nodesessions.h), and the routing of the
// workload's commands to them (clusterrouting.h). Every repeat starts a fresh cluster, as it
// starts a fresh standalone server. Blocks: lives in the worker's thread.

#include "clusterrouting.h"
#include "commandkeys.h"
#include "localcluster.h"
#include "nodesessions.h"
#include "outcome.h"
#include "serverspec.h"
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

class ClusterTarget {
public:
    ClusterTarget(const ServerSpec &spec, QString seriesName);

    Status start(const QStringList &extraArguments, int timeoutMs);
    void stop();
    bool started() const { return m_cluster != nullptr; }

    // The primaries in slot order, each with its own logins (every node has passwords of its own).
    std::vector<NodeAddress> nodes() const;
    // "3 primaries: 127.0.0.1:40001 (slots 0-5460), …"
    QString describe() const;
    // Reads the keys of the workload's commands from the first node's COMMAND INFO and routes
    // by the cluster's slot map. `checkWorkload` reads the whole workload first and fails at
    // the first command that cannot go to a cluster (clusterrouting.h), naming it.
    Status prepareRouting(RedisConnection &connection, const Workload &workload, bool checkWorkload);
    const ClusterRouting *routing() const { return m_routing ? &*m_routing : nullptr; }
    // Every node's last lines, each headed by its node.
    QStringList logTail(int lines) const;
    qint64 firstPid() const;

private:
    ServerSpec m_spec;
    QString m_name;
    std::unique_ptr<LocalCluster> m_cluster;
    std::unique_ptr<CommandKeys> m_keys;
    std::optional<ClusterRouting> m_routing;
    std::vector<std::string> m_commandNames;   // read from the workload once
};
