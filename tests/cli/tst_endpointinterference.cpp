// Another client on the endpoint while `versus run` replays into it: a FLUSHALL, a CONFIG
// RESETSTAT or a second Versus on the same server fails the series (exit 1) with a message
// that says another client interfered and what was seen, where the run used to end with exit 0
// and figures that were partly someone else's. The endpoint is a server the test starts itself
// with its own defaults (tests/support/foreignserver.h).
//
// The interference lands inside a pass's replay, never between passes: the test acts only while
// the endpoint holds some of a pass's keys but not all (0 < DBSIZE < keys), checked atomically
// (a script for FLUSHALL; writes paused for CONFIG RESETSTAT, which no script may send).
//
// A run killed (SIGKILL) while it holds an endpoint leaves its temporary ACL user and
// latency-tracking no; the next run names the user with how to remove it, and puts back the
// owner's latency-tracking from the marker the killed run wrote (endpointmarker.h).
#include "foreignserver.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QtTest>

namespace {

const int kKeys = 20000;

QStringList hashTtlRun(const QString &servers)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), servers, QStringLiteral("--allow-flush"),
            QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
            QStringLiteral("keys=%1").arg(kKeys)};
}

long long integerOf(const Outcome<Reply> &reply)
{
    return reply && reply->kind == Reply::Kind::Integer ? reply->integer : -1;
}

// Repeats `attempt` (which returns true once it acted inside a pass) while Versus runs, for at
// most 120 s; events are processed between attempts so the child's output keeps flowing.
bool actDuringAPass(VersusCli &cli, const std::function<bool()> &attempt)
{
    QElapsedTimer clock;
    clock.start();
    while (cli.running() && clock.elapsed() < 120000) {
        if (attempt())
            return true;
        QCoreApplication::processEvents();
    }
    return false;
}

// A script runs alone: the FLUSHALL lands while a pass's replay has stored some keys, not all.
const char *const kFlushInsideAPass =
    "local n = redis.call('DBSIZE') if n > 0 and n < tonumber(ARGV[1]) then redis.call('FLUSHALL') return n end return 0";

} // namespace

class EndpointInterferenceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void foreignFlushFailsTheSeries();
    void foreignStatisticsResetFailsTheSeries();
    void killedRunIsFoundByTheNextRun();
};

void EndpointInterferenceTest::foreignFlushFailsTheSeries()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    RedisConnection test;
    QVERIFY(server.connect(test));

    VersusCli cli;
    cli.start(hashTtlRun(server.hostPort()));
    long long keysWhenFlushed = 0;
    const bool flushed = actDuringAPass(cli, [&] {
        keysWhenFlushed = integerOf(test.command({"EVAL", kFlushInsideAPass, "0", std::to_string(kKeys)}));
        return keysWhenFlushed > 0;
    });
    QVERIFY2(flushed, qPrintable(cli.errSoFar()));
    const VersusCli::Result r = cli.finish(180000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("another client interfered with the pass ")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("FLUSHALL 1 sent by another client: keys deleted")), r.describe());
    QVERIFY2(r.out.contains(QStringLiteral(": failed: another client interfered")), r.describe());
}

void EndpointInterferenceTest::foreignStatisticsResetFailsTheSeries()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    RedisConnection test;
    QVERIFY(server.connect(test));

    VersusCli cli;
    cli.start(hashTtlRun(server.hostPort()));
    // Writes paused, the key count cannot move: reset only when it shows a pass mid-replay.
    const bool reset = actDuringAPass(cli, [&] {
        if (!test.command({"CLIENT", "PAUSE", "10000", "WRITE"}))
            return false;
        const long long keys = integerOf(test.command({"DBSIZE"}));
        const bool inside = keys > 0 && keys < kKeys;
        if (inside)
            test.command({"CONFIG", "RESETSTAT"});
        test.command({"CLIENT", "UNPAUSE"});
        return inside;
    });
    QVERIFY2(reset, qPrintable(cli.errSoFar()));
    const VersusCli::Result r = cli.finish(180000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 1, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("another client interfered with the pass ")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("statistics reset by another client (CONFIG RESETSTAT)")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("calls fewer than sent: ")), r.describe());
}

void EndpointInterferenceTest::killedRunIsFoundByTheNextRun()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    VersusCli cli;
    cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
    QStringList arguments = hashTtlRun(server.hostPort());
    arguments.replace(arguments.indexOf(QStringLiteral("keys=%1").arg(kKeys)), QStringLiteral("keys=2000000"));
    cli.start(arguments);
    QVERIFY2(cli.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000), qPrintable(cli.errSoFar()));
    QTRY_COMPARE_WITH_TIMEOUT(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"), 30000);
    cli.signal(SIGKILL);
    QVERIFY(cli.finish(30000).crashed);

    RedisConnection owner;
    QVERIFY(server.connect(owner));
    QString left;
    const Outcome<Reply> users = owner.command({"ACL", "USERS"});
    QVERIFY(users);
    for (const Reply &user : users->elements) {
        if (QString::fromStdString(user.text).startsWith(QLatin1String("versus-replay-")))
            left = QString::fromStdString(user.text);
    }
    QVERIFY2(!left.isEmpty(), "the killed run left no temporary user: nothing to find");
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"));

    const VersusCli::Result r = cli.run(hashTtlRun(server.hostPort()), 180000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("ACL users left by an earlier run of Versus")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("remove them with ACL DELUSER %1").arg(left)), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("was stopped before it put back latency-tracking: no is Versus's, not the "
                                           "owner's; it is put back to yes at the end of this run")),
             r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("latency-tracking put back to yes")), r.describe());
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    QVERIFY(!QFileInfo::exists(cli.path(QStringLiteral("state/versus/endpoints/127.0.0.1_%1.json").arg(server.port()))));
    owner.command({"ACL", "DELUSER", left.toStdString()});
}

QTEST_GUILESS_MAIN(EndpointInterferenceTest)

#include "tst_endpointinterference.moc"
