// Data safety: an endpoint's data is never flushed without consent, failed writes never leave a
// half-written file where a good one was, and a broken server cache or a server binary that
// disappears gets a message naming it while the other servers go on.
// (A port taken between choosing and binding is retried on another port: tst_serverprocess.)

#include "bundlejson.h"
#include "fixturebundle.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QtTest>
#include <csignal>
#include <sys/resource.h>

namespace {

using TestFiles::writeFile;
using TestFiles::readFile;
using TestFiles::everyEntry;

} // namespace

class FaultsDataTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    void endpointWithDataNeedsConsent()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess server(spec);
        Status started = server.start();
        QVERIFY2(started, qPrintable(started ? QString() : started.error()));
        RedisConnection connection;
        QVERIFY(server.connect(connection, 5000));
        QVERIFY(connection.command({"SET", "precious", "user data"}));

        VersusCli cli;
        const QString endpoint = QStringLiteral("127.0.0.1:%1").arg(server.port());
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), endpoint, QStringLiteral("--password"),
                                             server.controlCredentials().password, QStringLiteral("--workload"),
                                             QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(endpoint) && r.err.contains(QLatin1String("--allow-flush")), r.describe());

        Outcome<Reply> value = connection.command({"GET", "precious"});
        QVERIFY(value);
        QCOMPARE(QString::fromStdString(value->text), QStringLiteral("user data"));
        Outcome<Reply> size = connection.command({"DBSIZE"});
        QVERIFY(size);
        QCOMPARE(size->integer, 1LL);
        server.stop();
    }

    // mkdir fails even for root below a regular file, unlike a mode-0555 folder.
    void exportIntoAFolderThatCannotBeCreated()
    {
        VersusCli cli;
        const QString blocker = cli.path(QStringLiteral("file.txt"));
        QVERIFY(writeFile(blocker, "a file, not a folder\n"));
        const QString target = blocker + QStringLiteral("/charts");
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QString::fromLatin1(kHashTtlFixtureBundle), QStringLiteral("--export-dir"), target}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(target), r.describe());
        QCOMPARE(readFile(blocker), QByteArray("a file, not a folder\n"));
    }

    // A full disk, as the exporter sees it: every write beyond 4 KiB fails. The chart already in
    // the folder from an earlier export stays whole, and no temp file is left.
    void exportOntoAFullDisk()
    {
        VersusCli cli;
        const QString dir = cli.path(QStringLiteral("charts"));
        const QString chart = dir + QStringLiteral("/memory-per-attribute.png");
        const QByteArray earlier = QByteArray("an earlier export\n").repeated(100);
        QVERIFY(writeFile(chart, earlier));
        cli.setChildModifier([] {
            ::signal(SIGXFSZ, SIG_IGN);
            rlimit limit{4096, 4096};
            ::setrlimit(RLIMIT_FSIZE, &limit);
        });
        // --force: replacing the earlier chart is asked for, so the write is what fails.
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QString::fromLatin1(kHashTtlFixtureBundle), QStringLiteral("--export-dir"), dir,
                                             QStringLiteral("--force")}, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(chart) && r.err.contains(QLatin1String("cannot write")), r.describe());
        QCOMPARE(readFile(chart), earlier);
        QCOMPARE(everyEntry(dir), QStringList{QStringLiteral("memory-per-attribute.png")});
    }

    // `versus run --out` over an earlier bundle, on a disk that fills up while the new one is
    // written: the earlier bundle stays byte for byte, no temp file is left, exit code 2.
    // (saveBundle itself under the same fault: tst_bundlejson failedWriteKeepsTheOldFile.)
    void bundleIsNeverHalfOverwritten()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString folder = cli.path(QStringLiteral("results"));
        QVERIFY(QDir().mkpath(folder));
        const QString bundlePath = folder + QStringLiteral("/bundle.json");
        const QStringList arguments{QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                                    QStringLiteral("ecommerce"), QStringLiteral("--events"), QStringLiteral("300"),
                                    QStringLiteral("--out"), bundlePath};
        const VersusCli::Result first = cli.run(arguments, 120000);
        QVERIFY2(first.finished && first.exitCode == 0, first.describe());
        const QByteArray earlier = readFile(bundlePath);
        // The limit must leave room for the server's own log, and be well below the bundle.
        const rlim_t limit = rlim_t(earlier.size() / 2);
        QVERIFY2(limit >= 4 * 1024, qPrintable(QStringLiteral("bundle of %1 bytes is too small for this test").arg(earlier.size())));

        cli.setChildModifier([limit] {
            ::signal(SIGXFSZ, SIG_IGN);
            rlimit capped{limit, limit};
            ::setrlimit(RLIMIT_FSIZE, &capped);
        });
        const VersusCli::Result second = cli.run(arguments, 120000);
        QVERIFY2(second.finished && !second.crashed && second.exitCode == 2, second.describe());
        QVERIFY2(second.err.contains(bundlePath + QLatin1String(": cannot write")), second.describe());
        QVERIFY2(second.out.contains(QLatin1String("### Memory per stored attribute")), second.describe());   // the results were shown
        QCOMPARE(readFile(bundlePath), earlier);
        QCOMPARE(everyEntry(folder), QStringList{QStringLiteral("bundle.json")});
        QVERIFY(cli.leftoverServers().empty());
    }

    // The cache folder named by VERSUS_SERVER_CACHE is missing, or holds a manifest of junk.
    void brokenServerCache_data()
    {
        QTest::addColumn<QByteArray>("manifest");   // empty: the cache folder does not exist
        QTest::addColumn<QString>("status");
        QTest::newRow("missing cache folder") << QByteArray() << QString();
        QTest::newRow("manifest of junk") << QByteArray("{\"label\": \"valkey-8.0.1\", \x01\x02 junk") << QStringLiteral("corrupt manifest");
        QTest::newRow("manifest of wrong shape") << QByteArray("[1, 2, 3]") << QStringLiteral("not a JSON object");
        QTest::newRow("manifest without binary") << QByteArray("{\"label\": \"valkey-8.0.1\", \"product\": \"valkey\", \"version\": \"8.0.1\"}")
                                                 << QStringLiteral("missing or empty");
    }

    void brokenServerCache()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QString, status);
        VersusCli cli;
        const QString cache = cli.path(QStringLiteral("cache"));
        if (!manifest.isEmpty())
            QVERIFY(writeFile(cache + QStringLiteral("/valkey-8.0.1/manifest.json"), manifest));
        cli.environment().insert(QStringLiteral("VERSUS_SERVER_CACHE"), cache);

        const VersusCli::Result listed = cli.run({QStringLiteral("servers")}, 60000);
        QVERIFY2(listed.finished && !listed.crashed && listed.exitCode == 0, listed.describe());
        if (manifest.isEmpty()) {
            QVERIFY2(listed.out.contains(cache) || listed.out.contains(QLatin1String("LABEL")), listed.describe());
        } else {
            QVERIFY2(listed.out.contains(QLatin1String("valkey-8.0.1")) && listed.out.contains(status), listed.describe());
        }

        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), QStringLiteral("valkey-8.0.1"),
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                            60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("valkey-8.0.1")), r.describe());
        if (manifest.isEmpty())
            QVERIFY2(r.err.contains(QLatin1String("unknown server")), r.describe());
        else
            QVERIFY2(r.err.contains(QLatin1String("cannot be used")) && r.err.contains(status), r.describe());
    }

    // A fetched binary deleted from the cache: listed with its status, skipped by default, and
    // refused by name; the other version runs.
    void fetchedVersionGoneMissing()
    {
        VERSUS_REQUIRE_SERVER(gone, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(kept, "valkey-9.1.");
        VersusCli cli;
        const QString cache = cli.path(QStringLiteral("cache"));
        const QString realCache = ServerTestHelpers::serverCacheDir();
        // The kept version is a real copy: the cache runs only files inside each version's folder.
        QVERIFY(QDir().mkpath(cache));
        QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), realCache + QLatin1Char('/') + kept.label, cache}), 0);
        QByteArray keptManifest = readFile(cache + QLatin1Char('/') + kept.label + QStringLiteral("/manifest.json"));
        keptManifest.replace((realCache + QLatin1Char('/') + kept.label).toUtf8(), (cache + QLatin1Char('/') + kept.label).toUtf8());
        QVERIFY(writeFile(cache + QLatin1Char('/') + kept.label + QStringLiteral("/manifest.json"), keptManifest));
        // The gone version's manifest points into the private cache, where no binary is.
        QByteArray manifest = readFile(realCache + QLatin1Char('/') + gone.label + QStringLiteral("/manifest.json"));
        manifest.replace((realCache + QLatin1Char('/') + gone.label).toUtf8(), (cache + QLatin1Char('/') + gone.label).toUtf8());
        QVERIFY(writeFile(cache + QLatin1Char('/') + gone.label + QStringLiteral("/manifest.json"), manifest));
        cli.environment().insert(QStringLiteral("VERSUS_SERVER_CACHE"), cache);
        const QString missingBinary = cache + QLatin1Char('/') + gone.label + QStringLiteral("/bin/valkey-server");

        const VersusCli::Result listed = cli.run({QStringLiteral("servers")}, 60000);
        QVERIFY2(listed.exitCode == 0 && listed.out.contains(QLatin1String("missing binary ") + missingBinary), listed.describe());

        const VersusCli::Result named = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), gone.label + QLatin1Char(',') + kept.label,
                                                 QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=10")},
                                                60000);
        QVERIFY2(named.finished && !named.crashed && named.exitCode == 2, named.describe());
        QVERIFY2(named.err.contains(gone.label + QLatin1String(" cannot be used: missing binary ") + missingBinary), named.describe());

        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        const VersusCli::Result byDefault = cli.run({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
                                                     QStringLiteral("--set"), QStringLiteral("keys=100"), QStringLiteral("--out"), bundlePath},
                                                    120000);
        QVERIFY2(byDefault.finished && !byDefault.crashed && byDefault.exitCode == 0, byDefault.describe());
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->servers.size(), size_t(1));
        QCOMPARE(bundle->servers.front().id, kept.label);
        QCOMPARE(bundle->servers.front().status, RunStatus::Ok);
    }

    // A binary that passed identification and is gone when its server is launched: that server
    // fails with a message naming it, the other finishes, exit code 1.
    void binaryGoneAfterDiscovery()
    {
        VERSUS_REQUIRE_SERVER(kept, "valkey-9.1.");
        VersusCli cli;
        const QString program = cli.path(QStringLiteral("vanishing/valkey-server"));
        // Answers --version like a server, then deletes itself.
        QVERIFY(writeFile(program,
                          "#!/bin/sh\n"
                          "echo 'Valkey server v=8.0.99 sha=00000000:0 malloc=libc bits=64 build=0000000000000000'\n"
                          "rm -f \"$0\"\n",
                          true));
        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), program + QLatin1Char(',') + kept.label,
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=100"),
                                             QStringLiteral("--out"), bundlePath},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        QVERIFY(!QFileInfo::exists(program));
        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(bundle->servers.size(), size_t(2));
        const ServerRun *vanished = bundle->server(QStringLiteral("valkey-8.0.99"));
        const ServerRun *finished = bundle->server(kept.label);
        QVERIFY(vanished && finished);
        QCOMPARE(vanished->status, RunStatus::Failed);
        QVERIFY2(vanished->error.contains(QLatin1String("valkey-8.0.99")) || vanished->error.contains(program), qPrintable(vanished->error));
        QCOMPARE(finished->status, RunStatus::Ok);
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());
    }
};

QTEST_GUILESS_MAIN(FaultsDataTest)
#include "tst_faults_data.moc"
