// Nothing outside the run is touched (issue 16, items 1, 2 and 12): the replay connection logs
// in as a user whose ACL allows data commands only, so MIGRATE, also from inside a script, is
// refused by the server itself; on an endpoint Versus creates a temporary user of that kind and
// deletes it afterwards, or, when the endpoint does not let it, refuses scripts and commands
// outside the data categories before sending. Every refusal is counted and printed. A capture's
// own PING, INFO, DBSIZE, SCAN and OBJECT are timed like any other command, and a command the
// server counted but Versus did not send is reported.

#include "bundlejson.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QtTest>
#include <csignal>

namespace {

using TestFiles::writeFile;

QString textOf(const Outcome<Reply> &reply)
{
    return reply ? QString::fromStdString(reply->text) : reply.error();
}

// A server MIGRATE could reach: no password, so only the ACL of the sending side stands in the way.
struct MigrateTarget {
    explicit MigrateTarget(const ServerSpec &spec) : process(spec) {}
    ServerProcess process;
    RedisConnection connection;
};

bool startTarget(MigrateTarget &target)
{
    target.process.setExtraArguments({QStringLiteral("--requirepass"), QString()});
    return target.process.start() && target.connection.connectTcp(target.process.host(), target.process.port(), 5000,
                                                                   QStringLiteral("target"));
}

// The commands of the captures below that must never reach the target.
QByteArray migratingCommands(int port)
{
    return QStringLiteral("SET victim overwritten\n"
                          "MIGRATE 127.0.0.1 %1 victim 0 5000 COPY REPLACE\n"
                          "EVAL \"return redis.call('MIGRATE','127.0.0.1','%1','victim',0,5000,'COPY','REPLACE')\" 0\n")
        .arg(port)
        .toUtf8();
}

std::map<QString, long long> refusedOf(const ServerRun &run)
{
    return run.repeats.empty() ? std::map<QString, long long>() : run.repeats.front().refused;
}

QStringList aclUsers(RedisConnection &connection)
{
    QStringList users;
    const Outcome<Reply> reply = connection.command({"ACL", "USERS"});
    if (reply) {
        for (const Reply &user : reply->elements)
            users << QString::fromStdString(user.text);
    }
    return users;
}

} // namespace

class FaultsAclTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // SET victim, then MIGRATE and an EVAL calling MIGRATE towards a second server: on every
    // version the replay user's ACL refuses both, the second server's key stays as it was, and
    // the refusals are counted in the bundle and printed.
    void migrateIsRefusedOnLaunchedServers()
    {
        VERSUS_REQUIRE_SERVER(targetSpec, "valkey-9.1.");
        const QStringList versions{QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-9.1."), QStringLiteral("redis-7.0."),
                                   QStringLiteral("redis-8.0.")};
        QStringList labels;
        for (const QString &prefix : versions) {
            const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
            if (!spec)
                VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
            labels << spec->label;
        }
        MigrateTarget target(targetSpec);
        QVERIFY(startTarget(target));
        QVERIFY(target.connection.command({"SET", "victim", "untouched"}));

        // The target does accept a MIGRATE from a user allowed to send it: what stops the
        // workload's below is the ACL, nothing else.
        ServerProcess control(targetSpec);
        QVERIFY(control.start());
        RedisConnection controlConnection;
        QVERIFY(control.connect(controlConnection, 5000));
        QVERIFY(controlConnection.command({"SET", "control", "moved"}));
        QCOMPARE(textOf(controlConnection.command({"MIGRATE", "127.0.0.1", std::to_string(target.process.port()), "control",
                                                   "0", "5000", "COPY", "REPLACE"})),
                 QStringLiteral("OK"));
        QCOMPARE(textOf(target.connection.command({"GET", "control"})), QStringLiteral("moved"));
        control.stop();

        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("migrate.txt"));
        QVERIFY(writeFile(capture, migratingCommands(target.process.port())));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), labels.join(QLatin1Char(',')),
                                             QStringLiteral("--workload"), capture, QStringLiteral("--out"), bundlePath},
                                            240000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QCOMPARE(textOf(target.connection.command({"GET", "victim"})), QStringLiteral("untouched"));

        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        for (const QString &label : labels) {
            const ServerRun *run = bundle->server(label);
            QVERIFY2(run, qPrintable(label));
            QCOMPARE(run->status, RunStatus::Ok);
            QCOMPARE(run->replayAccess, QStringLiteral("replay user versus-replay"));
            // Redis 7.0's refusal inside a script does not name the command it refused.
            const QString script = label.startsWith(QLatin1String("redis-7.0.")) ? QStringLiteral("EVAL") : QStringLiteral("EVAL: MIGRATE");
            const std::map<QString, long long> expected{{script, 1}, {QStringLiteral("MIGRATE"), 1}};
            QCOMPARE(refusedOf(*run), expected);
            QVERIFY2(r.err.contains(QStringLiteral("%1: timed pass: refused, not run: %2 1, MIGRATE 1\n").arg(label, script)),
                     r.describe());
        }
        QVERIFY(cli.leftoverServers().empty());
        target.process.stop();
    }

    // An endpoint that allows ACL SETUSER: the replay connections log in as a temporary user
    // with the same rules, the server refuses MIGRATE, and the user is gone after the run.
    void endpointGetsATemporaryUser()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        MigrateTarget target(spec);
        QVERIFY(startTarget(target));
        QVERIFY(target.connection.command({"SET", "victim", "untouched"}));
        ServerProcess endpoint(spec);
        QVERIFY(endpoint.start());
        RedisConnection owner;
        QVERIFY(endpoint.connect(owner, 5000));
        const QStringList usersBefore = aclUsers(owner);

        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("migrate.txt"));
        QVERIFY(writeFile(capture, migratingCommands(target.process.port())));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"),
                                             QStringLiteral("127.0.0.1:%1").arg(endpoint.port()), QStringLiteral("--password"),
                                             endpoint.controlCredentials().password, QStringLiteral("--allow-flush"),
                                             QStringLiteral("--workload"), capture, QStringLiteral("--out"), bundlePath},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QCOMPARE(textOf(target.connection.command({"GET", "victim"})), QStringLiteral("untouched"));
        static const QRegularExpression created(QStringLiteral("replay connections: temporary ACL user (versus-replay-[0-9a-f]{12})\n"));
        const QRegularExpressionMatch match = created.match(r.err);
        QVERIFY2(match.hasMatch(), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("temporary ACL user %1 deleted").arg(match.captured(1))), r.describe());
        QCOMPARE(aclUsers(owner), usersBefore);

        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY(bundle);
        const std::map<QString, long long> expected{{QStringLiteral("EVAL: MIGRATE"), 1}, {QStringLiteral("MIGRATE"), 1}};
        QCOMPARE(refusedOf(bundle->servers.front()), expected);
        QCOMPARE(bundle->servers.front().replayAccess, QStringLiteral("temporary ACL user %1").arg(match.captured(1)));
        endpoint.stop();
        target.process.stop();
    }

    // Ctrl-C in the middle of the replay: the temporary user is deleted all the same.
    void temporaryUserIsDeletedAfterCtrlC()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess endpoint(spec);
        QVERIFY(endpoint.start());
        RedisConnection owner;
        QVERIFY(endpoint.connect(owner, 5000));
        const QStringList usersBefore = aclUsers(owner);

        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("many.txt"));
        QByteArray lines;
        for (int i = 0; i < 400000; ++i)
            lines += "INCR counter:" + QByteArray::number(i % 5000) + '\n';
        QVERIFY(writeFile(capture, lines));
        cli.start({QStringLiteral("run"), QStringLiteral("--servers"), QStringLiteral("127.0.0.1:%1").arg(endpoint.port()),
                   QStringLiteral("--password"), endpoint.controlCredentials().password, QStringLiteral("--allow-flush"),
                   QStringLiteral("--repeat"), QStringLiteral("50"), QStringLiteral("--workload"), capture});
        QVERIFY(cli.waitForErr(QRegularExpression(QStringLiteral("replay connections: temporary ACL user")), 120000));
        QVERIFY(QTest::qWaitFor([&] { return aclUsers(owner).size() == usersBefore.size() + 1; }, 5000));
        cli.signal(SIGINT);
        const VersusCli::Result r = cli.finish(60000);
        QVERIFY2(r.finished && !r.crashed, r.describe());
        QVERIFY2(r.err.contains(QLatin1String("deleted")), r.describe());
        QCOMPARE(aclUsers(owner), usersBefore);
        endpoint.stop();
    }

    // An endpoint whose login may not manage users: Versus itself refuses the scripts and the
    // commands outside the data categories (COMMAND INFO), before anything is sent; the
    // endpoint never sees them.
    void endpointWithoutAclRefusesBeforeSending()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        MigrateTarget target(spec);
        QVERIFY(startTarget(target));
        QVERIFY(target.connection.command({"SET", "victim", "untouched"}));
        ServerProcess endpoint(spec);
        QVERIFY(endpoint.start());
        RedisConnection owner;
        QVERIFY(endpoint.connect(owner, 5000));
        QCOMPARE(textOf(owner.command({"ACL", "SETUSER", "default", "-acl"})), QStringLiteral("OK"));

        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("migrate.txt"));
        QVERIFY(writeFile(capture, migratingCommands(target.process.port()) + "KEYS *\nINFO keyspace\n"));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"),
                                             QStringLiteral("127.0.0.1:%1").arg(endpoint.port()), QStringLiteral("--password"),
                                             endpoint.controlCredentials().password, QStringLiteral("--allow-flush"),
                                             QStringLiteral("--workload"), capture, QStringLiteral("--out"), bundlePath},
                                            120000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QCOMPARE(textOf(target.connection.command({"GET", "victim"})), QStringLiteral("untouched"));
        QVERIFY2(r.err.contains(QLatin1String("refused before sending, not data commands or scripts: EVAL, KEYS, MIGRATE\n")),
                 r.describe());
        QVERIFY2(r.err.contains(QLatin1String("replay connections: checked by Versus before sending (ACL SETUSER: NOPERM")),
                 r.describe());
        const QString stats = textOf(owner.command({"INFO", "commandstats"}));
        for (const char *never : {"cmdstat_migrate:", "cmdstat_eval:", "cmdstat_keys:"})
            QVERIFY2(!stats.contains(QLatin1String(never)), qPrintable(stats));
        QVERIFY2(stats.contains(QLatin1String("cmdstat_set:")), qPrintable(stats));

        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY(bundle);
        const std::map<QString, long long> expected{
            {QStringLiteral("EVAL"), 1}, {QStringLiteral("KEYS"), 1}, {QStringLiteral("MIGRATE"), 1}};
        QCOMPARE(refusedOf(bundle->servers.front()), expected);
        endpoint.stop();
        target.process.stop();
    }

    // A capture's own PING, INFO, DBSIZE, SCAN and OBJECT are timed, with exactly the calls the
    // capture made: Versus's own probes are told apart by their connection. The SET the script
    // runs is counted by the server but was not sent by Versus: it is reported, not hidden.
    void probeNamedCommandsAreTimed()
    {
        VERSUS_REQUIRE_SERVERS();
        QStringList labels;
        for (const ServerSpec &spec : ServerTestHelpers::fetchedServers()) {
            if (spec.label.startsWith(QLatin1String("valkey-9.1.")) || spec.label.startsWith(QLatin1String("redis-7.0.")))
                labels << spec.label;
        }
        QCOMPARE(labels.size(), 2);
        VersusCli cli;
        const QString capture = cli.path(QStringLiteral("probes.txt"));
        QByteArray lines = "EVAL \"return redis.call('SET', KEYS[1], 'v')\" 1 k\n";
        for (int i = 0; i < 3; ++i)
            lines += "PING\nINFO memory\nDBSIZE\nSCAN 0\nOBJECT ENCODING k\n";
        lines += "INFO keyspace\nDBSIZE\n";
        QVERIFY(writeFile(capture, lines));
        const QString bundlePath = cli.path(QStringLiteral("bundle.json"));
        const VersusCli::Result r = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), labels.join(QLatin1Char(',')),
                                             QStringLiteral("--workload"), capture, QStringLiteral("--out"), bundlePath},
                                            180000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY(bundle);
        for (const QString &label : labels) {
            const ServerRun *run = bundle->server(label);
            QVERIFY(run && !run->repeats.empty());
            const RepeatResult &repeat = run->repeats.front();
            std::map<QString, long long> calls;
            for (const auto &[row, stat] : repeat.timing.byCommand)
                calls[row] = stat.calls;
            const std::map<QString, long long> expected{{QStringLiteral("dbsize"), 4}, {QStringLiteral("eval"), 1},
                                                        {QStringLiteral("info"), 4},   {QStringLiteral("object|encoding"), 3},
                                                        {QStringLiteral("ping"), 3},   {QStringLiteral("scan"), 3}};
            QCOMPARE(calls, expected);
            const std::map<QString, long long> notSent{{QStringLiteral("SET"), 1}};
            QCOMPARE(repeat.countedNotSent, notSent);
            QVERIFY(repeat.refused.empty());
            QVERIFY2(r.err.contains(QStringLiteral("%1: timed pass: live figures wait for the end of the pass: the workload sends "
                                                   "INFO, DBSIZE, which the live probe sends too\n").arg(label)),
                     r.describe());
            QVERIFY2(r.err.contains(QStringLiteral("%1: timed pass: the server counted commands Versus did not send: SET 1\n").arg(label)),
                     r.describe());
        }
    }
};

QTEST_GUILESS_MAIN(FaultsAclTest)
#include "tst_faults_acl.moc"
