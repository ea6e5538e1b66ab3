// The figures of cluster series: how evenly a series' keys and memory spread over its
// primaries, and what cluster mode costs against the same version standalone.

#include "figures.h"
#include "figuresdata.h"

#include <QLocale>
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

Redirects Figures::redirects(const QString &serverId) const
{
    Redirects counts;
    const auto found = d->servers.find(serverId);
    if (found == d->servers.end())
        return counts;
    for (const RepeatResult *repeat : found->second.sources())
        counts += repeat->redirects;
    return counts;
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

QString Figures::standalonePartnerOf(const QString &clusterId) const
{
    const ServerRun *cluster = d->bundle.server(clusterId);
    if (!cluster || !cluster->topology.isCluster())
        return {};
    for (const QString &id : d->shownIds) {
        const ServerRun *run = d->bundle.server(id);
        if (run && !run->topology.isCluster() && run->product == cluster->product && run->version == cluster->version
            && run->buildId == cluster->buildId && run->bundleName == cluster->bundleName && !run->endpoint)
            return id;
    }
    return {};
}

namespace {

// The state of a difference: the less settled of its two figures'.
FigureState differenceState(const Figure &cluster, const Figure &standalone)
{
    for (FigureState state : {FigureState::Provisional, FigureState::Incomplete}) {
        if (cluster.state == state || standalone.state == state)
            return state;
    }
    return FigureState::Measured;
}

Figure differenceOf(const Figure &cluster, const Figure &standalone)
{
    Figure figure;
    if (!cluster.hasValue() || !standalone.hasValue()) {
        const Figure &missing = cluster.hasValue() ? standalone : cluster;
        figure.state = missing.state == FigureState::Absent ? FigureState::Absent : missing.state;
        figure.note = missing.note;
        return figure;
    }
    std::vector<double> differences;
    for (const auto &[repeat, value] : cluster.byRepeat) {
        const auto other = standalone.byRepeat.find(repeat);
        if (other == standalone.byRepeat.end())
            continue;
        figure.byRepeat[repeat] = value - other->second;
        differences.push_back(value - other->second);
    }
    figure.state = differenceState(cluster, standalone);
    figure.growing = cluster.growing || standalone.growing;
    figure.spread = spreadOf(differences);
    figure.value = differences.empty() ? cluster.value - standalone.value : figure.spread.median;
    return figure;
}

// The most keys one repeat of `run` stored: its combined pass, or its largest type measured alone.
long long keysStored(const ServerRun &run)
{
    long long most = 0;
    for (const RepeatResult &repeat : run.repeats) {
        most = std::max(most, repeat.keys);
        for (const auto &entry : repeat.byType)
            most = std::max(most, entry.second.keys);
    }
    return most;
}

} // namespace

FigureTable Figures::clusterOverhead() const
{
    return d->cachedTable(QStringLiteral("cluster overhead"), [this] {
        const FigureTable memoryTable = memory();
        FigureTable table;
        table.measure = Measure::BytesPerKey;
        table.categories = memoryTable.categories;
        table.note = memoryTable.note;
        // Slot bookkeeping is shared by the keys stored: the same cluster costs less per key with more keys.
        long long keys = 0;
        for (const QString &id : clusterServerIds())
            keys = std::max(keys, keysStored(*d->bundle.server(id)));
        if (keys > 0) {
            const QString counted = QLocale(QLocale::English).toString(keys);
            // A workload's own memory passes put each type alone on an empty cluster: its row
            // carries the slot tables its keys alone need, more than its share of the total's.
            const QString measured = d->bundle.workload.typesTimedAlone
                ? QStringLiteral("Measured at %1 keys per %2.").arg(counted, typeNoun())
                : QStringLiteral("Measured at %1 keys in all; each %2's row is from its own pass, with its keys alone.")
                      .arg(counted, typeNoun());
            table.note += (table.note.isEmpty() ? QString() : QStringLiteral(" ")) + measured
                + QStringLiteral(" The cost of cluster mode moves with the number of keys.");
        }
        table.cells.assign(table.categories.size(), {});
        for (const QString &id : clusterServerIds()) {
            const QString partner = standalonePartnerOf(id);
            if (partner.isEmpty())
                continue;
            table.servers << id;
            for (size_t c = 0; c < table.categories.size(); ++c)
                table.cells[c].push_back(differenceOf(memoryTable.at(int(c), id), memoryTable.at(int(c), partner)));
        }
        return table;
    });
}
