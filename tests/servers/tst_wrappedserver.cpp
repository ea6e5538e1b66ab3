// Servers started through a wrapper script that runs the real server as its child (not by
// exec): the server is a grandchild of Versus. Its real pid is found and pinned, and it ends
// with its process group after a normal stop, a --version that never finishes, a start that
// never answers PING, and a SIGKILL of Versus. A server that leaves the group is named as
// one whose CPU cannot be pinned.

#include "processgroup.h"
#include "redisconnection.h"
#include "servercatalog.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testregistry.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace ServerTestHelpers;

namespace {

const char kWrapperHelperVariable[] = "VERSUS_TEST_WRAPPER_HELPER";

QString quotedCommand(const ServerSpec &server)
{
    QString command;
    for (const QString &part : QStringList{server.program} + server.prefixArguments)
        command += QStringLiteral(" '%1'").arg(part);
    return command;
}

// A wrapper around the real server: writes the server's pid to <dir>/server.pid and waits
// for it. `arguments` replaces "$@" when given (a wrapper that ignores what it is told).
ServerSpec wrapperSpec(const QTemporaryDir &dir, const ServerSpec &server, const QString &arguments = QStringLiteral("\"$@\""),
                       const QString &prefix = QString())
{
    const QString path = dir.filePath(QStringLiteral("wrapper.sh"));
    QFile script(path);
    if (script.open(QIODevice::WriteOnly)) {
        // The pid file appears whole (written aside, then renamed), when the shell gets to it.
        const QString pidFile = dir.filePath(QStringLiteral("server.pid"));
        script.write(QStringLiteral("#!/bin/sh\n%1%2 %3 &\necho $! > '%4.new' && mv '%4.new' '%4'\nwait\n")
                         .arg(prefix, quotedCommand(server), arguments, pidFile)
                         .toUtf8());
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    ServerSpec spec;
    spec.label = QStringLiteral("wrapped");
    spec.program = path;
    spec.binaryPath = path;
    return spec;
}

// Server arguments that ignore the port Versus chose: it listens on a socket file only.
QString unixSocketOnly(const QTemporaryDir &dir)
{
    return QStringLiteral("--port 0 --save '' --unixsocket '%1'").arg(dir.filePath(QStringLiteral("server.sock")));
}

// The pid the wrapper wrote, once it wrote it.
// The server answers once started, which can be before the wrapper's shell has run its next
// line on a busy machine: the pid file is waited for (10 s at most; 0 when it never came).
qint64 wrappedServerPid(const QTemporaryDir &dir)
{
    QFile file(dir.filePath(QStringLiteral("server.pid")));
    QDeadlineTimer deadline(10000);
    while (!file.exists() && !deadline.hasExpired())
        QThread::msleep(10);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readAll().trimmed().toLongLong();
}

// Child mode: a Versus that starts the wrapped server, prints its pid and waits to be killed.
int runHelper()
{
    const std::optional<ServerSpec> server = findFetchedServer(QStringLiteral("valkey-8.0.1"));
    QTemporaryDir dir(qEnvironmentVariable(kWrapperHelperVariable) + QStringLiteral("/helper-XXXXXX"));
    if (!server || !dir.isValid())
        return 2;
    dir.setAutoRemove(false);
    ServerProcess process(wrapperSpec(dir, *server));
    if (Status started = process.start(); !started) {
        std::printf("error %s\n", qPrintable(started.error()));
        return 3;
    }
    std::printf("%lld %lld\n", process.pid(), process.launchedPid());
    std::fflush(stdout);
    for (;;)
        ::pause();
}

} // namespace

class TestWrappedServer : public QObject {
    Q_OBJECT

private:
    std::vector<qint64> m_started;   // servers a failed assertion could leave: ended by pid

private slots:
    void cleanup()
    {
        for (qint64 pid : m_started) {
            if (processAlive(pid))
                ::kill(pid_t(pid), SIGKILL);
        }
        m_started.clear();
    }

    void wrappedServerIsFoundPinnedAndEnded()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-8.0.1");
        QTemporaryDir dir;
        ServerProcess process(wrapperSpec(dir, server));
        const Status started = process.start();
        QVERIFY2(started, qPrintable(started.error()));
        const qint64 serverPid = wrappedServerPid(dir);
        m_started.push_back(serverPid);
        QVERIFY(serverPid > 0);
        QVERIFY(serverPid != process.launchedPid());
        QCOMPARE(process.pid(), serverPid);
        QCOMPARE(process.pidNote(), QStringLiteral("started through a wrapper (pid %1): the server is pid %2, whose CPU is pinned")
                                        .arg(process.launchedPid())
                                        .arg(serverPid));
        RedisConnection connection;
        QVERIFY(process.connect(connection, ServerTestHelpers::kHealthyReplyMs));
        const Outcome<Reply> info = connection.command({"INFO", "server"});
        QVERIFY(info);
        QVERIFY(QString::fromStdString(info->text).contains(QStringLiteral("process_id:%1\r\n").arg(serverPid)));
        connection.close();

        const qint64 wrapper = process.launchedPid();
        process.stop();
        QVERIFY(!processAlive(serverPid));
        QVERIFY(!processAlive(wrapper));
        QVERIFY(processGroupMembers(wrapper).empty());
    }

    void versionTimeoutEndsTheWrappedServer()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-8.0.1");
        QTemporaryDir dir;
        // Ignores --version: starts the server (on a socket file only) and waits for it.
        const ServerSpec spec = wrapperSpec(dir, server, unixSocketOnly(dir));
        const Outcome<ServerIdentity> identity = identifyServer(spec, 1500);
        const qint64 serverPid = wrappedServerPid(dir);
        m_started.push_back(serverPid);
        QVERIFY(!identity);
        QCOMPARE(identity.error(), QStringLiteral("%1: --version did not finish within 1500 ms, so it is not a Valkey or Redis server")
                                       .arg(spec.program));
        QVERIFY(serverPid > 0);
        QVERIFY2(!processAlive(serverPid), "the wrapped server outlived a --version that timed out");
    }

    void startWithoutPingEndsTheWrappedServer()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-8.0.1");
        QTemporaryDir dir;
        // Ignores the port it is given: nobody answers PING there.
        ServerProcess process(wrapperSpec(dir, server, unixSocketOnly(dir)));
        const Status started = process.start(1500);
        const qint64 serverPid = wrappedServerPid(dir);
        m_started.push_back(serverPid);
        QVERIFY(!started);
        QVERIFY2(started.error().startsWith(QStringLiteral("wrapped: the server did not answer PING within 1500 ms on port %1")
                                                .arg(process.port())),
                 qPrintable(started.error()));
        QVERIFY(serverPid > 0);
        QVERIFY2(!processAlive(serverPid), "the wrapped server outlived a start that never answered PING");
    }

    void killedVersusTakesTheWrappedServer()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-8.0.1");
        QTemporaryDir work;
        QProcess helper;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QString::fromLatin1(kWrapperHelperVariable), work.path());
        helper.setProcessEnvironment(environment);
        helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        helper.start(QCoreApplication::applicationFilePath(), TestRegistry::rerunArguments());
        QVERIFY(helper.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(helper.canReadLine() || helper.state() == QProcess::NotRunning, 20000);
        const QStringList pids = QString::fromLocal8Bit(helper.readLine()).trimmed().split(QLatin1Char(' '));
        QCOMPARE(pids.size(), 2);
        const qint64 serverPid = pids[0].toLongLong();
        const qint64 wrapper = pids[1].toLongLong();
        m_started.push_back(serverPid);
        QVERIFY(processAlive(serverPid));
        QVERIFY(serverPid != wrapper);
        QCOMPARE(readProcessStat(serverPid)->parent, wrapper);

        helper.kill();
        QVERIFY(helper.waitForFinished());
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(serverPid), "the wrapped server outlived the Versus that was SIGKILLed", 5000);
        QTRY_VERIFY_WITH_TIMEOUT(processGroupMembers(wrapper).empty(), 5000);
    }

    // A server that moves to a session of its own is not pinned, and says so; stop() still
    // ends it (SHUTDOWN NOSAVE).
    void serverOutsideTheGroupIsNotPinned()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-8.0.1");
        QTemporaryDir dir;
        ServerProcess process(wrapperSpec(dir, server, QStringLiteral("\"$@\""), QStringLiteral("setsid")));
        const Status started = process.start();
        QVERIFY2(started, qPrintable(started.error()));
        const qint64 serverPid = wrappedServerPid(dir);
        m_started.push_back(serverPid);
        QCOMPARE(process.pid(), qint64(0));
        QCOMPARE(process.pidNote(), QStringLiteral("cannot pin the server's CPU: INFO server says process_id %1, which is not in the "
                                                   "process group Versus started (pid %2); it runs unpinned")
                                        .arg(serverPid)
                                        .arg(process.launchedPid()));
        process.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(serverPid), 5000);
    }
};

static int wrappedServerMain(int argc, char **argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet(kWrapperHelperVariable))
        return runHelper();
    TestWrappedServer test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

VERSUS_TEST_FUNCTION(wrappedServerMain)

#include "tst_wrappedserver.moc"
