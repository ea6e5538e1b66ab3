// A free port chosen for a launched server can be given to someone else before the server binds
// it (bind-then-close). ServerProcess must then never take the other server for its own: only
// a server that accepts the passwords written for this start is ready.

#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/prctl.h>

namespace {

// A server of the same version that is not Versus's, listening on `port` with a password of its
// own, as a server of another test or program given the same free port would be. Dies with the
// test; ended by its pid.
class RivalServer {
public:
    RivalServer(const ServerSpec &spec, int port)
    {
        m_process.setProgram(spec.program);
        m_process.setArguments(spec.prefixArguments
                               + QStringList{QStringLiteral("--port"), QString::number(port), QStringLiteral("--bind"),
                                             QStringLiteral("127.0.0.1"), QStringLiteral("--save"), QString(),
                                             QStringLiteral("--requirepass"), QStringLiteral("not-versus"),
                                             QStringLiteral("--dir"), m_dir.path()});
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.start();
        // It listens once PING gets its NOAUTH.
        m_ready = m_process.waitForStarted(10000) && QTest::qWaitFor([port] {
            RedisConnection connection;
            if (!connection.connectTcp(QStringLiteral("127.0.0.1"), port, 500, QStringLiteral("rival")))
                return false;
            const Outcome<Reply> reply = connection.command({"PING"});
            return reply && reply->isError();
        }, 10000);
    }
    ~RivalServer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            ::kill(pid_t(m_process.processId()), SIGKILL);
            m_process.waitForFinished(10000);
        }
    }
    RivalServer(const RivalServer &) = delete;
    RivalServer &operator=(const RivalServer &) = delete;
    bool ready() const { return m_ready; }
    qint64 pid() const { return m_process.processId(); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    bool m_ready = false;
};

} // namespace

class TestServerPortClash : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void anotherServerOnTheChosenPort_data();
    void anotherServerOnTheChosenPort();
};

void TestServerPortClash::anotherServerOnTheChosenPort_data()
{
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QStringList>("extraArguments");
    for (const QString &prefix : ServerTestHelpers::requiredServerPrefixes())
        QTest::newRow(qPrintable(prefix)) << prefix << QStringList();
    // The default user's password replaced: the replay user's, of the same file, says it is ours.
    QTest::newRow("valkey-9.1, --requirepass") << QStringLiteral("valkey-9.1.")
                                               << QStringList{QStringLiteral("--requirepass"), QStringLiteral("s3cret")};
}

// The rival binds the port first. Its refusal of our password is not our server being ready:
// ours exits with "Address already in use" and starts again on another port, where it is the
// server that answers.
void TestServerPortClash::anotherServerOnTheChosenPort()
{
    QFETCH(QString, prefix);
    QFETCH(QStringList, extraArguments);
    const std::optional<ServerSpec> found = ServerTestHelpers::findFetchedServer(prefix);
    if (!found)
        VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({prefix}));
    const ServerSpec spec = *found;
    ServerProcess server(spec);
    server.setExtraArguments(extraArguments);
    std::unique_ptr<RivalServer> rival;
    QList<int> chosenPorts;
    server.setPortChosenHookForTesting([&](int port, int attempt) {
        chosenPorts << port;
        if (attempt == 0)
            rival = std::make_unique<RivalServer>(spec, port);
    });
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started ? QString() : started.error()));
    QVERIFY(rival && rival->ready());
    QCOMPARE(chosenPorts.size(), 2);
    QCOMPARE(server.port(), chosenPorts.at(1));
    QVERIFY(server.pid() > 0 && server.pid() != rival->pid());

    RedisConnection connection;
    QVERIFY(connection.connectTcp(server.host(), server.port(), 2000, server.connectionName()));
    QVERIFY(connection.auth(server.replayCredentials()));
    const Outcome<Reply> info = connection.command({"INFO", "server"});
    QVERIFY2(info && QString::fromStdString(info->text).contains(QStringLiteral("process_id:%1").arg(server.pid())),
             qPrintable(info ? QString::fromStdString(info->text) : info.error()));
    const qint64 pid = server.pid();
    server.stop();
    QVERIFY(!ServerTestHelpers::processAlive(pid));
    QVERIFY(ServerTestHelpers::processAlive(rival->pid()));   // someone else's: left alone
}

QTEST_GUILESS_MAIN(TestServerPortClash)
#include "tst_serverportclash.moc"
