#pragma once
// Asking a server Versus did not launch who it is and how much data it holds, in one place:
// before a run (bad input is exit 2), for the flush consent (how many keys would go) and in
// the worker (whose figures these are). Blocks: call it off the GUI thread.

#include "outcome.h"
#include "serverspec.h"
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

struct EndpointProbe {
    QString where;              // "127.0.0.1:6379", "[::1]:6379"
    QString host;               // the same, as connected to
    int port = 0;
    QString product;            // from INFO server; empty when INFO was refused
    QString version;
    // INFO server refused (NOPERM: the user may not run it), as the server said it: Versus
    // cannot tell who the server is nor read its memory.
    QString infoRefusal;
    QString runId;              // INFO server run_id: tells two names of one server apart from two servers
    long long keys = -1;        // DBSIZE of db 0; -1 when it could not be read
    // INFO keyspace: the keys of every database that holds any (FLUSHALL empties them all).
    std::map<int, long long> keysByDatabase;
    bool keysKnown = false;     // false when INFO keyspace was refused
    // CONFIG GET latency-tracking refused (renamed or forbidden, as managed services do), as the
    // server said it: the run then resets no statistics and changes no setting there.
    QString configRefusal;

    // A node of a cluster (INFO cluster: cluster_enabled:1): every primary of its cluster,
    // each probed as above, with the slots it serves and its replicas. Empty standalone.
    std::vector<EndpointProbe> primaries;
    // A cluster's primary: "0-5460"; past kSlotRangesNamed ranges, "0,2,… and 4088 more ranges,
    // 4096 slots in all" (a message names it).
    QString slotRanges;
    static constexpr int kSlotRangesNamed = 8;
    int replicas = 0;           // a cluster's primary: its replicas (a FLUSHALL on it empties them too)
    // A cluster's primary: sent the endpoint's login (the node named, or --allow-cluster-auth).
    bool getsLogin = false;

    bool isCluster() const { return !primaries.empty(); }
    // Over every database (of every primary of a cluster); `keys` (db 0) when INFO keyspace
    // was refused, -1 when no count could be read.
    long long totalKeys() const;
    // The INFO server run_id of the server, or of every primary of its cluster.
    QStringList runIds() const;
    // Why a run cannot measure it (named `name`): its refusal of INFO server named, or that it
    // is not a Valkey or Redis server. Empty when it told its version.
    QString unmeasurableBecause(const QString &name) const;
};

// Connects (AUTH when the spec has a password) and asks INFO server, DBSIZE and INFO keyspace;
// on a node of a cluster, also discovers its primaries and probes each alike. Fails with a
// message naming the endpoint: unreachable, wrong or missing password, not a Valkey or Redis
// server. An INFO or DBSIZE refused by ACL is not a failure: the field stays empty.
// `howToGivePassword` ("--askpass, VERSUS_PASSWORD … or --password") completes the message when a
// password is missing.
Outcome<EndpointProbe> probeEndpoint(const ServerSpec &spec, int timeoutMs = 3000, const QString &howToGivePassword = {});

// What a probe told of an endpoint, in its spec, so that its series is named from the start
// ("Valkey 9.1.2 · cluster ×3 (127.0.0.1:7000)"): product, version and, for a node of a
// cluster, the cluster's primaries. The run asks again and its answer is the one kept.
void describeEndpoint(ServerSpec &spec, const EndpointProbe &probe);
