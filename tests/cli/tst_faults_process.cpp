// Process faults injected into real `versus run` children: a server SIGKILLed or SIGSTOPped
// mid-replay, Versus itself SIGKILLed, and SIGINT at random moments. Each checks that the
// results of the healthy servers are kept and that no server process or temp folder is left.
// (The same faults at the RunController level are in tst_replayengine.)

#include "bundlejson.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QtTest>

namespace {

QStringList replayArguments(const QString &servers, const QString &bundlePath, int keys)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), servers, QStringLiteral("--workload"), QStringLiteral("hash-ttl"),
            QStringLiteral("--set"), QStringLiteral("keys=%1").arg(keys), QStringLiteral("--batch"), QStringLiteral("10"),
            QStringLiteral("--out"), bundlePath};
}

} // namespace

class FaultsProcessTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // A binary that answers --version like a server and then never answers PING: its failure is
    // said once (the progress row printed the log tail again, with a stray ")"), and its columns
    // in the printed tables say failed (it was missing from them).
    void serverThatNeverAnswersIsReportedOnce()
    {
        VERSUS_REQUIRE_SERVER(survivor, "valkey-9.1.");
        VersusCli cli;
        const QString mute = cli.path(QStringLiteral("mute/valkey-server"));
        QVERIFY(QDir().mkpath(QFileInfo(mute).path()));
        QFile script(mute);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\n"
                     "if [ \"$1\" = --version ]; then\n"
                     "  echo 'Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1234567890abcdef'; exit 0\n"
                     "fi\n"
                     "exec sleep 30\n");
        script.close();
        QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), mute + QLatin1Char(',') + survivor.label,
                                             QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
                                             QStringLiteral("keys=200")},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        QCOMPARE(r.err.count(QStringLiteral("(the log is empty)")), 1);
        QVERIFY2(!r.err.contains(QStringLiteral("))")) && !r.err.contains(QStringLiteral("log:)")), r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("| Pattern | Valkey 8.0.1 | Valkey %1 |").arg(survivor.identity.version)), r.describe());
        QVERIFY2(r.out.contains(QStringLiteral("| set-ex | failed | ")), r.describe());
        QVERIFY(cli.leftoverServers().empty());
    }

    // SIGKILL: the process is gone at once. SIGSTOP: it stays but never answers, and only the
    // --timeout notices; Versus must then kill it itself (SIGKILL works on a stopped process).
    // The timeout is one a healthy server meets on a busy machine too: with a second suite
    // beside this one (load 13 on two cores), the survivor was once silent for over 1.5 s.
    void serverFaultMidReplay_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::addColumn<QStringList>("extraArguments");
        QTest::newRow("SIGKILL") << int(SIGKILL) << QStringList();
        QTest::newRow("SIGSTOP, --timeout 5000") << int(SIGSTOP) << QStringList{QStringLiteral("--timeout"), QStringLiteral("5000")};
    }

    void serverFaultMidReplay()
    {
        QFETCH(int, signalNumber);
        QFETCH(QStringList, extraArguments);
        VERSUS_REQUIRE_SERVER(victimSpec, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(survivorSpec, "valkey-9.1.");
        const QString victim = victimSpec.label;
        const QString survivor = survivorSpec.label;

        VersusCli cli;
        const QString bundlePath = cli.path(QStringLiteral("results.json"));
        cli.start(replayArguments(victim + QLatin1Char(',') + survivor, bundlePath, 5000) + extraArguments);
        QVERIFY2(cli.waitForErr(replayingLine(victim)), qPrintable(cli.errSoFar()));
        const qint64 victimPid = cli.serverPids()[victim];
        QVERIFY2(victimPid > 0, qPrintable(cli.errSoFar()));
        QVERIFY(::kill(pid_t(victimPid), signalNumber) == 0);

        const VersusCli::Result r = cli.finish(120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
        QVERIFY2(!ServerTestHelpers::processAlive(victimPid), "the faulted server is still there");
        QVERIFY(cli.leftoverServers().empty());
        QVERIFY(cli.leftoverDirs().isEmpty());

        Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        const ServerRun *failed = bundle.value().server(victim);
        const ServerRun *finished = bundle.value().server(survivor);
        QVERIFY(failed && finished);
        QCOMPARE(failed->status, RunStatus::Failed);
        QVERIFY2(!failed->error.isEmpty(), "no error text for the failed server");
        QVERIFY2(!failed->logTail.isEmpty(), "no log lines for the failed server");
        QVERIFY2(failed->logTail.join(QLatin1Char('\n')).contains(QLatin1String("Ready to accept connections")),
                 qPrintable(failed->logTail.join(QLatin1Char('\n'))));
        QVERIFY2(finished->status == RunStatus::Ok,
                 qPrintable(survivor + QStringLiteral(": ") + finished->error + QLatin1Char('\n') + r.describe()));
        for (const char *pattern : {"hsetex", "set-ex", "hset-hexpire"})   // each pattern timed on its own
            QCOMPARE(finished->repeats.front().byType.at(QString::fromLatin1(pattern)).timing->events, 5000LL);
        QCOMPARE(finished->repeats.front().byType.at(QStringLiteral("set-ex")).keys, 5000LL);
        QVERIFY2(r.out.contains(QLatin1String("Results bundle: ")), r.describe());
        if (signalNumber == SIGSTOP)
            QVERIFY2(failed->error.contains(QLatin1String("timed out after 5000 ms")), qPrintable(failed->error));
    }

    // Versus SIGKILLed: its servers die with it (PR_SET_PDEATHSIG) and the temp folders it could
    // not remove are removed by the next `versus run` or `versus servers`.
    void versusKilledLeavesNothingBehind_data()
    {
        QTest::addColumn<QStringList>("nextStart");
        QTest::newRow("next: versus servers") << QStringList{QStringLiteral("servers")};
        QTest::newRow("next: versus run (bad usage)") << QStringList{QStringLiteral("run"), QStringLiteral("--schedule"), QStringLiteral("x")};
    }

    void versusKilledLeavesNothingBehind()
    {
        QFETCH(QStringList, nextStart);
        VERSUS_REQUIRE_SERVER(first, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(second, "valkey-9.1.");
        VersusCli cli;
        cli.start(replayArguments(first.label + QLatin1Char(',') + second.label, cli.path(QStringLiteral("b.json")), 100000));
        QVERIFY2(cli.waitForErr(replayingLine(second.label)), qPrintable(cli.errSoFar()));
        QVERIFY(cli.waitForErr(replayingLine(first.label)));
        const std::map<QString, qint64> servers = cli.serverPids();
        QCOMPARE(int(servers.size()), 2);
        QCOMPARE(cli.leftoverDirs().size(), 2);

        cli.signal(SIGKILL);
        const VersusCli::Result killed = cli.finish(30000);
        QVERIFY(killed.crashed);
        QTRY_VERIFY_WITH_TIMEOUT(cli.leftoverServers().empty(), 10000);
        // A killed server's command line reads empty once its memory is released, before it has
        // ended: on a busy machine that takes a while, so each pid is waited for as well.
        for (const auto &entry : servers)
            QTRY_VERIFY2_WITH_TIMEOUT(!ServerTestHelpers::processAlive(entry.second), qPrintable(entry.first), 10000);
        QCOMPARE(cli.leftoverDirs().size(), 2);   // nobody was left to remove them

        const VersusCli::Result next = cli.run(nextStart, 60000);
        QVERIFY2(next.finished && !next.crashed, next.describe());
        QVERIFY2(cli.leftoverDirs().isEmpty(), qPrintable(cli.leftoverDirs().join(QLatin1Char(' '))));
    }

    // SIGINT at 10 moments drawn from a seeded generator, spread over start-up (before and while
    // the servers launch), the timed replay pass and the memory passes that follow it.
    void interruptAtRandomMoments()
    {
        VERSUS_REQUIRE_SERVER(first, "valkey-8.0.1");
        VERSUS_REQUIRE_SERVER(second, "valkey-9.1.");
        QRandomGenerator random(20261129);
        struct Moment { QString after; int delayMs; };
        std::vector<Moment> moments;
        const QString phases[] = {QStringLiteral("Replaying "), QStringLiteral("started "), QStringLiteral("replaying "),
                                  QStringLiteral("measuring ")};
        for (int i = 0; i < 10; ++i)
            moments.push_back({phases[i % 4], int(random.bounded(400))});
        int index = 0;
        for (const Moment &moment : moments) {
            const QByteArray where = QStringLiteral("moment %1: %2ms after '%3'").arg(index++).arg(moment.delayMs).arg(moment.after).toLocal8Bit();
            VersusCli cli;
            const QString bundlePath = cli.path(QStringLiteral("partial.json"));
            cli.start({QStringLiteral("run"), QStringLiteral("--servers"), first.label + QLatin1Char(',') + second.label,
                       QStringLiteral("--workload"), QStringLiteral("ecommerce"), QStringLiteral("--events"), QStringLiteral("3000"),
                       QStringLiteral("--out"), bundlePath});
            QVERIFY2(cli.waitForErr(QRegularExpression(QRegularExpression::escape(moment.after))), where + cli.errSoFar().toLocal8Bit());
            QTest::qWait(moment.delayMs);   // the injected moment itself, not a wait for something
            QVERIFY2(cli.running(), where + " the run ended before the signal; pick earlier moments");
            cli.signal(SIGINT);
            const VersusCli::Result r = cli.finish(60000);
            QVERIFY2(r.finished && !r.crashed && r.exitCode == 130, where + r.describe());
            QVERIFY2(cli.leftoverServers().empty(), where);
            QVERIFY2(cli.leftoverDirs().isEmpty(), where);
            for (const auto &entry : cli.serverPids())
                QVERIFY2(!ServerTestHelpers::processAlive(entry.second), where + entry.first.toLocal8Bit());
            Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
            QVERIFY2(bundle, where + (bundle ? QString() : bundle.error()).toLocal8Bit());
            QVERIFY2(!bundle->complete, where);
            qInfo("%s: exit 130, bundle incomplete, %zu server(s) in it", where.constData(), bundle->servers.size());
        }
    }
};

QTEST_GUILESS_MAIN(FaultsProcessTest)
#include "tst_faults_process.moc"
