#pragma once
// What a cluster is made of, as a node reports it: its primaries, each with its address and
// the slot ranges it serves. Read with CLUSTER SHARDS where the server has it, else with
// CLUSTER SLOTS (Redis before 7.0). Replicas are left out: only primaries get writes.

#include "outcome.h"
#include "redisconnection.h"
#include <QString>
#include <utility>
#include <vector>

// The most primaries a cluster endpoint may have: each is asked to prove it is a member, probed,
// and flushed one by one, with --clients connections each during the run. Valkey's own guidance
// stops near 1,000 nodes; a reply naming more (up to one per slot, 16,384) is refused before any
// of them is asked anything.
constexpr int kMostClusterPrimaries = 1000;

struct ClusterPrimary {
    QString id;
    QString host;
    int port = 0;
    // How MOVED and ASK name it (CLUSTER SHARDS "endpoint": its ip, a hostname, or "?" when
    // unknown, by cluster-preferred-endpoint-type); empty when only CLUSTER SLOTS was read.
    QString announced;
    std::vector<std::pair<int, int>> ranges;   // first and last slot of each range, ascending
    int replicas = 0;                          // its replicas, which a FLUSHALL on it empties too
    long long slotCount() const;
    // "0-5460", "0-99,200-5460"
    QString rangesText() const;
    // The same, naming at most `mostRanges` ranges and counting the rest, for a message:
    // "0,40,80 and 407 more ranges, 410 slots in all".
    QString rangesText(int mostRanges) const;
};

struct ClusterTopology {
    std::vector<ClusterPrimary> primaries;    // by their first slot
    QString askedId;                          // CLUSTER MYID of the node asked (discoverCluster)
    // Every slot served by exactly one primary.
    bool coversEverySlot() const;
    // The primary serving `slot`, or -1.
    int primaryOfSlot(int slot) const;
    int replicaCount() const;
};

// Whether the server behind `connection` runs in cluster mode (INFO cluster: cluster_enabled:1).
Outcome<bool> isClusterEnabled(RedisConnection &connection);
// The cluster's primaries, by CLUSTER SHARDS, or CLUSTER SLOTS when the server does not know it.
// A node that has met no other gives its address as "": it is `askedHost`, the one asked. What
// the reply names is only what that node believes: clustermembership.h proves each primary.
Outcome<ClusterTopology> discoverCluster(RedisConnection &connection, const QString &askedHost);
// The two replies read on their own (a reply that is not of that shape is an Error naming it).
// Each primary's address must be an IP address (CLUSTER SLOTS may give a host name, by
// cluster-preferred-endpoint-type) with a TCP port, and there may be at most
// kMostClusterPrimaries: anything else is an Error before any of them is connected to.
// Over TLS (`tls`) a primary's port is its CLUSTER SHARDS "tls-port"; CLUSTER SLOTS and MOVED
// already give the port of the asking connection's kind (tls-cluster yes).
Outcome<ClusterTopology> topologyFromShards(const Reply &shards, bool tls = false);
Outcome<ClusterTopology> topologyFromSlots(const Reply &slotList);
