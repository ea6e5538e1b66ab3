#pragma once
// The routing of a workload's commands by their keys' slots (clusterrouting.h): to the
// primaries of a cluster, or to the lanes of a standalone server (--clients). The keys of each
// command the workload sends are read once from the server's COMMAND INFO (commandkeys.h).
// Blocks: lives in the worker's thread.

#include "clusterrouting.h"
#include "commandkeys.h"
#include "outcome.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

class KeyRouting {
public:
    // `cluster` null: one standalone server. `checkWorkload` (a cluster, once per run) reads the
    // whole workload first and fails, naming `name`, at the first command that cannot go to a
    // cluster (clusterrouting.h).
    Status prepare(RedisConnection &connection, const Workload &workload, const ClusterTopology *cluster,
                   bool checkWorkload, const QString &name);
    void reset() { m_routing.reset(); }
    // Non-const: a MOVED reply during the replay moves its slot to the node it names.
    ClusterRouting *routing() { return m_routing ? &*m_routing : nullptr; }

private:
    std::unique_ptr<CommandKeys> m_keys;
    std::optional<ClusterRouting> m_routing;
    std::vector<std::string> m_commandNames;   // read from the workload once
};
