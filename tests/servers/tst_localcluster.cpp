// Local clusters of real servers: every version Versus compares in cluster mode forms a
// cluster of 1 and of 3 primaries with the slots assigned evenly; the key-to-slot mapping is the
// server's own (CLUSTER KEYSLOT), hash tags included; each key is accepted by the node owning
// its slot and redirected (MOVED) by the others; a node given as an endpoint is found to be a
// cluster and its primaries are discovered (CLUSTER SHARDS and CLUSTER SLOTS alike); and no
// process is left afterwards.

#include "clusterslots.h"
#include "clustertopology.h"
#include "localcluster.h"
#include "redisconnection.h"
#include "servertesthelpers.h"

#include <QtTest>

namespace {

std::vector<std::string> sampleKeys()
{
    std::vector<std::string> keys{"", "a", "foo", "123456789", "{user1000}.following", "{user1000}.followers",
                                  "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}", "{}", "}{", "{a", "a}",
                                  "shopper:42:views", "{shopper:42}:views", std::string("bin\0ary", 7)};
    for (int i = 0; i < 200; ++i)
        keys.push_back("user:" + std::to_string(i * 7919) + ":cart");
    return keys;
}

} // namespace

class LocalClusterTest : public QObject {
    Q_OBJECT

    // Asked of the last node, as an endpoint would be: the primaries as the cluster was made.
private:
    static void checkDiscovery(LocalCluster &cluster)
    {
        RedisConnection endpoint;
        QVERIFY(cluster.node(cluster.size() - 1).connect(endpoint, 5000));
        const Outcome<bool> enabled = isClusterEnabled(endpoint);
        QVERIFY(enabled && enabled.value());
        const Outcome<ClusterTopology> discovered = discoverCluster(endpoint, cluster.node(cluster.size() - 1).host());
        QVERIFY2(discovered, qPrintable(discovered ? QString() : discovered.error()));
        const Outcome<Reply> slotReply = endpoint.command({"CLUSTER", "SLOTS"});
        QVERIFY(slotReply);
        const Outcome<ClusterTopology> bySlots = topologyFromSlots(slotReply.value());
        QVERIFY(bySlots);
        // Read alone, a lone node's CLUSTER SLOTS names no address; discoverCluster() fills it in.
        if (cluster.size() == 1)
            QCOMPARE(bySlots->primaries.front().host, QString());
        else
            QCOMPARE(bySlots->primaries.front().host, QStringLiteral("127.0.0.1"));
        for (const ClusterTopology *topology : {&discovered.value(), &bySlots.value()}) {
            QCOMPARE(int(topology->primaries.size()), cluster.size());
            QVERIFY(topology->coversEverySlot());
            for (int i = 0; i < cluster.size(); ++i) {
                const ClusterPrimary &primary = topology->primaries[size_t(i)];
                QCOMPARE(primary.port, cluster.node(i).port());
                QCOMPARE(int(primary.ranges.size()), 1);
                QCOMPARE(primary.ranges.front(), cluster.slotRange(i));
                QCOMPARE(primary.id.size(), 40);
            }
        }
        QCOMPARE(discovered->primaries.front().id, bySlots->primaries.front().id);
        for (const ClusterPrimary &primary : discovered->primaries)
            QCOMPARE(primary.host, QStringLiteral("127.0.0.1"));
    }

private Q_SLOTS:
    // The cluster specification's own examples.
    void slotsFollowTheSpecification()
    {
        QCOMPARE(int(crc16Xmodem("123456789")), 0x31C3);
        QCOMPARE(keyHashSlot("{user1000}.following"), keyHashSlot("{user1000}.followers"));
        // An empty tag hashes the whole key; the tag ends at the first '}' after the first '{'.
        QCOMPARE(keyHashSlot("foo{}{bar}"), int(crc16Xmodem("foo{}{bar}") % 16384));
        QVERIFY(keyHashSlot("foo{}{bar}") != keyHashSlot("bar"));
        QCOMPARE(keyHashSlot("foo{{bar}}zap"), keyHashSlot("{bar"));
        QCOMPARE(keyHashSlot("foo{bar}{zap}"), keyHashSlot("bar"));
    }

    void aStandaloneServerIsNoCluster()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess server(spec);
        QVERIFY(server.start());
        RedisConnection connection;
        QVERIFY(server.connect(connection, 5000));
        const Outcome<bool> enabled = isClusterEnabled(connection);
        QVERIFY(enabled && !enabled.value());
        server.stop();
    }

    void formsAndRoutes_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<int>("primaries");
        for (const char *prefix : {"valkey-8.0.", "valkey-8.1.", "valkey-9.1.", "redis-7.0."}) {
            QTest::addRow("%s cluster:1", prefix) << QString::fromLatin1(prefix) << 1;
            QTest::addRow("%s cluster:3", prefix) << QString::fromLatin1(prefix) << 3;
        }
    }

    void formsAndRoutes()
    {
        QFETCH(QString, prefix);
        QFETCH(int, primaries);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
        QStringList dirs;
        std::vector<qint64> pids;
        {
            LocalCluster cluster(*spec, primaries);
            const Status started = cluster.start();
            QVERIFY2(started, qPrintable(started ? QString() : started.error()));
            QCOMPARE(cluster.size(), primaries);
            QCOMPARE(cluster.name(), QStringLiteral("%1 · cluster ×%2").arg(spec->label).arg(primaries));
            int covered = 0;
            for (int i = 0; i < primaries; ++i) {
                covered += cluster.slotRange(i).second - cluster.slotRange(i).first + 1;
                dirs << cluster.node(i).tempDirPath();
                pids.push_back(cluster.node(i).pid());
            }
            QCOMPARE(covered, kClusterSlots);

            checkDiscovery(cluster);
            std::vector<std::unique_ptr<RedisConnection>> nodes;
            for (int i = 0; i < primaries; ++i) {
                nodes.push_back(std::make_unique<RedisConnection>());
                QVERIFY(cluster.node(i).connect(*nodes.back(), 5000));
            }
            for (const std::string &key : sampleKeys()) {
                const Outcome<Reply> slot = nodes[0]->command({"CLUSTER", "KEYSLOT", key});
                QVERIFY(slot && slot->kind == Reply::Kind::Integer);
                QCOMPARE(int(slot->integer), keyHashSlot(key));
                const int owner = cluster.nodeOfSlot(keyHashSlot(key));
                for (int i = 0; i < primaries; ++i) {
                    const Outcome<Reply> set = nodes[size_t(i)]->command({"SET", key, "v"});
                    QVERIFY(set);
                    if (i == owner)
                        QCOMPARE(QString::fromStdString(set->text), QStringLiteral("OK"));
                    else
                        QVERIFY2(set->isError() && set->text.rfind("MOVED " + std::to_string(keyHashSlot(key)) + " ", 0) == 0,
                                 set->text.c_str());
                }
            }
            long long keys = 0;
            for (auto &node : nodes)
                keys += node->command({"DBSIZE"})->integer;
            QCOMPARE(keys, (long long)(sampleKeys().size()));
        }
        for (const QString &dir : dirs) {
            QVERIFY2(ServerTestHelpers::pidsMentioning(dir).empty(), qPrintable(dir));
            QVERIFY(!QFileInfo::exists(dir));
        }
        for (const qint64 pid : pids)
            QVERIFY(!ServerTestHelpers::processAlive(pid));
    }
};

QTEST_GUILESS_MAIN(LocalClusterTest)
#include "tst_localcluster.moc"
