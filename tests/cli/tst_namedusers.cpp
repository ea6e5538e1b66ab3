// Logins other than the default user's (issue 44, items 8 and 9). An endpoint whose default
// user is off is measured as a named ACL user (--user, as valkey-cli's), and left as it was;
// an endpoint whose user may not run INFO is refused naming the refusal, not as "not a Valkey
// or Redis server". A cluster whose primaries all ask for the password is refused, naming the
// first primary the user did not name and sending it nothing, unless --allow-cluster-auth
// allows the password to go there; then it runs and is put back.

#include "bundlejson.h"
#include "foreigncluster.h"
#include "foreignserver.h"
#include "servertesthelpers.h"
#include "versuscli.h"

#include <QtTest>

namespace {

const Credentials kAlice{QStringLiteral("alice"), QStringLiteral("alice-pw")};

// A server whose default user is off: only alice (every command) and bob (every command but
// INFO) may log in.
QStringList namedUsersOnly()
{
    return {QStringLiteral("--user"), QStringLiteral("default"), QStringLiteral("off"),
            QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("on"), QStringLiteral(">alice-pw"),
            QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@all"),
            QStringLiteral("--user"), QStringLiteral("bob"), QStringLiteral("on"), QStringLiteral(">bob-pw"),
            QStringLiteral("~*"), QStringLiteral("&*"), QStringLiteral("+@all"), QStringLiteral("-info")};
}

QStringList namedUserRun(const QString &servers)
{
    return {QStringLiteral("run"), QStringLiteral("--servers"), servers, QStringLiteral("--allow-flush"),
            QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=2000")};
}

// One command as `login`; the reply's text (an integer as its digits), or "<error>".
QString commandAs(const ForeignServer &server, const Credentials &login, const std::vector<std::string> &args)
{
    RedisConnection connection;
    if (!server.connect(connection))
        return QStringLiteral("<cannot connect>");
    if (Status authed = connection.auth(login); !authed)
        return QStringLiteral("<%1>").arg(authed.error());
    const Outcome<Reply> reply = connection.command(args);
    if (!reply)
        return QStringLiteral("<%1>").arg(reply.error());
    if (reply->kind == Reply::Kind::Integer)
        return QString::number(reply->integer);
    if (reply->kind == Reply::Kind::Array) {
        QStringList items;
        for (const Reply &item : reply->elements)
            items << QString::fromStdString(item.text);
        return items.join(QLatin1Char(' '));
    }
    return QString::fromStdString(reply->text);
}

} // namespace

class NamedUsersTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { VERSUS_REQUIRE_BINARY(); }

    // The default user off, alice named: the run measures every key, then the server holds no
    // key, no user of Versus's and latency tracking on, as before; no output names the password.
    void namedUserIsMeasured()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec, namedUsersOnly());
        QVERIFY2(server.start(), qPrintable(server.error()));
        QCOMPARE(commandAs(server, kAlice, {"SET", "precious", "data"}), QStringLiteral("OK"));
        VersusCli cli;
        cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
        cli.environment().insert(QStringLiteral("VERSUS_PASSWORD"), kAlice.password);
        const QString bundlePath = cli.path(QStringLiteral("b.json"));
        const VersusCli::Result r = cli.run(namedUserRun(server.hostPort()) << QStringLiteral("--user") << kAlice.user
                                                                        << QStringLiteral("--out") << bundlePath, 180000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        QVERIFY2(!r.out.contains(kAlice.password) && !r.err.contains(kAlice.password), r.describe());
        const Outcome<ResultsBundle> bundle = loadBundle(bundlePath);
        QVERIFY2(bundle, qPrintable(bundle ? QString() : bundle.error()));
        QCOMPARE(int(bundle->servers.size()), 1);
        QCOMPARE(bundle->servers[0].status, RunStatus::Ok);
        for (const auto &[type, memory] : bundle->servers[0].repeats.front().byType) {
            if (memory.status == TypeStatus::Ok)
                QCOMPARE(memory.keys, 2000LL);
        }
        QVERIFY(bundle->servers[0].repeats.front().byType.count(QStringLiteral("set-ex")));
        QCOMPARE(commandAs(server, kAlice, {"DBSIZE"}), QStringLiteral("0"));
        QCOMPARE(commandAs(server, kAlice, {"CONFIG", "GET", "latency-tracking"}), QStringLiteral("latency-tracking yes"));
        QCOMPARE(commandAs(server, kAlice, {"ACL", "USERS"}), QStringLiteral("alice bob default"));
    }

    // A login that may not run INFO: refused before anything is sent but the probe, naming
    // the server's refusal and --user. The default user (nothing given) and a named one alike.
    void refusedInfoIsNamed_data()
    {
        QTest::addColumn<QStringList>("serverArguments");
        QTest::addColumn<QStringList>("login");
        QTest::addColumn<QString>("password");
        QTest::newRow("default user") << QStringList{QStringLiteral("--user"), QStringLiteral("default"), QStringLiteral("on"),
                                                     QStringLiteral("nopass"), QStringLiteral("~*"), QStringLiteral("&*"),
                                                     QStringLiteral("+@all"), QStringLiteral("-info")}
                                      << QStringList() << QString();
        QTest::newRow("named user") << namedUsersOnly() << QStringList{QStringLiteral("--user"), QStringLiteral("bob")}
                                    << QStringLiteral("bob-pw");
    }
    void refusedInfoIsNamed()
    {
        QFETCH(QStringList, serverArguments);
        QFETCH(QStringList, login);
        QFETCH(QString, password);
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignServer server(spec, serverArguments);
        QVERIFY2(server.start(), qPrintable(server.error()));
        VersusCli cli;
        if (!password.isEmpty())
            cli.environment().insert(QStringLiteral("VERSUS_PASSWORD"), password);
        const VersusCli::Result r = cli.run(namedUserRun(server.hostPort()) + login, 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("--servers: %1 refuses INFO server (\"NOPERM").arg(server.hostPort())), r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("log in as a user that may run INFO (--user)")), r.describe());
        QVERIFY2(!r.err.contains(QStringLiteral("not a Valkey or Redis server")), r.describe());
    }

    // Every primary asks for the password. Without --allow-cluster-auth the run stops at the
    // first primary the user did not name, which is sent no AUTH at all; with it, the cluster
    // is measured and every primary put back.
    void clusterPasswordGoesOnlyWhereAllowed()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ForeignCluster cluster(spec, 2);
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        const QString password = QStringLiteral("cluster-pw");
        for (int index = 0; index < cluster.size(); ++index)
            QCOMPARE(cluster.node(index).command({"CONFIG", "SET", "requirepass", password.toStdString()}), QStringLiteral("OK"));
        const ForeignServer &named = cluster.node(0);
        const ForeignServer &other = cluster.node(1);
        QCOMPARE(other.command({"CONFIG", "RESETSTAT"}, password), QStringLiteral("OK"));   // after the test's own AUTH
        VersusCli cli;
        cli.environment().insert(QStringLiteral("XDG_STATE_HOME"), cli.path(QStringLiteral("state")));
        cli.environment().insert(QStringLiteral("VERSUS_PASSWORD"), password);

        VersusCli::Result r = cli.run(namedUserRun(named.hostPort()), 60000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1, named by %2 as a primary of its cluster, needs a password, and Versus sends "
                                               "the endpoint's only to the server named unless the user allows it for the "
                                               "other primaries of its cluster (--allow-cluster-auth")
                                    .arg(other.hostPort(), named.hostPort())),
                 r.describe());
        const QString stats = other.command({"INFO", "commandstats"}, password);
        QVERIFY2(stats.contains(QLatin1String("cmdstat_auth:calls=1,")), qPrintable(stats));   // the test's own, just now

        r = cli.run(namedUserRun(named.hostPort()) << QStringLiteral("--allow-cluster-auth"), 180000);
        QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, r.describe());
        for (int index = 0; index < cluster.size(); ++index) {
            const ForeignServer &node = cluster.node(index);
            QCOMPARE(node.settings(password).at(QStringLiteral("latency-tracking")), QStringLiteral("yes"));
            QCOMPARE(node.command({"DBSIZE"}, password), QStringLiteral("0"));
            QCOMPARE(node.aclUsers(password), QStringList{QStringLiteral("default")});
        }
    }
};

QTEST_GUILESS_MAIN(NamedUsersTest)
#include "tst_namedusers.moc"
