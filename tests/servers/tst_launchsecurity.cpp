// A launched server is closed to other local users (issue 16, item 2): a random password in a
// 0600 config file of its own temp folder, never on the command line; the replay user may run
// data commands only; and what the server counted beyond Versus's own commands is reported.

#include "commandtally.h"
#include "redisconnection.h"
#include "replayrules.h"
#include "serverprocess.h"
#include "serversession.h"
#include "servertesthelpers.h"

#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace {

QString textOf(const Outcome<Reply> &reply)
{
    return reply ? QString::fromStdString(reply->text) : reply.error();
}

QByteArray commandLineOf(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestLaunchSecurity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void passwordIsInAPrivateConfigFileOnly_data()
    {
        QTest::addColumn<QString>("prefix");
        QStringList prefixes = ServerTestHelpers::requiredServerPrefixes();
        if (!prefixes.contains(QStringLiteral("redis-8.0.")))
            prefixes << QStringLiteral("redis-8.0.");
        for (const QString &prefix : prefixes)
            QTest::newRow(qPrintable(prefix)) << prefix;
    }

    void passwordIsInAPrivateConfigFileOnly()
    {
        QFETCH(QString, prefix);
        const std::optional<ServerSpec> spec = ServerTestHelpers::findFetchedServer(prefix);
        if (!spec)
            VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
        ServerProcess server(*spec);
        QVERIFY(server.start());
        const QString control = server.controlCredentials().password;
        const QString replay = server.replayCredentials().password;
        QCOMPARE(control.size(), 64);
        QCOMPARE(replay.size(), 64);
        QVERIFY(control != replay);

        const QByteArray commandLine = commandLineOf(server.pid());
        QVERIFY2(commandLine.contains(server.configPath().toLocal8Bit()), commandLine.constData());
        QVERIFY(!commandLine.contains(control.toLatin1()));
        QVERIFY(!commandLine.contains(replay.toLatin1()));

        const QFileInfo config(server.configPath());
        QCOMPARE(config.absolutePath(), server.tempDirPath());
        QCOMPARE(config.permissions() & ~(QFile::ReadUser | QFile::WriteUser),
                 QFile::Permissions(QFile::ReadOwner | QFile::WriteOwner));
        QFile file(server.configPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("requirepass " + control.toLatin1() + '\n'));
        QVERIFY(text.contains("user versus-replay on >" + replay.toLatin1() + ' '));

        // Without the password nobody gets in.
        RedisConnection stranger;
        QVERIFY(stranger.connectTcp(server.host(), server.port(), 3000, QStringLiteral("stranger")));
        QVERIFY(textOf(stranger.command({"SET", "k", "v"})).startsWith(QLatin1String("NOAUTH")));

        // The replay user: data commands and INFO, nothing that reaches beyond the server's data.
        RedisConnection replayer;
        QVERIFY(replayer.connectTcp(server.host(), server.port(), 3000, QStringLiteral("replay")));
        QVERIFY(replayer.auth(server.replayCredentials()));
        QCOMPARE(textOf(replayer.command({"SET", "k", "v"})), QStringLiteral("OK"));
        QCOMPARE(textOf(replayer.command({"PING"})), QStringLiteral("PONG"));
        QVERIFY(textOf(replayer.command({"INFO", "server"})).contains(QLatin1String("tcp_port:")));
        for (const std::vector<std::string> &refused :
             {std::vector<std::string>{"MIGRATE", "127.0.0.1", "1", "k", "0", "100"}, {"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"},
              {"KEYS", "*"}, {"FLUSHALL"}, {"SAVE"}, {"BLPOP", "list", "1"}, {"SUBSCRIBE", "news"}, {"SELECT", "1"},
              {"CLIENT", "LIST"}, {"ACL", "LIST"}, {"SCRIPT", "FLUSH"}, {"FUNCTION", "FLUSH"}, {"SWAPDB", "0", "1"}})
            QVERIFY2(textOf(replayer.command(refused)).startsWith(QLatin1String("NOPERM")),
                     qPrintable(QString::fromStdString(refused.front()) + QLatin1String(": ") + textOf(replayer.command(refused))));
        server.stop();
    }

    // After CONFIG RESETSTAT: another client's commands are what the server counted beyond the
    // workload's and Versus's own; the session's own INFO, SCAN and DBSIZE are taken out.
    void foreignCommandsAreReported()
    {
        VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
        ServerProcess server(spec);
        QVERIFY(server.start());
        ServerSession session;
        QVERIFY(session.connect(server.host(), server.port(), server.controlCredentials(), 3000, QStringLiteral("session")));
        RedisConnection workload;
        QVERIFY(server.connect(workload, ServerTestHelpers::kHealthyReplyMs));
        RedisConnection other;
        QVERIFY(server.connect(other, ServerTestHelpers::kHealthyReplyMs));
        QVERIFY(session.resetStats());

        QVERIFY(workload.command({"SET", "a", "1"}));
        QVERIFY(workload.command({"DBSIZE"}));
        QVERIFY(session.dbSize());
        QVERIFY(session.usedMemory());
        QVERIFY(other.command({"SET", "b", "2"}));
        QVERIFY(other.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}));
        QVERIFY(other.command({"DBSIZE"}));

        const CommandTally own = session.ownCommands();
        const Outcome<std::map<QString, CommandStat>> stats = session.commandStats();
        QVERIFY(stats);
        CommandTally sent;
        sent.addName("SET");
        sent.addName("DBSIZE");
        const ReconciledStats reconciled = reconcileCommandStats(stats.value(), sent, own);
        const std::map<QString, long long> foreign{
            {QStringLiteral("CONFIG SET"), 1}, {QStringLiteral("DBSIZE"), 1}, {QStringLiteral("SET"), 1}};
        QCOMPARE(reconciled.countedNotSent, foreign);
        QCOMPARE(reconciled.workload.at(QStringLiteral("set")).calls, 2LL);
        QCOMPARE(reconciled.workload.at(QStringLiteral("dbsize")).calls, 2LL);
        QCOMPARE(reconciled.workload.size(), size_t(2));
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestLaunchSecurity)
#include "tst_launchsecurity.moc"
