#include "endpointconsent.h"

#include <QStringList>

namespace {

QString keyCount(long long keys)
{
    return keys == 1 ? QStringLiteral("1 key") : QStringLiteral("%1 keys").arg(keys);
}

} // namespace

QString keysLost(const EndpointProbe &probe)
{
    if (!probe.keysKnown) {
        if (probe.keys < 0)
            return QStringLiteral("an unknown number of keys (DBSIZE and INFO keyspace were refused)");
        return QStringLiteral("db0: %1 (the other databases could not be counted)").arg(keyCount(probe.keys));
    }
    QStringList databases;
    for (const auto &[database, keys] : probe.keysByDatabase)
        databases << QStringLiteral("db%1: %2").arg(database).arg(keyCount(keys));
    return databases.isEmpty() ? QStringLiteral("no keys") : databases.join(QStringLiteral(", "));
}

QString irreversibleEffects()
{
    return QStringLiteral("every key of every database is deleted (FLUSHALL) and its statistics are reset "
                          "(CONFIG RESETSTAT: INFO stats counters, commandstats, errorstats, latency histograms)");
}

Status refuseSameServerTwice(const std::vector<NamedProbe> &probes)
{
    for (size_t i = 0; i < probes.size(); ++i) {
        for (size_t j = i + 1; j < probes.size(); ++j) {
            const QString &runId = probes[i].probe.runId;
            if (runId.isEmpty() || runId != probes[j].probe.runId)
                continue;
            return Error{QStringLiteral("%1 and %2 are the same server (INFO server run_id %3): name it once")
                             .arg(probes[i].name, probes[j].name, runId)};
        }
    }
    return Status::success();
}
