#pragma once
// How one server version is run: standalone, or as a cluster of N primaries launched on this
// machine (localcluster.h). `--topology standalone,cluster:3` runs every version both ways, and
// each (version, topology) is a series of its own: "Valkey 9.1.2 · cluster ×3".

#include "outcome.h"
#include <QString>
#include <vector>

struct Topology {
    static constexpr int kDefaultPrimaries = 3;
    static constexpr int kMostPrimaries = 16;   // processes on one machine, each a server of its own

    int primaries = 0;   // 0: standalone; N ≥ 1: a cluster of N primaries (1: one node, all 16384 slots)

    bool isCluster() const { return primaries > 0; }
    QString text() const;          // "standalone", "cluster:3": as --topology takes it
    QString idSuffix() const;      // "", "-cluster-3": appended to a server's id
    QString shownSuffix() const;   // "", " · cluster ×3": appended to a server's shown name
    bool operator==(const Topology &other) const { return primaries == other.primaries; }
    bool operator!=(const Topology &other) const { return primaries != other.primaries; }
};

// "standalone", "cluster" (3 primaries), "cluster:N" with 1 ≤ N ≤ 16.
Outcome<Topology> parseTopology(const QString &text);
// A comma-separated list, each entry once: "standalone,cluster:1". Errors name the entry.
Outcome<std::vector<Topology>> parseTopologies(const QString &list);
