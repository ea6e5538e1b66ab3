#pragma once
// A results bundle from tests/fixtures/bundles/, for tests that read figures, charts and
// exports without running anything. A fixture that does not load is the test's own defect:
// it stops the test with the loader's message.

#include "bundlejson.h"

#include <QString>
#include <QtGlobal>

// The hash-ttl bundle of three versions, by path, for tests that hand it to the versus program.
inline constexpr char kHashTtlFixtureBundle[] = VERSUS_FIXTURES "/bundles/hash-ttl-3-versions.json";

inline ResultsBundle fixtureBundle(const QString &name)
{
    const Outcome<ResultsBundle> bundle = loadBundle(QStringLiteral(VERSUS_FIXTURES "/bundles/") + name);
    if (!bundle)
        qFatal("%s", qPrintable(bundle.error()));
    return bundle.value();
}

inline ResultsBundle fixtureBundle(const char *name)
{
    return fixtureBundle(QString::fromLatin1(name));
}

// Applies `change` to server `serverId`'s run wherever a bundle holds it: at the top level and
// in every point of its sweep.
template<typename Change>
void changeServerRun(ResultsBundle &bundle, const QString &serverId, Change change)
{
    const auto apply = [&](std::vector<ServerRun> &servers) {
        for (ServerRun &run : servers)
            if (run.id == serverId)
                change(run);
    };
    apply(bundle.servers);
    for (SweepPoint &point : bundle.sweep.points)
        apply(point.servers);
}

// real-why-hash-ttl.json (Valkey 8.0.1 and 9.1.2) with a Redis 8.0.2 beside them whose readings
// are Valkey 9.1.2's: the answer quotes Valkey 9.1.2, the newest of the baseline's product.
inline ResultsBundle hashTtlBundleWithRedis()
{
    ResultsBundle bundle = fixtureBundle("real-why-hash-ttl.json");
    ServerRun redis = *bundle.server(QStringLiteral("valkey-9.1.2"));
    redis.id = QStringLiteral("redis-8.0.2");
    redis.product = QStringLiteral("redis");
    redis.version = QStringLiteral("8.0.2");
    bundle.servers.push_back(redis);
    return bundle;
}
