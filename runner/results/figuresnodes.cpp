// The figures of a cluster's primaries one by one: how evenly a series' keys and memory spread.

#include "figures.h"
#include "figuresdata.h"

#include <algorithm>

namespace {

const std::vector<NodeMemory> *nodesOf(const RepeatResult &repeat, const QString &type)
{
    if (type.isEmpty())
        return &repeat.nodes;
    const auto found = repeat.byType.find(type);
    return found == repeat.byType.end() ? nullptr : &found->second.nodes;
}

void widen(NodeSpread &spread, const NodeMemory &node)
{
    const double bytesPerKey = node.keys > 0 ? double(node.usedMemoryDelta) / double(node.keys) : 0.0;
    if (spread.nodes == 0) {
        spread.fewestKeys = spread.mostKeys = node.keys;
        spread.lowestBytesPerKey = spread.highestBytesPerKey = bytesPerKey;
    }
    spread.fewestKeys = std::min(spread.fewestKeys, node.keys);
    spread.mostKeys = std::max(spread.mostKeys, node.keys);
    if (node.keys > 0) {
        spread.lowestBytesPerKey = std::min(spread.lowestBytesPerKey, bytesPerKey);
        spread.highestBytesPerKey = std::max(spread.highestBytesPerKey, bytesPerKey);
    }
}

} // namespace

std::optional<NodeSpread> Figures::nodeSpread(const QString &serverId, const QString &type) const
{
    const auto found = d->servers.find(serverId);
    if (found == d->servers.end() || !found->second.run->topology.isCluster())
        return std::nullopt;
    NodeSpread spread;
    int seen = 0;
    for (const RepeatResult *repeat : found->second.sources()) {
        const std::vector<NodeMemory> *nodes = nodesOf(*repeat, type);
        if (!nodes || nodes->empty())
            continue;
        for (const NodeMemory &node : *nodes) {
            widen(spread, node);
            spread.nodes = std::max(spread.nodes, 1);
        }
        seen = std::max(seen, int(nodes->size()));
    }
    if (seen == 0)
        return std::nullopt;
    spread.nodes = seen;
    return spread;
}

QStringList Figures::clusterServerIds() const
{
    QStringList ids;
    for (const QString &id : d->shownIds) {
        const auto found = d->servers.find(id);
        if (found != d->servers.end() && found->second.run->topology.isCluster())
            ids << id;
    }
    return ids;
}
