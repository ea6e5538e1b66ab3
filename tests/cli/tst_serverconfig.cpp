// --server-config on launched servers, and the configuration differences a bundle shows:
// real servers through the versus program.

#include "bundlejson.h"
#include "figures.h"
#include "versuscli.h"

#include <QtTest>

class ServerConfigTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // hash-seed exists from Valkey 9.0 on and is taken only at start: the older version
    // refuses it alone, the newer is started again with it; the run goes on.
    void settingsAreAppliedAndRecordedPerServer()
    {
        VERSUS_REQUIRE_SERVER(older, "valkey-8.0.");
        VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run(
            {QStringLiteral("run"), QStringLiteral("--servers"), older.label + "," + newer.label, QStringLiteral("--workload"),
             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=500"), QStringLiteral("--server-config"),
             QStringLiteral("hash-max-listpack-entries=64"), QStringLiteral("--server-config"), QStringLiteral("hash-seed=versus"),
             QStringLiteral("--out"), bundlePath},
            300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY2(r.out.contains(QLatin1String("### Configuration differences")), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1: server config: hash-seed not applied: not a setting of Valkey %2")
                                    .arg(older.label, older.identity.version)),
                 r.describe());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun &olderRun = *bundle->server(older.label);
        const ServerRun &newerRun = *bundle->server(newer.label);
        QCOMPARE(olderRun.config.at(QStringLiteral("hash-max-listpack-entries")), QStringLiteral("64"));
        QCOMPARE(newerRun.config.at(QStringLiteral("hash-max-listpack-entries")), QStringLiteral("64"));
        QCOMPARE(newerRun.config.at(QStringLiteral("hash-seed")), QStringLiteral("versus"));
        QCOMPARE(olderRun.configApplied, (std::map<QString, QString>{{QStringLiteral("hash-max-listpack-entries"), QStringLiteral("64")}}));
        QCOMPARE(olderRun.configRefused,
                 (std::map<QString, QString>{{QStringLiteral("hash-seed"), QStringLiteral("not a setting of Valkey %1").arg(older.identity.version)}}));
        QCOMPARE(newerRun.configApplied.size(), size_t(2));
        QVERIFY(newerRun.configRefused.empty());
        // The password is never written into the bundle.
        QCOMPARE(olderRun.config.at(QStringLiteral("requirepass")), QStringLiteral("(hidden)"));

        const Figures figures(bundle.value());
        const std::vector<ConfigDifference> differences = figures.configDifferences();
        QVERIFY(!differences.empty());
        bool sawHashSeed = false;
        for (const ConfigDifference &difference : differences) {
            QVERIFY2(difference.name != QLatin1String("hash-max-listpack-entries") && difference.name != QLatin1String("port"),
                     qPrintable(difference.name));
            for (const auto &[id, value] : difference.values)
                QCOMPARE(value, bundle->server(id)->config.at(difference.name));
            if (difference.name == QLatin1String("hash-seed")) {
                sawHashSeed = true;
                QVERIFY(difference.bearsOnFigures && !difference.everywhere);
                QCOMPARE(difference.values.count(older.label), size_t(0));
            }
        }
        QVERIFY(sawHashSeed);
    }

    void badSettingsAreRefusedBeforeAnythingStarts_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("message");
        QTest::newRow("no value") << QStringLiteral("hz") << QStringLiteral("--server-config: expected name=value, got 'hz'");
        QTest::newRow("no name") << QStringLiteral("=5") << QStringLiteral("--server-config: expected name=value, got '=5'");
        QTest::newRow("managed by Versus") << QStringLiteral("port=7000")
                                           << QStringLiteral("--server-config: Versus sets port itself on the servers it launches");
        QTest::newRow("not a name") << QStringLiteral("hz;x=1") << QStringLiteral("--server-config: 'hz;x' is not a setting name");
        // Only settings that change how data is stored or timed: the rest could outlive the run,
        // write outside it or reach a server outside it.
        const QString accepted = QStringLiteral(" is not accepted: only settings that change how data is stored or timed are (");
        QTest::newRow("daemonize") << QStringLiteral("daemonize=yes") << QStringLiteral("--server-config: daemonize") + accepted;
        QTest::newRow("replicaof") << QStringLiteral("replicaof=127.0.0.1 6379") << QStringLiteral("--server-config: replicaof") + accepted;
        QTest::newRow("slaveof") << QStringLiteral("slaveof=127.0.0.1 6379") << QStringLiteral("--server-config: slaveof") + accepted;
        QTest::newRow("cluster-config-file") << QStringLiteral("cluster-config-file=/tmp/x.conf")
                                             << QStringLiteral("--server-config: cluster-config-file") + accepted;
        QTest::newRow("supervised") << QStringLiteral("supervised=systemd") << QStringLiteral("--server-config: supervised") + accepted;
        QTest::newRow("dbfilename") << QStringLiteral("dbfilename=../../x.rdb") << QStringLiteral("--server-config: dbfilename") + accepted;
        QTest::newRow("enable-debug-command") << QStringLiteral("enable-debug-command=yes")
                                              << QStringLiteral("--server-config: enable-debug-command") + accepted;
        QTest::newRow("masterauth") << QStringLiteral("masterauth=hunter2-secret") << QStringLiteral("--server-config: masterauth") + accepted;
        QTest::newRow("a prefix alone") << QStringLiteral("lazyfree-lazy-=yes") << QStringLiteral("--server-config: lazyfree-lazy-") + accepted;
        QTest::newRow("a value with a space") << QStringLiteral("maxmemory-policy=allkeys-lru x")
                                              << QStringLiteral("--server-config: the value of maxmemory-policy must be 1 to 64 letters");
        QTest::newRow("a value with a line break") << QStringLiteral("hz=10\nreplicaof 127.0.0.1 1")
                                                   << QStringLiteral("--server-config: the value of hz must be 1 to 64 letters");
    }
    void badSettingsAreRefusedBeforeAnythingStarts()
    {
        QFETCH(QString, setting);
        QFETCH(QString, message);
        VersusCli cli;
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                             QStringLiteral("--server-config"), setting},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(message), r.describe());
        QVERIFY2(!r.err.contains(QLatin1String("hunter2")), r.describe());   // a refused value may be a secret
        QVERIFY(cli.leftoverServers().empty());
    }
};

QTEST_GUILESS_MAIN(ServerConfigTest)
#include "tst_serverconfig.moc"
