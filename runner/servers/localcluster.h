#pragma once
// A Valkey (or Redis) cluster of one version launched on this machine: N primaries, each a
// ServerProcess with cluster-enabled, its own temp dir, nodes.conf and free data and bus
// ports. Slots are assigned evenly in ranges (CLUSTER ADDSLOTSRANGE; node i holds the i-th
// N-th of 0 … 16383), the nodes are joined (CLUSTER MEET from the first), and start() returns
// once every node reports cluster_state:ok, knows all N nodes and gives the same slot map as
// the one assigned. Every process ends on stop(), on a failed start and with Versus (as each
// ServerProcess does, also on SIGKILL). start() and stop() block: call them off the GUI thread.

#include "clustertopology.h"
#include "outcome.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "serverspec.h"
#include <QString>
#include <memory>
#include <utility>
#include <vector>

class LocalCluster {
public:
    LocalCluster(ServerSpec spec, int primaries);
    ~LocalCluster();
    LocalCluster(const LocalCluster &) = delete;
    LocalCluster &operator=(const LocalCluster &) = delete;

    // Arguments every node gets after Versus's own (ServerProcess::setExtraArguments); before start().
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }
    Status start(int formTimeoutMs = 30000);
    void stop();

    int size() const { return int(m_nodes.size()); }
    ServerProcess &node(int index) { return *m_nodes[size_t(index)]; }
    // The first and last slot node `index` holds.
    std::pair<int, int> slotRange(int index) const;
    // The node holding `slot`.
    int nodeOfSlot(int slot) const;
    // "valkey-9.1.2 · cluster ×3" ("cluster ×1" for one node holding every slot).
    QString name() const;
    // The primaries as assigned (and, once start() returned, as every node reports them).
    ClusterTopology topology() const;

private:
    Status startNodes();
    Status assignAndJoin();
    Status waitUntilFormed(int timeoutMs);
    // Whether the node behind `connection` is formed; else what it lacks, in words.
    Outcome<bool> formed(RedisConnection &connection, QString *lacking);

    ServerSpec m_spec;
    int m_primaries;
    QStringList m_extraArguments;
    std::vector<std::unique_ptr<ServerProcess>> m_nodes;
};

// CLUSTER SLOTS as "0-5460@40001 5461-10922@40002 …": each range and the port of its primary,
// by first slot; what LocalCluster compares between nodes.
QString slotMapText(const Reply &clusterSlots);
