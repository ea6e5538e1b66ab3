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
// owner's latency-tracking from the marker the killed run wrote (endpointmarker.h). A second
// run or a put-back that names the server by another address finds a running run's marker too.
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

// The ACL users a run of Versus made on `server`, by ACL USERS as its owner.
QStringList replayUsersOf(ForeignServer &server)
{
    RedisConnection owner;
    const Outcome<Reply> users = server.connect(owner) ? owner.command({"ACL", "USERS"}) : Outcome<Reply>(Error{"no connection"});
    QStringList found;
    for (const Reply &user : users ? users->elements : std::vector<Reply>()) {
        if (QString::fromStdString(user.text).startsWith(QLatin1String("versus-replay-")))
            found << QString::fromStdString(user.text);
    }
    return found;
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
    void killedRunIsPutBackOnRequest();
    void secondSpellingFindsTheRunningRun();

private:
    static QString killMidReplay(ForeignServer &server, VersusCli &cli);
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

// Starts a run on `server` and kills it (SIGKILL) mid-replay; returns the ACL user it left.
QString EndpointInterferenceTest::killMidReplay(ForeignServer &server, VersusCli &cli)
{
    QStringList arguments = hashTtlRun(server.hostPort());
    arguments.replace(arguments.indexOf(QStringLiteral("keys=%1").arg(kKeys)), QStringLiteral("keys=2000000"));
    cli.start(arguments);
    if (!cli.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000))
        return QString();
    QDeadlineTimer deadline(30000);
    while (server.settings().at(QStringLiteral("latency-tracking")) != QLatin1String("no") && !deadline.hasExpired())
        QTest::qWait(50);
    cli.signal(SIGKILL);
    if (!cli.finish(30000).crashed)
        return QString();
    return replayUsersOf(server).value(0);
}

void EndpointInterferenceTest::killedRunIsFoundByTheNextRun()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    VersusCli cli;
    cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
    const QString left = killMidReplay(server, cli);
    QVERIFY2(!left.isEmpty(), qPrintable(QStringLiteral("the killed run left no temporary user: nothing to find; ") + cli.errSoFar()));
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"));

    const VersusCli::Result r = cli.run(hashTtlRun(server.hostPort()), 180000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("ACL users left by an earlier run of Versus")), r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1; each has a password no one knows any more; versus servers --endpoint "
                                           "%2 --put-back removes them").arg(left, server.hostPort())),
             r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("was stopped before it put back latency-tracking: no is Versus's, not the "
                                           "owner's; it is put back to yes at the end of this run")),
             r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("latency-tracking put back to yes")), r.describe());
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    QVERIFY(!QFileInfo::exists(cli.path(QStringLiteral("state/versus/endpoints/%1.json").arg(server.runId()))));
    RedisConnection owner;
    QVERIFY(server.connect(owner));
    owner.command({"ACL", "DELUSER", left.toStdString()});
}

void EndpointInterferenceTest::killedRunIsPutBackOnRequest()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    VersusCli cli;
    cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
    const QString left = killMidReplay(server, cli);
    QVERIFY2(!left.isEmpty(), qPrintable(QStringLiteral("the killed run left no temporary user; ") + cli.errSoFar()));
    const QString marker = cli.path(QStringLiteral("state/versus/endpoints/%1.json").arg(server.runId()));
    QVERIFY(QFileInfo::exists(marker));
    // The owner's users that only share the name's start: never Versus's to delete.
    QCOMPARE(server.command({"ACL", "SETUSER", "versus-replay-prod", "on", ">prod-pw", "~app:*", "+get"}), QStringLiteral("OK"));
    QCOMPARE(server.command({"ACL", "SETUSER", "versus-replay-0123456789ab", "on", ">pw", "~*", "&*", "+@all"}), QStringLiteral("OK"));
    const QString ownersLeft = QStringLiteral("%1: versus-replay-0123456789ab is not one Versus made (its rules differ): left as "
                                              "it is\n%1: versus-replay-prod is not one Versus made (its name is not of the form "
                                              "Versus gives): left as it is\n").arg(server.hostPort());

    // Looking changes nothing.
    const QStringList look{QStringLiteral("servers"), QStringLiteral("--endpoint"), server.hostPort()};
    VersusCli::Result r = cli.run(look, 30000);
    QVERIFY2(r.finished && r.exitCode == 0, r.describe());
    QVERIFY2(r.out.contains(QStringLiteral("%1: ACL users a run of Versus made, whose password no one knows any more unless "
                                           "a run is going on now: %2\n").arg(server.hostPort(), left)),
             r.describe());
    QVERIFY2(r.out.contains(QStringLiteral("%1: a run of Versus (pid ").arg(server.hostPort())), r.describe());
    QVERIFY2(r.out.contains(QStringLiteral(") was killed before it put back its settings: latency-tracking is no, Versus's "
                                           "value; the owner's was yes\n")),
             r.describe());
    QVERIFY2(r.out.contains(QStringLiteral("versus servers --endpoint %1 --put-back deletes these users").arg(server.hostPort())),
             r.describe());
    QVERIFY2(r.out.contains(ownersLeft), r.describe());
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"));
    QVERIFY(QFileInfo::exists(marker));

    r = cli.run(look + QStringList{QStringLiteral("--put-back")}, 30000);
    QVERIFY2(r.finished && r.exitCode == 0, r.describe());
    QVERIFY2(r.out.contains(QStringLiteral("%1: ACL user %2 deleted\n").arg(server.hostPort(), left)), r.describe());
    QVERIFY2(r.out.contains(ownersLeft), r.describe());
    QCOMPARE(r.out.count(QLatin1String(" deleted\n")), 1);
    QVERIFY2(r.out.contains(QStringLiteral("%1: latency-tracking put back to yes\n").arg(server.hostPort())), r.describe());
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    QVERIFY(!QFileInfo::exists(marker));
    QCOMPARE(replayUsersOf(server), (QStringList{QStringLiteral("versus-replay-0123456789ab"), QStringLiteral("versus-replay-prod")}));

    r = cli.run(look, 30000);
    QVERIFY2(r.finished && r.exitCode == 0, r.describe());
    QCOMPARE(r.out, QStringLiteral("%1: nothing left by Versus\n").arg(server.hostPort()) + ownersLeft);
}

// One server named 127.0.0.1:P by a run going on and localhost:P by a second run and a
// put-back from the same machine: both find the first run's marker (the server's, by its run
// id) and refuse, so the second run changes nothing and the first run's user and settings stay;
// once the first run ends, everything is the owner's again (before: the marker was the
// address as typed, the second run read latency-tracking no as the owner's and the put-back
// deleted the running run's user).
void EndpointInterferenceTest::secondSpellingFindsTheRunningRun()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ForeignServer server(spec);
    QVERIFY2(server.start(), qPrintable(server.error()));
    VersusCli first;
    VersusCli second;
    const QString state = first.path(QStringLiteral("state"));
    for (VersusCli *cli : {&first, &second})
        cli->environment().insert(QStringLiteral("XDG_STATE_HOME"), state);
    QStringList running = hashTtlRun(server.hostPort());
    running.replace(running.indexOf(QStringLiteral("keys=%1").arg(kKeys)), QStringLiteral("keys=2000000"));
    first.start(running);
    QVERIFY2(first.waitForErr(QRegularExpression(QStringLiteral("replaying")), 120000), qPrintable(first.errSoFar()));
    const QStringList users = replayUsersOf(server);
    QCOMPARE(users.size(), 1);
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"));

    const QString other = QStringLiteral("localhost:%1").arg(server.port());
    const QString runningAs = QStringLiteral("(pid %1) is running on ").arg(first.pid());
    VersusCli::Result r = second.run(hashTtlRun(other), 120000);
    QVERIFY2(r.finished && !r.crashed && r.exitCode != 0, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("another Versus %1this server (as %2)").arg(runningAs, server.hostPort())), r.describe());
    r = second.run({QStringLiteral("servers"), QStringLiteral("--endpoint"), other, QStringLiteral("--put-back")}, 30000);
    QVERIFY2(r.finished && r.exitCode == 1, r.describe());
    QVERIFY2(r.err.contains(QStringLiteral("%1: Versus %2it now (as %3); nothing is put back while it runs")
                                .arg(other, runningAs, server.hostPort())),
             r.describe());
    QCOMPARE(replayUsersOf(server), users);
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("no"));
    QVERIFY(first.running());

    first.signal(SIGINT);
    const VersusCli::Result ended = first.finish(120000);
    QVERIFY2(ended.finished && !ended.crashed, ended.describe());
    QCOMPARE(server.settings().at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
    QCOMPARE(replayUsersOf(server), QStringList());
    QCOMPARE(QDir(state + QStringLiteral("/versus/endpoints")).entryList(QDir::Files), QStringList());
}

QTEST_GUILESS_MAIN(EndpointInterferenceTest)

#include "tst_endpointinterference.moc"
