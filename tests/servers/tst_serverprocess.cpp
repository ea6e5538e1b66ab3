// ServerProcess and stale temp dir cleanup against the real fetched servers: start-up, bad
// binaries, servers that die during start-up, a port taken between choosing and binding,
// a server killed or stopped behind our back, and a Versus killed with SIGKILL.

#include "orphancleanup.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "testregistry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ServerTestHelpers;

namespace {

const char kPdeathsigHelperVariable[] = "VERSUS_TEST_PDEATHSIG_HELPER";

// Listens on 127.0.0.1:port so a server cannot bind it. Closed by the destructor.
class PortBlocker {
public:
    explicit PortBlocker(int port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(quint16(port));
        m_listening = m_fd >= 0 && ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0
            && ::listen(m_fd, 1) == 0;
    }
    ~PortBlocker()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    PortBlocker(const PortBlocker &) = delete;
    PortBlocker &operator=(const PortBlocker &) = delete;
    bool listening() const { return m_listening; }

private:
    int m_fd = -1;
    bool m_listening = false;
};

// A ServerSpec whose program is a shell script with the given body.
ServerSpec scriptSpec(const QTemporaryDir &dir, const QString &name, const QByteArray &body)
{
    const QString path = dir.filePath(name);
    QFile script(path);
    if (script.open(QIODevice::WriteOnly)) {
        script.write("#!/bin/sh\n" + body + "\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    ServerSpec spec;
    spec.label = name;
    spec.program = path;
    return spec;
}

Outcome<Reply> call(RedisConnection &connection, std::vector<std::string> args)
{
    return connection.command(args);
}

// Run as a child of this test: starts a server, reports its pid and temp dir, then waits to
// be killed. The test SIGKILLs it and checks the server went with it (PR_SET_PDEATHSIG).
int runPdeathsigHelper()
{
    const std::optional<ServerSpec> spec = findFetchedServer(qEnvironmentVariable(kPdeathsigHelperVariable));
    if (!spec)
        return 2;
    ServerProcess server(*spec);
    const Status started = server.start();
    if (!started) {
        std::printf("error %s\n", qPrintable(started.error()));
        return 3;
    }
    std::printf("%lld %s\n", server.pid(), qPrintable(server.tempDirPath()));
    std::fflush(stdout);
    for (;;)
        ::pause();
}

// The clients `server` has connected, by CLIENT LIST on a connection of its own, once the count
// is `expected` or after two seconds.
int clientsSettlingAt(const ServerProcess &server, int expected)
{
    RedisConnection connection;
    if (!server.connect(connection, ServerTestHelpers::kHealthyReplyMs))
        return -1;
    int clients = -1;
    for (int attempt = 0; attempt < 40 && clients != expected; ++attempt) {
        if (attempt > 0)
            QThread::msleep(50);
        const Outcome<Reply> list = connection.command({"CLIENT", "LIST"});
        if (!list)
            return -1;
        clients = int(QString::fromStdString(list->text).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size());
    }
    return clients;
}

// A plain TCP socket to the server, without close-on-exec, as a library might open one.
int rawSocketTo(const ServerProcess &server)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(quint16(server.port()));
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

class TestServerProcess : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsIsolatedAndStopsClean_data();
    void startsIsolatedAndStopsClean();
    void programThatDoesNotExist();
    void programThatIsNotExecutable();
    void programThatIsNotAServer();
    void serverThatRejectsItsArguments();
    void portTakenBetweenChoosingAndBinding();
    void portTakenOnEveryAttempt();
    void serverKilledIsDetected();
    void serverStoppedIsDetectedAndStillStops();
    void staleDirsAreCleaned();
    void serverDiesWithKilledVersus();
    void serverInheritsNoConnectionOfVersus();
};

void TestServerProcess::startsIsolatedAndStopsClean_data()
{
    QTest::addColumn<QString>("prefix");
    for (const QString &prefix : requiredServerPrefixes())
        QTest::newRow(qPrintable(prefix)) << prefix;
}

void TestServerProcess::startsIsolatedAndStopsClean()
{
    QFETCH(QString, prefix);
    const std::optional<ServerSpec> spec = findFetchedServer(prefix);
    if (!spec)
        VERSUS_SERVER_MISSING(missingServersMessage({prefix}));

    ServerProcess server(*spec);
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started.error()));
    QVERIFY(server.isRunning());
    QVERIFY(server.port() > 0);
    const qint64 pid = server.pid();
    QVERIFY(processAlive(pid));
    const QString dir = server.tempDirPath();
    QVERIFY(QFileInfo(dir).fileName().startsWith(QLatin1String("versus-server-")));
    QCOMPARE(QFileInfo(dir).absolutePath(), QDir(QDir::tempPath()).absolutePath());

    QFile owner(dir + QStringLiteral("/owner.pid"));
    QVERIFY(owner.open(QIODevice::ReadOnly));
    QCOMPARE(owner.readAll().trimmed().toLongLong(), QCoreApplication::applicationPid());

    RedisConnection connection;
    const Status connected = server.connect(connection, ServerTestHelpers::kHealthyReplyMs);
    QVERIFY2(connected, qPrintable(connected.error()));
    Outcome<Reply> pong = call(connection, {"PING"});
    QVERIFY2(pong, qPrintable(pong.error()));
    QCOMPARE(QString::fromStdString(pong->text), QStringLiteral("PONG"));

    // No persistence, its own dir, loopback only, no slowlog.
    auto configValue = [&](const char *name) -> QString {
        Outcome<Reply> reply = call(connection, {"CONFIG", "GET", name});
        if (!reply || reply->elements.size() != 2)
            return QStringLiteral("<no answer>");
        return QString::fromStdString(reply->elements[1].text);
    };
    QCOMPARE(configValue("save"), QString());
    QCOMPARE(configValue("appendonly"), QStringLiteral("no"));
    QCOMPARE(QDir(configValue("dir")).canonicalPath(), QDir(dir).canonicalPath());
    QCOMPARE(configValue("bind"), QStringLiteral("127.0.0.1"));
    QCOMPARE(configValue("protected-mode"), QStringLiteral("yes"));
    // No slowlog entry lands in a memory figure (serverArguments).
    QCOMPARE(configValue("slowlog-log-slower-than"), QStringLiteral("-1"));
    QCOMPARE(configValue("port"), QString::number(server.port()));

    QVERIFY(QFile::exists(server.logPath()));
    QVERIFY(!server.logTail().isEmpty());
    QCOMPARE(pidsMentioning(dir), std::vector<qint64>{pid});

    connection.close();
    server.stop();
    QVERIFY(!server.isRunning());
    QVERIFY(!processAlive(pid));
    QVERIFY(!QFileInfo::exists(dir));
    QVERIFY(pidsMentioning(dir).empty());
    // The log outlives the dir, for error reports.
    QVERIFY2(server.logTail().join(QLatin1Char('\n')).contains(QLatin1String("eady to accept connections")),
             qPrintable(server.logTail().join(QLatin1Char('\n'))));
    server.stop();   // twice is harmless
}

void TestServerProcess::programThatDoesNotExist()
{
    ServerSpec spec;
    spec.label = QStringLiteral("valkey-0.0.0");
    spec.program = QStringLiteral("/nonexistent/bin/valkey-server");
    ServerProcess server(spec);
    const Status started = server.start();
    QVERIFY(!started);
    QCOMPARE(started.error(), QStringLiteral("valkey-0.0.0: server program /nonexistent/bin/valkey-server does not exist"));
    QVERIFY(!server.isRunning());
    QVERIFY(server.tempDirPath().isEmpty());

    // The loader exists but the binary it would run does not.
    ServerSpec loaded;
    loaded.label = QStringLiteral("valkey-0.0.1");
    loaded.program = QStringLiteral("/bin/sh");
    loaded.binaryPath = QStringLiteral("/nonexistent/bin/valkey-server");
    const Status loadedStarted = ServerProcess(loaded).start();
    QCOMPARE(loadedStarted.error(), QStringLiteral("valkey-0.0.1: server binary /nonexistent/bin/valkey-server does not exist"));

    ServerSpec endpoint;
    endpoint.label = QStringLiteral("remote");
    endpoint.isEndpoint = true;
    endpoint.host = QStringLiteral("127.0.0.1");
    endpoint.port = 6379;
    QVERIFY(ServerProcess(endpoint).start().error().startsWith(QLatin1String("remote: not a server Versus can launch")));
}

void TestServerProcess::programThatIsNotExecutable()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("valkey-server"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a program\n");
    file.close();
    QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));

    ServerSpec spec;
    spec.label = QStringLiteral("mine");
    spec.program = path;
    const Status started = ServerProcess(spec).start();
    QCOMPARE(started.error(), QStringLiteral("mine: server program %1 is not an executable file").arg(path));

    spec.program = dir.path();
    QCOMPARE(ServerProcess(spec).start().error(),
             QStringLiteral("mine: server program %1 is not an executable file").arg(dir.path()));
}

void TestServerProcess::programThatIsNotAServer()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ServerSpec spec = scriptSpec(dir, QStringLiteral("fake-server"),
                                       "echo 'starting the fake server'\n"
                                       "echo 'fatal: this is not a Valkey server' >&2\n"
                                       "exit 3");
    ServerProcess server(spec);
    const Status started = server.start(5000);
    QVERIFY(!started);
    const QString error = started.error();
    QVERIFY2(error.startsWith(QLatin1String("fake-server: the server exited with code 3 during start-up")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("\n  starting the fake server\n  fatal: this is not a Valkey server")), qPrintable(error));
    QVERIFY(!server.isRunning());
    QVERIFY(server.tempDirPath().isEmpty());
    QCOMPARE(server.logTail(), QStringList({QStringLiteral("starting the fake server"),
                                            QStringLiteral("fatal: this is not a Valkey server")}));

    // A program that runs but never answers PING is given up on at the deadline, and killed.
    const ServerSpec silent = scriptSpec(dir, QStringLiteral("silent-server"), "echo 'waiting forever'\nexec sleep 600");
    ServerProcess silentServer(silent);
    const Status silentStarted = silentServer.start(300);
    QVERIFY(!silentStarted);
    QVERIFY2(silentStarted.error().startsWith(QLatin1String("silent-server: the server did not answer PING within 300 ms")),
             qPrintable(silentStarted.error()));
    QVERIFY2(silentStarted.error().contains(QLatin1String("\n  waiting forever")), qPrintable(silentStarted.error()));
    QVERIFY(!silentServer.isRunning());
}

void TestServerProcess::serverThatRejectsItsArguments()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.1");
    ServerProcess server(spec);
    server.setExtraArguments({QStringLiteral("--no-such-directive"), QStringLiteral("yes")});
    const Status started = server.start();
    QVERIFY(!started);
    const QString error = started.error();
    QVERIFY2(error.startsWith(spec.label + QStringLiteral(": the server exited with code 1 during start-up")), qPrintable(error));
    // The server's own words, from its console output.
    QVERIFY2(error.contains(QLatin1String("no-such-directive")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("Bad directive or wrong number of arguments")), qPrintable(error));
    QVERIFY(server.tempDirPath().isEmpty());
}

void TestServerProcess::portTakenBetweenChoosingAndBinding()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ServerProcess server(spec);
    std::unique_ptr<PortBlocker> blocker;
    QList<int> chosenPorts;
    server.setPortChosenHookForTesting([&](int port, int attempt) {
        chosenPorts << port;
        if (attempt == 0)
            blocker = std::make_unique<PortBlocker>(port);
    });
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started.error()));
    QVERIFY(blocker && blocker->listening());
    QCOMPARE(chosenPorts.size(), 2);
    QCOMPARE(server.port(), chosenPorts.at(1));
    QVERIFY(server.port() != chosenPorts.at(0));

    RedisConnection connection;
    QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    Outcome<Reply> pong = call(connection, {"PING"});
    QVERIFY2(pong && pong->text == "PONG", qPrintable(pong ? QString::fromStdString(pong->text) : pong.error()));
    server.stop();
}

void TestServerProcess::portTakenOnEveryAttempt()
{
    VERSUS_REQUIRE_SERVER(spec, "redis-7.0.");
    ServerProcess server(spec);
    std::vector<std::unique_ptr<PortBlocker>> blockers;
    server.setPortChosenHookForTesting([&](int port, int) { blockers.push_back(std::make_unique<PortBlocker>(port)); });
    const Status started = server.start();
    QVERIFY(!started);
    QCOMPARE(blockers.size(), size_t(3));
    QVERIFY2(started.error().contains(QLatin1String("Address already in use")), qPrintable(started.error()));
    QVERIFY2(started.error().startsWith(spec.label + QStringLiteral(": the server exited with code 1 during start-up")),
             qPrintable(started.error()));
}

void TestServerProcess::serverKilledIsDetected()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.1.1");
    ServerProcess server(spec);
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started.error()));
    RedisConnection connection;
    QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    const qint64 pid = server.pid();
    const QString name = server.connectionName();

    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    QTRY_VERIFY(!server.isRunning());
    QCOMPARE(server.exitDescription(), QStringLiteral("crashed or was killed"));
    QVERIFY(!processAlive(pid));

    Outcome<Reply> reply = call(connection, {"PING"});
    QVERIFY(!reply);
    QVERIFY2(reply.error().startsWith(name + QStringLiteral(": PING: ")), qPrintable(reply.error()));
    QVERIFY(!connection.isConnected());

    const QString dir = server.tempDirPath();
    server.stop();
    QVERIFY(!QFileInfo::exists(dir));
}

void TestServerProcess::serverStoppedIsDetectedAndStillStops()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ServerProcess server(spec);
    const Status started = server.start();
    QVERIFY2(started, qPrintable(started.error()));
    RedisConnection connection;
    QVERIFY(server.connect(connection, 300));
    const qint64 pid = server.pid();

    QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
    Outcome<Reply> reply = call(connection, {"PING"});
    QVERIFY(!reply);
    QCOMPARE(reply.error(), server.connectionName() + QStringLiteral(": PING: timed out after 300 ms"));
    QVERIFY(server.isRunning());

    // SHUTDOWN cannot be answered and SIGTERM waits for SIGCONT: stop() must still end it.
    const QString dir = server.tempDirPath();
    server.stop();
    QVERIFY(!server.isRunning());
    QVERIFY(!processAlive(pid));
    QVERIFY(pidsMentioning(dir).empty());
}

namespace {

// A folder as a launched server leaves it: mode 0700, owner.pid, versus.conf and logs.
void makeServerDir(const QString &dir, const QByteArray &owner, const QStringList &files = {QStringLiteral("versus.conf"),
                                                                                            QStringLiteral("server.log"),
                                                                                            QStringLiteral("dump.rdb")})
{
    QVERIFY(::mkdir(QFile::encodeName(dir).constData(), 0700) == 0);
    for (const QString &name : files) {
        QFile file(dir + QLatin1Char('/') + name);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    if (owner.isNull())
        return;
    QFile file(dir + QStringLiteral("/owner.pid"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(owner);
}

} // namespace

// Only what Versus can prove it made, and whose Versus is gone, is removed: in a shared /tmp,
// as root, a folder of the right name is no proof.
void TestServerProcess::staleDirsAreCleaned()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    // A pid that surely belongs to no process any more: a child that has exited and been reaped.
    QProcess finished;
    finished.start(QStringLiteral("/bin/true"), {});
    QVERIFY(finished.waitForStarted());
    const qint64 deadPid = finished.processId();
    QVERIFY(finished.waitForFinished());
    QVERIFY(!processAlive(deadPid));
    const QByteArray dead = QByteArray::number(deadPid) + '\n';
    const auto at = [&](const char *name) { return root.filePath(QLatin1String(name)); };

    makeServerDir(at("versus-server-dead01"), dead);
    makeServerDir(at("versus-server-clust1"), dead, {QStringLiteral("versus.conf"), QStringLiteral("nodes.conf"),
                                                     QStringLiteral("nodes.conf.tmp-4242-1733350000000"), QStringLiteral("console.log")});
    makeServerDir(at("versus-server-mine01"), QByteArray::number(QCoreApplication::applicationPid()) + '\n');
    makeServerDir(at("versus-server-parent"), QByteArray::number(qint64(::getppid())));
    makeServerDir(at("versus-server-fresh1"), QByteArray());   // being created right now: no owner.pid yet
    makeServerDir(at("versus-server-junk01"), QByteArray("garbage"));
    makeServerDir(at("versus-server-notes1"), dead, {QStringLiteral("versus.conf"), QStringLiteral("my-notes.txt")});
    makeServerDir(at("versus-server-nested"), dead);
    QVERIFY(QDir(at("versus-server-nested")).mkdir(QStringLiteral("photos")));
    makeServerDir(at("versus-server-shared"), dead);
    QVERIFY(::chmod(QFile::encodeName(at("versus-server-shared")).constData(), 0755) == 0);
    makeServerDir(at("versus-server-linked"), QByteArray());
    QVERIFY(QFile::link(at("versus-server-dead01") + QStringLiteral("/owner.pid"), at("versus-server-linked") + QStringLiteral("/owner.pid")));
    QVERIFY(QFile::link(at("versus-server-notes1"), at("versus-server-alias1")));
    makeServerDir(at("versus-server-empty1"), QByteArray(), {});   // just made: left for a minute
    makeServerDir(at("other-dir"), dead);
    // A --profile pass's folder left by a Versus killed during it, one in use, one with a stranger.
    makeServerDir(at("versus-profile-dead01"), dead, {QStringLiteral("perf.data"), QStringLiteral("perf.data.old")});
    makeServerDir(at("versus-profile-mine01"), QByteArray::number(QCoreApplication::applicationPid()) + '\n',
                  {QStringLiteral("perf.data")});
    makeServerDir(at("versus-profile-notes1"), dead, {QStringLiteral("perf.data"), QStringLiteral("versus.conf")});
    if (::geteuid() == 0) {   // another user's folder in a shared /tmp
        makeServerDir(at("versus-server-others"), dead);
        QVERIFY(::chown(QFile::encodeName(at("versus-server-others")).constData(), 65534, 65534) == 0);
    }

    QCOMPARE(cleanStaleServerDirs(root.path()), 3);
    QStringList left{QStringLiteral("other-dir"), QStringLiteral("versus-profile-mine01"), QStringLiteral("versus-profile-notes1"),
                     QStringLiteral("versus-server-alias1"), QStringLiteral("versus-server-empty1"),
                     QStringLiteral("versus-server-fresh1"), QStringLiteral("versus-server-junk01"),
                     QStringLiteral("versus-server-linked"), QStringLiteral("versus-server-mine01"),
                     QStringLiteral("versus-server-nested"), QStringLiteral("versus-server-notes1"),
                     QStringLiteral("versus-server-parent"), QStringLiteral("versus-server-shared")};
    if (::geteuid() == 0)
        left << QStringLiteral("versus-server-others");
    left.sort();
    QCOMPARE(QDir(root.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::System, QDir::Name), left);
    QVERIFY(QFileInfo::exists(at("versus-server-notes1") + QStringLiteral("/my-notes.txt")));
    QCOMPARE(cleanStaleServerDirs(root.path()), 0);
    QCOMPARE(cleanStaleServerDirs(root.filePath(QStringLiteral("does-not-exist"))), 0);

    // An empty folder of this user, older than a minute: a Versus killed before it wrote owner.pid.
    const struct timespec old[2] = {{::time(nullptr) - 120, 0}, {::time(nullptr) - 120, 0}};
    QVERIFY(::utimensat(AT_FDCWD, QFile::encodeName(at("versus-server-empty1")).constData(), old, 0) == 0);
    QCOMPARE(cleanStaleServerDirs(root.path()), 1);
    QVERIFY(!QFileInfo::exists(at("versus-server-empty1")));
}

void TestServerProcess::serverDiesWithKilledVersus()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-8.0.1");
    // This test binary plays a Versus that gets SIGKILLed while it runs a server.
    QProcess helper;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(kPdeathsigHelperVariable), spec.label);
    helper.setProcessEnvironment(environment);
    helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    helper.start(QCoreApplication::applicationFilePath(), TestRegistry::rerunArguments());
    QVERIFY(helper.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(helper.canReadLine() || helper.state() == QProcess::NotRunning, 20000);
    const QString line = QString::fromLocal8Bit(helper.readLine()).trimmed();
    const qsizetype space = line.indexOf(QLatin1Char(' '));
    const qint64 serverPid = line.left(space).toLongLong();
    const QString dir = line.mid(space + 1);
    QVERIFY2(serverPid > 0 && processAlive(serverPid), qPrintable(line));
    QVERIFY(QFileInfo::exists(dir));

    helper.kill();
    QVERIFY(helper.waitForFinished());
    QTRY_VERIFY2(!processAlive(serverPid), "the server outlived the Versus that started it");
    QVERIFY(pidsMentioning(dir).empty());

    // Its temp dir stays behind; the next start-up's cleanup removes it.
    QVERIFY(QFileInfo::exists(dir));
    QVERIFY(cleanStaleServerDirs() >= 1);
    QVERIFY(!QFileInfo::exists(dir));
}

// A server started while Versus holds connections to another must not inherit them: it would
// keep them open for its whole life, and the other server would count their buffers in its
// used_memory and wait in vain for a quiet connection before each reading.
void TestServerProcess::serverInheritsNoConnectionOfVersus()
{
    VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");
    ServerProcess measured(spec);
    const Status measuredStarted = measured.start();
    QVERIFY2(measuredStarted, qPrintable(measuredStarted.error()));

    RedisConnection connection;
    QVERIFY(measured.connect(connection, ServerTestHelpers::kHealthyReplyMs));
    QVERIFY(::fcntl(connection.socket(), F_GETFD) & FD_CLOEXEC);
    const int raw = rawSocketTo(measured);
    QVERIFY(raw >= 0);
    QCOMPARE(clientsSettlingAt(measured, 3), 3);   // both of those and the counting one

    ServerProcess startedMeanwhile(spec);
    const Status started = startedMeanwhile.start();
    QVERIFY2(started, qPrintable(started.error()));
    connection.close();
    ::close(raw);
    QCOMPARE(clientsSettlingAt(measured, 1), 1);
    startedMeanwhile.stop();
    measured.stop();
}

static int serverProcessMain(int argc, char **argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet(kPdeathsigHelperVariable))
        return runPdeathsigHelper();
    TestServerProcess test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

VERSUS_TEST_FUNCTION(serverProcessMain)

#include "tst_serverprocess.moc"
