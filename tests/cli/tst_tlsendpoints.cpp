// `versus run --tls` against endpoints that speak TLS alone, as managed services do: a Valkey
// started by the test with port 0 and a tls-port, and a 3-node cluster of them (tls-cluster),
// each with certificates the test made in its own folders. The default workload replays into
// each beside a launched server of the same version (launched TLS-only too): every key lands
// once (the same keys per type on both), the settings Versus changes are put back, the bundle
// says both ran over TLS and holds no key or password. And the ways TLS goes wrong: a CA that
// did not sign the server, a plain client to a TLS port, a TLS client to a plain port, a client
// certificate the server refuses: each fails soon, naming the endpoint and the reason, with the
// keys planted before still there.

#include "bundlecounts.h"
#include "bundlejson.h"
#include "foreigncluster.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QElapsedTimer>
#include <QtTest>

namespace {

// The endpoint as its owner had it: latency tracking on, no user of Versus's, nothing left.
void checkPutBack(const ForeignServer &node)
{
    QCOMPARE(node.settings()[QStringLiteral("latency-tracking")], QStringLiteral("yes"));
    QCOMPARE(node.command({"DBSIZE"}), QStringLiteral("0"));
    const QStringList users = node.aclUsers();
    QVERIFY(users.contains(QStringLiteral("default")));
    for (const QString &user : users)
        QVERIFY2(!user.startsWith(QLatin1String("versus-replay")), qPrintable(user));
}

QStringList tlsRun(const QString &servers, const TlsSettings &tls, const QString &bundle)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), servers, QStringLiteral("--allow-flush"), QStringLiteral("--tls"),
            QStringLiteral("--cacert"), tls.caCertFile, QStringLiteral("--out"), bundle};
}

} // namespace

class TlsEndpointsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void defaultWorkloadOverTls_data()
    {
        QTest::addColumn<int>("primaries");   // 0: standalone
        QTest::newRow("standalone") << 0;
        QTest::newRow("cluster of 3") << 3;
    }

    void defaultWorkloadOverTls()
    {
        QFETCH(int, primaries);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        Outcome<std::shared_ptr<const TlsAuthority>> authority = TlsAuthority::create(QStringLiteral("endpoint"));
        QVERIFY2(authority, qPrintable(authority.error()));
        ForeignServer standalone(spec);
        ForeignCluster cluster(spec, std::max(1, primaries));
        const ForeignServer *endpoint = &standalone;
        if (primaries > 0) {
            cluster.useTls(authority.value());
            QVERIFY2(cluster.start(), qPrintable(cluster.error()));
            endpoint = &cluster.node(1);
        } else {
            QVERIFY2(standalone.useTls(*authority.value()), qPrintable(standalone.error()));
            QVERIFY2(standalone.start(), qPrintable(standalone.error()));
        }
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run(tlsRun(spec.label + QLatin1Char(',') + endpoint->hostPort(), endpoint->tls(), bundlePath), 600000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY(cli.leftoverServers().empty());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(int(bundle->servers.size()), 2);
        const ServerRun &launched = bundle->servers[0];
        const ServerRun &remote = bundle->servers[1];
        QCOMPARE(launched.status, RunStatus::Ok);
        QCOMPARE(remote.status, RunStatus::Ok);
        QCOMPARE(launched.transport, QStringLiteral("tls"));
        QCOMPARE(remote.transport, QStringLiteral("tls"));
        QCOMPARE(remote.topology.primaries, primaries);
        // Every key landed once: the same keys of every type as on the launched server.
        const RepeatResult &ours = launched.repeats.front();
        const RepeatResult &theirs = remote.repeats.front();
        QVERIFY(ours.keys > 1000);
        QCOMPARE(theirs.keys, ours.keys);
        QCOMPARE(keysByType(theirs), keysByType(ours));
        QCOMPARE(theirs.errorCount(), 0LL);
        QCOMPARE(ours.errorCount(), 0LL);
        if (primaries > 0) {
            QCOMPARE(int(theirs.nodes.size()), primaries);
            for (const NodeMemory &node : theirs.nodes)
                QVERIFY(node.keys > 0);
        }
        for (int index = 0; index < (primaries > 0 ? cluster.size() : 1); ++index)
            checkPutBack(primaries > 0 ? cluster.node(index) : standalone);
        const QByteArray written = TestFiles::readFile(bundlePath);
        QVERIFY(!written.contains("PRIVATE KEY"));
        QVERIFY(!r.err.contains(QLatin1String("PRIVATE KEY")) && !r.out.contains(QLatin1String("PRIVATE KEY")));
        QVERIFY2(!r.out.contains(QLatin1String("over TLS and")), r.describe());   // both over TLS: no caveat
    }

    // --insecure runs, and says so on stderr (the notice and the server's log) and in the bundle.
    void insecureIsSaidLoudly()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer endpoint(spec);
        QVERIFY2(endpoint.useOwnTls(), qPrintable(endpoint.error()));
        QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run({"run", "--servers", endpoint.hostPort(), "--allow-flush", "--tls", "--insecure",
                                             "--workload", "hash-ttl", "--set", "keys=200", "--out", bundlePath});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(r.err.count(QStringLiteral("WARNING: --insecure: the TLS certificate of")), 2);
        QVERIFY2(r.err.contains(QStringLiteral("WARNING: --insecure: the TLS certificate of %1 is NOT checked").arg(endpoint.hostPort())),
                 r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY(bundle);
        QCOMPARE(bundle->servers.front().transport, QStringLiteral("tls-unchecked"));
        QCOMPARE(bundle->servers.front().status, RunStatus::Ok);
    }

    // The options that make no sense alone are refused before anything starts.
    void optionsAreChecked_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("--cacert without --tls") << QStringList{"--cacert", "/etc/hostname"} << "--cacert needs --tls";
        QTest::newRow("--cert without --key") << QStringList{"--tls", "--cert", "/etc/hostname"} << "--cert needs --key";
        QTest::newRow("unreadable CA") << QStringList{"--tls", "--cacert", "/nonexistent/ca.pem"}
                                       << "--cacert: /nonexistent/ca.pem is not a readable file";
        QTest::newRow("not a certificate") << QStringList{"--tls", "--cacert", "/etc/hostname"}
                                           << "--tls: cannot read the CA certificates in /etc/hostname";
        QTest::newRow("endpoint options, launched servers") << QStringList{"--tls", "--sni", "example.com"}
                                                            << "are for host:port endpoints";
    }

    void optionsAreChecked()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        VersusCli cli;
        const VersusCli::Result r = cli.run(QStringList{"run", "--servers", spec.label, "--workload", "hash-ttl"} + arguments);
        QVERIFY2(r.finished && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(message), r.describe());
        QVERIFY(cli.leftoverServers().empty());
    }

    void failuresNameEndpointAndReason_data()
    {
        QTest::addColumn<QString>("server");   // tls, plain, mutual (a client certificate required)
        QTest::addColumn<QString>("client");   // what Versus is given
        QTest::addColumn<QString>("reason");
        QTest::newRow("wrong CA") << "tls" << "other-ca" << "the server's certificate was not accepted";
        QTest::newRow("plain client to a TLS port") << "tls" << "plain" << "give --tls if it is one";
        QTest::newRow("TLS client to a plain port") << "plain" << "tls" << "leave out --tls if it is one";
        QTest::newRow("bad client certificate") << "mutual" << "other-cert" << "the server refused the client certificate";
        QTest::newRow("no client certificate") << "mutual" << "tls" << "the server requires a client certificate";
    }

    void failuresNameEndpointAndReason()
    {
        QFETCH(QString, server);
        QFETCH(QString, client);
        QFETCH(QString, reason);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer endpoint(spec);
        if (server != QLatin1String("plain"))
            QVERIFY(endpoint.useOwnTls(server == QLatin1String("mutual") ? QStringLiteral("yes") : QStringLiteral("no")));
        QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
        QCOMPARE(endpoint.command({"SET", "precious", "data"}), QStringLiteral("OK"));
        VersusCli cli;
        QStringList arguments{QStringLiteral("run"), QStringLiteral("--servers"), endpoint.hostPort(), QStringLiteral("--allow-flush"),
                              QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=200")};
        if (client != QLatin1String("plain")) {
            Outcome<std::shared_ptr<const TlsAuthority>> stranger = TlsAuthority::create(QStringLiteral("stranger"));
            QVERIFY(stranger);
            const Outcome<TlsServerFiles> strange = stranger.value()->issueClientFiles(cli.path(QString()), QStringLiteral("stranger-"));
            QVERIFY2(strange, qPrintable(strange.error()));
            const QString ca = client == QLatin1String("other-ca") || server == QLatin1String("plain") ? strange->caCertFile
                                                                                                    : endpoint.tls().caCertFile;
            arguments << QStringLiteral("--tls") << QStringLiteral("--cacert") << ca;
            if (client == QLatin1String("other-cert"))
                arguments << QStringLiteral("--cert") << strange->certFile << QStringLiteral("--key") << strange->keyFile;
        }
        QElapsedTimer clock;
        clock.start();
        const VersusCli::Result r = cli.run(arguments, 60000);
        const qint64 elapsed = clock.elapsed();
        qInfo("%s: exit %d after %lld ms", QTest::currentDataTag(), r.exitCode, elapsed);
        QVERIFY2(r.finished && r.exitCode != 0, r.describe());
        QVERIFY2(elapsed < 10000, r.describe());
        QVERIFY2(r.err.contains(endpoint.hostPort()), r.describe());
        QVERIFY2(r.err.contains(reason), r.describe());
        QCOMPARE(endpoint.command({"GET", "precious"}), QStringLiteral("data"));   // nothing flushed
        QCOMPARE(endpoint.command({"DBSIZE"}), QStringLiteral("1"));
        QVERIFY(cli.leftoverServers().empty());
    }
};

QTEST_GUILESS_MAIN(TlsEndpointsTest)
#include "tst_tlsendpoints.moc"
