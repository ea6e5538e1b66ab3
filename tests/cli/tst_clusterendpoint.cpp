// `versus run` against a cluster endpoint: three nodes the test forms itself, not through Versus,
// given to Versus as any one of them. The whole cluster is discovered; without --allow-flush the
// run is refused, naming every primary, its slots and the keys it holds; with it, every primary
// is measured and replayed into and put back afterwards; two nodes of one cluster are refused
// as one server named twice; and slots moved while the run goes on are followed through MOVED
// (and ASK while a slot migrates) by four clients per primary, every command still landing once.
// A fake node the test runs (tests/support/fakeclusternode.h) names 16,384 primaries, 40 with
// slots scattered one by one, or an address with a line break and terminal escapes: refused
// before any of them is asked anything, or in a refusal of bounded size, printed escaped.

#include "bundlejson.h"
#include "endpointprobe.h"
#include "fakeclusternode.h"
#include "foreigncluster.h"
#include "hashttlworkload.h"
#include "runcontroller.h"
#include "servercatalog.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

namespace {

// A key of `prefix` whose slot node `index` of `cluster` was given.
std::string keyOnNode(const ForeignCluster &cluster, int index, const std::string &prefix)
{
    for (int n = 0;; ++n) {
        const std::string key = prefix + std::to_string(n);
        const int slot = keyHashSlot(key);
        if (slot >= cluster.firstSlot(index) && slot < cluster.firstSlot(index + 1))
            return key;
    }
}

QStringList hashTtlRun(const QString &servers, int keys, const QString &bundlePath)
{
    return {QStringLiteral("run"),     QStringLiteral("--servers"), servers,
            QStringLiteral("--allow-flush"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
            QStringLiteral("--set"),   QStringLiteral("keys=%1").arg(keys), QStringLiteral("--out"), bundlePath};
}

// Every node as its owner had it before the run: latency tracking on, no user of Versus's left.
void checkPutBack(const ForeignCluster &cluster)
{
    for (int index = 0; index < cluster.size(); ++index) {
        const ForeignServer &node = cluster.node(index);
        QCOMPARE(node.settings()[QStringLiteral("latency-tracking")], QStringLiteral("yes"));
        const QStringList users = node.aclUsers();
        QVERIFY(users.contains(QStringLiteral("default")));
        for (const QString &user : users)
            QVERIFY2(!user.startsWith(QLatin1String("versus-replay")), qPrintable(user));
    }
}

// Each pattern's keys, summed over the primaries, are the workload's; each primary holds some.
void checkEveryKeyLanded(const RepeatResult &repeat, int keys)
{
    int measured = 0;
    for (const auto &[type, memory] : repeat.byType) {
        if (memory.status != TypeStatus::Ok)
            continue;
        ++measured;
        QCOMPARE(memory.keys, keys);
        QCOMPARE(int(memory.nodes.size()), 3);
        long long sum = 0;
        for (const NodeMemory &node : memory.nodes) {
            QVERIFY(node.keys > 0);
            sum += node.keys;
        }
        QCOMPARE(sum, memory.keys);
        QVERIFY(memory.timing);
        QCOMPARE(memory.timing->totalCalls(), memory.timing->commands);
    }
    QVERIFY(measured >= 1);
    QCOMPARE(repeat.errorCount(), 0);
}

// INFO commandstats as command -> calls ("cluster|myid" -> 1).
std::map<QString, long long> commandCalls(const ForeignServer &server, const QString &password)
{
    std::map<QString, long long> calls;
    static const QRegularExpression line(QStringLiteral("^cmdstat_([^:]+):calls=(\\d+)"), QRegularExpression::MultilineOption);
    auto it = line.globalMatch(server.command({"INFO", "commandstats"}, password));
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        calls[match.captured(1)] = match.captured(2).toLongLong();
    }
    return calls;
}

QStringList refusedRun(const FakeClusterNode &node)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), QString::fromStdString(node.hostPort()), QStringLiteral("--workload"),
            QStringLiteral("hash-ttl")};
}

} // namespace

class ClusterEndpointTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void refusedWithoutConsentNamingEveryPrimary()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster cluster(spec, 3);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        for (const auto &[index, prefix] : std::vector<std::pair<int, std::string>>{{0, "a"}, {0, "b"}, {2, "c"}})
            QCOMPARE(cluster.node(index).command({"SET", keyOnNode(cluster, index, prefix), "precious"}), QStringLiteral("OK"));
        VersusCli cli;
        const VersusCli::Result r = cli.run({"run", "--servers", cluster.node(1).hostPort(), "--workload", "hash-ttl"});
        QVERIFY2(r.finished && r.exitCode == 2, r.describe());
        const QString expected =
            QStringLiteral("It is a node of a cluster of 3 primaries, and the run flushes every one: "
                           "primary %1 (slots 0-5460) holds db0: 2 keys; primary %2 (slots 5461-10921) holds no keys; "
                           "primary %3 (slots 10922-16383) holds db0: 1 key. Refused unless --allow-flush is given")
                .arg(cluster.node(0).hostPort(), cluster.node(1).hostPort(), cluster.node(2).hostPort());
        QVERIFY2(r.err.contains(expected), r.describe());
        QCOMPARE(cluster.node(0).command({"DBSIZE"}), QStringLiteral("2"));
        QCOMPARE(cluster.node(2).command({"DBSIZE"}), QStringLiteral("1"));

        // Two nodes of the one cluster are one server named twice.
        const VersusCli::Result twice =
            cli.run({"run", "--servers", cluster.node(0).hostPort() + "," + cluster.node(2).hostPort(), "--allow-flush"});
        QVERIFY2(twice.finished && twice.exitCode == 2, twice.describe());
        QVERIFY2(twice.err.contains(QStringLiteral("%1 and %2 are the same cluster")
                                        .arg(cluster.node(0).hostPort(), cluster.node(2).hostPort())),
                 twice.describe());
        QCOMPARE(cluster.node(0).command({"DBSIZE"}), QStringLiteral("2"));
    }

    void replayedWithConsent_data()
    {
        QTest::addColumn<QString>("server");
        QTest::newRow("valkey-8.0") << "valkey-8.0.";
        QTest::newRow("redis-7.0") << "redis-7.0.";
    }

    void replayedWithConsent()
    {
        QFETCH(QString, server);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(server);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({server}));
        ForeignCluster cluster(*spec, 3);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const QString named = cluster.node(2).hostPort();
        const VersusCli::Result r = cli.run(hashTtlRun(named, 3000, bundlePath));
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(int(bundle->servers.size()), 1);
        const ServerRun &run = bundle->servers.front();
        QCOMPARE(run.status, RunStatus::Ok);
        QVERIFY(run.endpoint);
        QCOMPARE(run.topology.primaries, 3);
        checkEveryKeyLanded(run.repeats.front(), 3000);
        QVERIFY(!run.repeats.front().redirects.any());
        // Every primary had a temporary user of its own.
        QCOMPARE(run.replayAccess.count(QStringLiteral("temporary ACL user versus-replay-")), 3);
        QVERIFY2(r.out.contains(QStringLiteral(" \u00b7 cluster \u00d73 (%1)").arg(named)), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("### Cluster nodes")), r.describe());
        checkPutBack(cluster);
        for (int index = 0; index < cluster.size(); ++index)
            QCOMPARE(cluster.node(index).command({"DBSIZE"}), QStringLiteral("0"));
    }

    // The consent named three primaries; by the time the run reaches the cluster one of them is
    // another node (a failover, a node replaced): nothing is flushed, and the error says both.
    void primariesOtherThanTheConsentedAreRefused()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster cluster(spec, 3);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        QCOMPARE(cluster.node(0).command({"SET", keyOnNode(cluster, 0, "p"), "precious"}), QStringLiteral("OK"));
        ServerSpec endpoint = ServerCatalog::parseEndpoint(cluster.node(0).hostPort()).value();
        const Outcome<EndpointProbe> probe = probeEndpoint(endpoint);
        QVERIFY2(probe, qPrintable(probe ? QString() : probe.error()));
        describeEndpoint(endpoint, probe.value());
        QCOMPARE(endpoint.consentedPrimaries.size(), 3);
        endpoint.consentedPrimaries[2] = QStringLiteral("127.0.0.1:1");   // as if that primary had been another
        RunRequest request;
        request.servers = {endpoint};
        request.workload = std::make_shared<HashTtlWorkload>(HashTtlParameters{});
        request.allowFlush = true;
        RunController controller;
        QSignalSpy finished(&controller, &RunController::runFinished);
        controller.start(request);
        QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 60000));
        const ResultsBundle results = finished.first().first().value<ResultsBundle>();
        QCOMPARE(results.servers.front().status, RunStatus::Failed);
        QVERIFY2(results.servers.front().error.contains(QStringLiteral("the cluster's primaries are no longer those the consent "
                                                                        "to flush named")),
                 qPrintable(results.servers.front().error));
        QVERIFY2(results.servers.front().error.contains(QLatin1String("127.0.0.1:1")), qPrintable(results.servers.front().error));
        QCOMPARE(cluster.node(0).command({"DBSIZE"}), QStringLiteral("1"));
        checkPutBack(cluster);
    }

    // A cluster node whose own entry is announced at another server's port (a wrong
    // cluster-announce-port; a stale gossip entry or a fake node does the same) names that
    // server as its primary. The server is a standalone one, with or without the endpoint's
    // password, or the node of another cluster: it is refused before the run, untouched. It is
    // sent the password only when --allow-cluster-auth allows it (before: whenever it asked).
    void strangerNamedByAClusterIsUntouched_data()
    {
        QTest::addColumn<QString>("stranger");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("allowAuth");
        QTest::addColumn<QString>("why");
        QTest::newRow("standalone") << QStringLiteral("standalone") << QString() << false << QStringLiteral("is not in cluster mode");
        QTest::newRow("standalone, same password") << QStringLiteral("standalone") << QStringLiteral("shared-pw") << false
                                                   << QStringLiteral("needs a password, and Versus sends the endpoint's only to "
                                                                     "the server named unless the user allows it for the other "
                                                                     "primaries of its cluster (--allow-cluster-auth");
        QTest::newRow("standalone, same password, allowed") << QStringLiteral("standalone") << QStringLiteral("shared-pw") << true
                                                            << QStringLiteral("is not in cluster mode");
        QTest::newRow("node of another cluster") << QStringLiteral("cluster") << QString() << false
                                                 << QStringLiteral("is node ");
    }
    void strangerNamedByAClusterIsUntouched()
    {
        QFETCH(QString, stranger);
        QFETCH(QString, password);
        QFETCH(bool, allowAuth);
        QFETCH(QString, why);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster otherCluster(spec, 1);
        ForeignServer standalone(spec);
        const bool clustered = stranger == QLatin1String("cluster");
        QVERIFY2(clustered ? otherCluster.start() : standalone.start(), qPrintable(otherCluster.error() + standalone.error()));
        const ForeignServer &victim = clustered ? otherCluster.node(0) : standalone;
        QCOMPARE(victim.command({"SET", "stranger:key", "precious"}), QStringLiteral("OK"));
        ForeignCluster cluster(spec, 1);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        const ForeignServer &asked = cluster.node(0);
        QCOMPARE(asked.command({"CONFIG", "SET", "cluster-announce-port", std::to_string(victim.port())}), QStringLiteral("OK"));
        if (!password.isEmpty()) {
            for (const ForeignServer *server : {&asked, &victim})
                QCOMPARE(server->command({"CONFIG", "SET", "requirepass", password.toStdString()}), QStringLiteral("OK"));
        }
        const std::map<QString, long long> before = commandCalls(victim, password);
        VersusCli cli;
        if (!password.isEmpty())
            cli.environment().insert(QStringLiteral("VERSUS_PASSWORD"), password);
        QStringList arguments = hashTtlRun(asked.hostPort(), 100, cli.path(QStringLiteral("b.json")));
        if (allowAuth)
            arguments << QStringLiteral("--allow-cluster-auth");
        const VersusCli::Result r = cli.run(arguments, 120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1, named by %2 as a primary of its cluster, %3")
                                    .arg(victim.hostPort(), asked.hostPort(), why)),
                 r.describe());
        // Only the questions that prove membership reached it: no flush, no user, no settings,
        // and no password unless it asks for one and --allow-cluster-auth allows it.
        std::map<QString, long long> sent = commandCalls(victim, password);
        for (const auto &[name, calls] : before)
            sent[name] -= calls;
        if (!password.isEmpty())
            sent[QStringLiteral("auth")] -= 1;   // the test's own, to read the statistics again
        QStringList allowed{QStringLiteral("info"), QStringLiteral("cluster|myid"), QStringLiteral("cluster|nodes")};
        if (allowAuth)
            allowed << QStringLiteral("auth");
        for (const auto &[name, calls] : sent)
            QVERIFY2(calls == 0 || allowed.contains(name), qPrintable(QStringLiteral("%1 was sent %2 times").arg(name).arg(calls)));
        QCOMPARE(victim.command({"GET", "stranger:key"}, password), QStringLiteral("precious"));
    }

    // A node naming as many primaries as there are slots: refused at once, before any of them is
    // asked to prove it is a member (before, each was connected to and probed one by one, and
    // the refusal named every one: 857 KB).
    void tooManyPrimariesAreRefusedBeforeAnyIsAsked()
    {
        FakeClusterNode node;
        node.setShards(FakeClusterNode::shardsReply(node.scatteredPrimaries(16384)));
        VersusCli cli;
        const VersusCli::Result r = cli.run(refusedRun(node), 600000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QCOMPARE(r.err, QStringLiteral("versus run: --servers: %1: CLUSTER SHARDS names 16384 primaries, more than the 1000 "
                                       "Versus runs on: nothing is sent to any of them\n")
                            .arg(QString::fromStdString(node.hostPort())));
        // The node was asked who it is and what its cluster is; no primary was asked to prove itself.
        QCOMPARE(node.received("CLUSTER SHARDS"), 1LL);
        QCOMPARE(node.received("CLUSTER NODES"), 0LL);
        QVERIFY2(node.connections() <= 2, qPrintable(QString::number(node.connections())));
        QVERIFY(cli.leftoverServers().empty());
    }

    // 40 primaries with their slots scattered one by one: the refusal names the first 16, each
    // with its first 8 slot ranges, and counts the rest, instead of 100 KB of slot numbers.
    void refusalOfAManyPrimaryClusterStaysShort()
    {
        FakeClusterNode node;
        node.setShards(FakeClusterNode::shardsReply(node.scatteredPrimaries(40)));
        VersusCli cli;
        const VersusCli::Result r = cli.run(refusedRun(node), 300000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        const QString where = QString::fromStdString(node.hostPort());
        QVERIFY2(r.err.contains(QStringLiteral("It is a node of a cluster of 40 primaries, and the run flushes every one: primary %1 "
                                               "(slots 0,40,80,120,160,200,240,280 and 402 more ranges, 410 slots in all) holds no keys; "
                                               "primary %1 (slots 1,41,")
                                    .arg(where)),
                 r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("(slots 15,55,95,135,175,215,255,295 and 402 more ranges, 410 slots in all) holds no "
                                               "keys; and 24 more primaries, which hold no keys. Refused unless --allow-flush is given")),
                 r.describe());
        QCOMPARE(r.err.count(QStringLiteral("primary %1").arg(where)), 16);
        QVERIFY2(r.err.size() < 4096, qPrintable(QString::number(r.err.size())));
    }

    // An address in CLUSTER SHARDS or SLOTS that is not one: a line break and terminal escapes
    // (printed raw, they rewrite the user's terminal), or a host name where the reply gives an IP
    // address (resolved, it reached whatever the name points to). Refused before anything is sent
    // to it, and printed escaped on one line.
    void hostileAddressIsRefusedAndPrintedEscaped_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QByteArray>("address");
        QTest::addColumn<QString>("expected");
        QTest::newRow("shards: escapes") << QStringLiteral("shards") << QByteArray("127.0.0.1\n\x1b[2J\x1b[31mOWNED")
                                         << QStringLiteral("CLUSTER SHARDS names a primary at \"127.0.0.1\\n\\x1b[2J\\x1b[31mOWNED\" "
                                                           "(port %1), which is not an IP address");
        QTest::newRow("shards: a host name") << QStringLiteral("shards") << QByteArray("localhost")
                                             << QStringLiteral("CLUSTER SHARDS names a primary at \"localhost\" (port %1), "
                                                               "which is not an IP address");
        QTest::newRow("slots: escapes") << QStringLiteral("slots") << QByteArray("evil\r\n\x1b]0;owned\x07")
                                        << QStringLiteral("CLUSTER SLOTS names a primary at \"evil\\r\\n\\x1b]0;owned\\x07\" "
                                                          "(port %1), which is neither an IP address nor a host name");
    }
    void hostileAddressIsRefusedAndPrintedEscaped()
    {
        QFETCH(QString, reply);
        QFETCH(QByteArray, address);
        QFETCH(QString, expected);
        FakeClusterNode node;
        const std::vector<FakeClusterNode::Primary> primaries{
            {address.toStdString(), node.port(), FakeClusterNode::kId, {{0, 16383}}}};
        if (reply == QLatin1String("shards"))
            node.setShards(FakeClusterNode::shardsReply(primaries));
        else
            node.setSlotsOnly(FakeClusterNode::slotsReply(primaries));
        VersusCli cli;
        const VersusCli::Result r = cli.run(refusedRun(node), 120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("--servers: %1: ").arg(QString::fromStdString(node.hostPort()))
                                + expected.arg(node.port()) + QStringLiteral(": nothing is sent to any of its primaries")),
                 r.describe());
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        for (const QChar control : {QChar(0x1b), QChar(0x07), QChar(QLatin1Char('\r'))})
            QVERIFY2(!r.err.contains(control), r.describe());
        // Nothing went to the address: the node that named it was never asked to prove itself.
        QCOMPARE(node.received("CLUSTER NODES"), 0LL);
    }

    // An operator reshards while the run replays: slots move with their keys from one primary
    // to another, and Versus follows each MOVED (and ASK) without losing or repeating a command.
    // Plain, and over TLS (a TLS-only cluster: the redirects' targets are reached over TLS too).
    void slotMovedDuringTheRunIsFollowed_data()
    {
        QTest::addColumn<bool>("tls");
        QTest::newRow("plain") << false;
        QTest::newRow("TLS") << true;
    }

    void slotMovedDuringTheRunIsFollowed()
    {
        QFETCH(bool, tls);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster cluster(spec, 3);
        if (tls) {
            Outcome<std::shared_ptr<const TlsAuthority>> authority = TlsAuthority::create(QStringLiteral("cluster"));
            QVERIFY(authority);
            cluster.useTls(authority.value());
        }
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const QString named = cluster.node(0).hostPort();
        // Four clients per primary: a redirect is followed before any lane sends again.
        QStringList arguments = hashTtlRun(named, 30000, bundlePath) + QStringList{"--clients", "4"};
        if (tls)
            arguments << QStringLiteral("--tls") << QStringLiteral("--cacert") << cluster.node(0).tls().caCertFile;
        cli.start(arguments);
        const QRegularExpression replaying(QRegularExpression::escape(named) + QStringLiteral(" +\\d+%  replaying"));
        QVERIFY2(cli.waitForErr(replaying), qPrintable(cli.errSoFar()));
        QVERIFY2(cluster.moveSlots(0, 49, 0, 1), qPrintable(cluster.error()));
        QCOMPARE(cluster.nodeOfSlot(0), 1);
        const VersusCli::Result r = cli.finish(300000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->clients, 4);
        QCOMPARE(bundle->eventsPerBatch, 1);
        const RepeatResult &repeat = bundle->servers.front().repeats.front();
        QVERIFY2(repeat.redirects.moved > 0, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("slots moved during the pass")), r.describe());
        // The Markdown says so under the node spread, with the bundle's counts.
        const QLocale english(QLocale::English);
        QVERIFY2(r.out.contains(QStringLiteral(" was replayed into: %1 MOVED and %2 ASK replies were followed")
                                    .arg(english.toString(repeat.redirects.moved), english.toString(repeat.redirects.asked))),
                 r.describe());
        checkEveryKeyLanded(repeat, 30000);
        checkPutBack(cluster);
    }
};

QTEST_GUILESS_MAIN(ClusterEndpointTest)
#include "tst_clusterendpoint.moc"
