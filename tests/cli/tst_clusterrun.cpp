// `versus run --topology` end to end, with real servers: each version standalone and as
// launched clusters, each its own series; figures summed over the primaries with each node's
// share kept; the Markdown names both topologies and the node spread; a node killed mid-run
// fails its series only; and no server process is left, also after SIGKILL of Versus.

#include "bundlejson.h"
#include "figures.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QRegularExpression>
#include <QImageReader>
#include <QtTest>
#include <csignal>

namespace {

// "<id>: cluster formed: 3 primaries: 127.0.0.1:P (slots 0-5460, pid N), …": the pids.
std::vector<qint64> clusterPids(const QString &err, const QString &id)
{
    std::vector<qint64> pids;
    const QRegularExpression formed(QRegularExpression::escape(id) + QStringLiteral(": cluster formed: (.*)"));
    const QRegularExpressionMatch line = formed.match(err);
    if (!line.hasMatch())
        return pids;
    static const QRegularExpression pid(QStringLiteral("pid (\\d+)\\)"));
    for (auto it = pid.globalMatch(line.captured(1)); it.hasNext();)
        pids.push_back(it.next().captured(1).toLongLong());
    return pids;
}

} // namespace

class ClusterRunTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // hash-ttl times each pattern alone; ecommerce has one combined timed pass.
    void runsEveryTopology_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<QStringList>("workload");
        QTest::newRow("hash-ttl, valkey-8.0.1 and 9.1")
            << "valkey-8.0.1" << "valkey-9.1." << QStringList{"--workload", "hash-ttl", "--set", "keys=2000"};
        QTest::newRow("ecommerce, valkey-8.1.1 and redis-7.0")
            << "valkey-8.1.1" << "redis-7.0." << QStringList{"--workload", "ecommerce", "--events", "600"};
    }

    void runsEveryTopology()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(QStringList, workload);
        const std::optional<ServerSpec> foundA = ServerTestHelpers::findFetchedServer(first);
        const std::optional<ServerSpec> foundB = ServerTestHelpers::findFetchedServer(second);
        if (!foundA || !foundB)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({first, second}));
        const ServerSpec a = *foundA;
        const ServerSpec b = *foundB;
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run(QStringList{"run", "--servers", a.label + "," + b.label, "--topology",
                                                        "standalone,cluster:1,cluster:3", "--out", bundlePath,
                                                        "--export-dir", cli.path(QStringLiteral("charts"))}
                                                + workload,
                                            600000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(int(bundle->servers.size()), 6);
        for (const ServerSpec &spec : {a, b}) {
            const ServerRun *standalone = bundle.value().server(spec.label);
            QVERIFY(standalone);
            QVERIFY(!standalone->topology.isCluster());
            QVERIFY(standalone->repeats.front().nodes.empty());
            for (int primaries : {1, 3}) {
                const QString id = QStringLiteral("%1-cluster-%2").arg(spec.label).arg(primaries);
                const ServerRun *cluster = bundle.value().server(id);
                QVERIFY2(cluster, qPrintable(id));
                QCOMPARE(cluster->status, RunStatus::Ok);
                QCOMPARE(cluster->topology.primaries, primaries);
                checkAgainstStandalone(*cluster, *standalone, primaries);
            }
        }
        // The Markdown on stdout names each series and shows how the nodes spread.
        const QString shown = QStringLiteral(" \u00b7 cluster \u00d73");
        QVERIFY2(r.out.contains(shown), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("### Cluster nodes")), r.describe());
        // Each cluster against its own version standalone, in the Markdown and as a chart.
        QVERIFY2(r.out.contains(QLatin1String("### Cost of cluster mode (bytes per key, cluster less standalone)")), r.describe());
        // Named as a reader names them: "Valkey 9.1.2 · cluster ×3 against Valkey 9.1.2".
        const Figures figures(bundle.value());
        for (const ServerSpec &spec : {a, b})
            for (int primaries : {1, 3}) {
                const QString name = figures.summary(spec.label).name;
                QVERIFY2(r.out.contains(QStringLiteral("%1 \u00b7 cluster \u00d7%2 against %1").arg(name).arg(primaries)), r.describe());
            }
        // The default size, or blog-tall where the bars' figures need it, and then said.
        const QSize size = QImageReader(cli.path(QStringLiteral("charts/cluster-overhead.png"))).size();
        const bool taller = r.err.contains(QLatin1String("versus: cluster-overhead drawn at 1200x1500 (blog-tall)"));
        QCOMPARE(size, taller ? QSize(1200, 1500) : QSize(1200, 675));
    }

    // One node of a cluster killed mid-replay: that series fails, the standalone one finishes.
    void killedNodeFailsItsSeriesOnly()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const QString clusterId = spec.label + QStringLiteral("-cluster-3");
        cli.start({"run", "--servers", spec.label, "--topology", "standalone,cluster:3", "--workload", "hash-ttl", "--set",
                   "keys=20000", "--out", bundlePath});
        QVERIFY2(cli.waitForErr(replayingLine(clusterId)), qPrintable(cli.errSoFar()));
        const std::vector<qint64> pids = clusterPids(cli.errSoFar(), clusterId);
        QCOMPARE(int(pids.size()), 3);
        QVERIFY(::kill(pid_t(pids[1]), SIGKILL) == 0);
        const VersusCli::Result r = cli.finish(300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        for (const qint64 pid : pids)
            QVERIFY(!ServerTestHelpers::processAlive(pid));
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY(bundle);
        QCOMPARE(bundle.value().server(clusterId)->status, RunStatus::Failed);
        QVERIFY2(!bundle.value().server(clusterId)->error.isEmpty(), "no error for the failed cluster");
        QCOMPARE(bundle.value().server(spec.label)->status, RunStatus::Ok);
    }

    // Versus SIGKILLed while a cluster replays: every node ends with it.
    void versusKilledEndsEveryNode()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-8.1.1");
        VersusCli cli;
        const QString clusterId = spec.label + QStringLiteral("-cluster-3");
        cli.start({"run", "--servers", spec.label, "--topology", "cluster:3", "--workload", "hash-ttl", "--set", "keys=50000",
                   "--out", cli.path(QStringLiteral("b.json"))});
        QVERIFY2(cli.waitForErr(replayingLine(clusterId)), qPrintable(cli.errSoFar()));
        const std::vector<qint64> pids = clusterPids(cli.errSoFar(), clusterId);
        QCOMPARE(int(pids.size()), 3);
        cli.signal(SIGKILL);
        QVERIFY(cli.finish(30000).crashed);
        QTRY_VERIFY_WITH_TIMEOUT(cli.leftoverServers().empty(), 10000);
        // A killed node's command line reads empty once its memory is released, before it has
        // ended (tst_faults_process): each pid is waited for as well.
        for (const qint64 pid : pids)
            QTRY_VERIFY_WITH_TIMEOUT(!ServerTestHelpers::processAlive(pid), 10000);
    }

    void badTopologiesAreRefused_data()
    {
        QTest::addColumn<QString>("topology");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << "ring" << "--topology: 'ring' is not a topology (expected standalone, cluster or cluster:N)";
        QTest::newRow("too many") << "cluster:17" << "--topology: 'cluster:17': a cluster has 1 to 16 primaries";
        QTest::newRow("twice") << "cluster,cluster:3" << "--topology: 'cluster:3' is listed twice";
    }

    void badTopologiesAreRefused()
    {
        QFETCH(QString, topology);
        QFETCH(QString, message);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        VersusCli cli;
        const VersusCli::Result r = cli.run({"run", "--servers", spec.label, "--topology", topology});
        QVERIFY2(r.finished && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(message), r.describe());
        QVERIFY(cli.leftoverServers().empty());
    }

private:
    // The same keys per type as the standalone run, each node's share adding up, and the
    // commandstats summed over the nodes counting every command the server knows.
    static void checkAgainstStandalone(const ServerRun &cluster, const ServerRun &standalone, int primaries)
    {
        const RepeatResult &mine = cluster.repeats.front();
        const RepeatResult &theirs = standalone.repeats.front();
        QCOMPARE(mine.keys, theirs.keys);
        if (mine.keys > 0)
            checkNodes(mine.nodes, mine.keys, mine.usedMemoryDelta, primaries);
        if (mine.timing.commands > 0)
            QCOMPARE(mine.timing.totalCalls(), theirs.timing.totalCalls());
        QCOMPARE(mine.byType.size(), theirs.byType.size());
        for (const auto &[type, memory] : mine.byType) {
            const TypeMemory &other = theirs.byType.at(type);
            QCOMPARE(memory.status, other.status);
            QCOMPARE(memory.keys, other.keys);
            if (memory.status == TypeStatus::Ok && memory.keys > 0)
                checkNodes(memory.nodes, memory.keys, memory.usedMemoryDelta, primaries);
            if (memory.timing && memory.status == TypeStatus::Ok)
                QCOMPARE(memory.timing->totalCalls(), memory.timing->commands);
        }
        QCOMPARE(mine.errorCount(), theirs.errorCount());
    }

    static void checkNodes(const std::vector<NodeMemory> &nodes, long long keys, long long bytes, int primaries)
    {
        QCOMPARE(int(nodes.size()), primaries);
        long long keySum = 0;
        long long byteSum = 0;
        for (const NodeMemory &node : nodes) {
            QVERIFY(node.keys > 0);
            keySum += node.keys;
            byteSum += node.usedMemoryDelta;
        }
        QCOMPARE(keySum, keys);
        QCOMPARE(byteSum, bytes);
    }
};

QTEST_GUILESS_MAIN(ClusterRunTest)
#include "tst_clusterrun.moc"
