#include "endpointconsent.h"

#include <QStringList>
#include <algorithm>

namespace {

QString keyCount(long long keys)
{
    return keys == 1 ? QStringLiteral("1 key") : QStringLiteral("%1 keys").arg(keys);
}

} // namespace

namespace {

QString serverKeysLost(const EndpointProbe &probe)
{
    if (!probe.keysKnown) {
        if (probe.keys < 0)
            return QStringLiteral("an unknown number of keys (DBSIZE and INFO keyspace were refused)");
        return QStringLiteral("db0: %1 (the other databases could not be counted)").arg(keyCount(probe.keys));
    }
    QStringList databases;
    long long unnamedKeys = 0;
    for (const auto &[database, keys] : probe.keysByDatabase) {
        if (databases.size() < kDatabasesNamed)
            databases << QStringLiteral("db%1: %2").arg(database).arg(keyCount(keys));
        else
            unnamedKeys += keys;
    }
    // An endpoint may list any number of databases: the first few are named, the rest counted,
    // so that the question stays a line (100,000 databases gave a 1.6 MB message).
    const size_t unnamed = probe.keysByDatabase.size() - size_t(databases.size());
    if (unnamed > 0)
        databases << QStringLiteral("and %1 more %2 holding %3 in all")
                         .arg(unnamed)
                         .arg(unnamed == 1 ? QStringLiteral("database") : QStringLiteral("databases"), keyCount(unnamedKeys));
    return databases.isEmpty() ? QStringLiteral("no keys") : databases.join(QStringLiteral(", "));
}

} // namespace

QString clusterNodeKeysLost(const EndpointProbe &primary)
{
    QString text = QStringLiteral("primary %1 (slots %2) holds %3").arg(primary.where, primary.slotRanges, serverKeysLost(primary));
    if (primary.replicas > 0)
        text += primary.replicas == 1 ? QStringLiteral(", and its replica loses them too")
                                      : QStringLiteral(", and its %1 replicas lose them too").arg(primary.replicas);
    return text;
}

QString unnamedPrimariesLost(const EndpointProbe &cluster)
{
    if (cluster.primaries.size() <= size_t(kPrimariesNamed))
        return QString();
    long long keys = 0;
    bool counted = true;
    int replicas = 0;
    for (size_t index = kPrimariesNamed; index < cluster.primaries.size(); ++index) {
        const EndpointProbe &primary = cluster.primaries[index];
        counted = counted && primary.totalKeys() >= 0;
        keys += std::max(0LL, primary.totalKeys());
        replicas += primary.replicas;
    }
    const size_t unnamed = cluster.primaries.size() - size_t(kPrimariesNamed);
    QString text = QStringLiteral("and %1 more %2, ").arg(unnamed).arg(unnamed == 1 ? QStringLiteral("primary") : QStringLiteral("primaries"));
    if (!counted)
        text += QStringLiteral("whose keys could not all be counted");
    else
        text += (unnamed == 1 ? QStringLiteral("which holds ") : QStringLiteral("which hold "))
            + (keys == 0 ? QStringLiteral("no keys") : keyCount(keys) + QStringLiteral(" in all"));
    if (replicas > 0)
        text += replicas == 1 ? QStringLiteral(", and their replica loses them too")
                              : QStringLiteral(", and their %1 replicas lose them too").arg(replicas);
    return text;
}

QString keysLost(const EndpointProbe &probe)
{
    if (!probe.isCluster())
        return serverKeysLost(probe);
    QStringList nodes;
    for (const EndpointProbe &primary : probe.primaries) {
        if (nodes.size() == kPrimariesNamed)
            break;
        nodes << clusterNodeKeysLost(primary);
    }
    if (const QString unnamed = unnamedPrimariesLost(probe); !unnamed.isEmpty())
        nodes << unnamed;
    return nodes.join(QStringLiteral("; "));
}

QString whatIsLost(const EndpointProbe &probe)
{
    if (!probe.isCluster())
        return QStringLiteral("it holds %1").arg(keysLost(probe));
    return QStringLiteral("it is a node of a cluster of %1 primaries, and the run flushes every one: %2")
        .arg(probe.primaries.size())
        .arg(keysLost(probe));
}

bool refusesConfig(const EndpointProbe &probe)
{
    if (!probe.isCluster())
        return !probe.configRefusal.isEmpty();
    return std::all_of(probe.primaries.begin(), probe.primaries.end(), [](const EndpointProbe &primary) {
        return !primary.configRefusal.isEmpty();
    });
}

QString irreversibleEffects(const EndpointProbe *probe)
{
    if (probe && refusesConfig(*probe)) {
        const QString refusal = probe->isCluster() ? probe->primaries.front().configRefusal : probe->configRefusal;
        return QStringLiteral("every key of every database is deleted (FLUSHALL); its statistics and settings are left as "
                              "they are: it refuses CONFIG (%1)").arg(refusal);
    }
    return QStringLiteral("every key of every database is deleted (FLUSHALL) and its statistics are reset "
                          "(CONFIG RESETSTAT: INFO stats counters, commandstats, errorstats, latency histograms)");
}

Status refuseSameServerTwice(const std::vector<NamedProbe> &probes)
{
    for (size_t i = 0; i < probes.size(); ++i) {
        for (size_t j = i + 1; j < probes.size(); ++j) {
            const QStringList theirs = probes[j].probe.runIds();
            for (const QString &runId : probes[i].probe.runIds()) {
                if (!theirs.contains(runId))
                    continue;
                const bool cluster = probes[i].probe.isCluster() || probes[j].probe.isCluster();
                return Error{QStringLiteral("%1 and %2 are the same %3 (INFO server run_id %4): name it once")
                                 .arg(probes[i].name, probes[j].name,
                                      cluster ? QStringLiteral("cluster") : QStringLiteral("server"), runId)};
            }
        }
    }
    return Status::success();
}
