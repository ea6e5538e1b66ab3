#include "serverprocess.h"

#include "infoparser.h"
#include "orphancleanup.h"
#include "processgroup.h"
#include "redisconnection.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <deque>
#include <mutex>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

constexpr int kPortAttempts = 3;
constexpr int kPollPauseMs = 10;
constexpr int kPingTimeoutMs = 250;
constexpr int kShutdownWaitMs = 2000;
constexpr int kTerminateWaitMs = 2000;
constexpr int kKillWaitMs = 5000;
// How long the program may take to be executed at all (fork and exec), apart from the time it
// is given to answer: on a loaded machine exec alone took longer than a short start-up deadline,
// and the error said the program could not be started when it was only slow to be.
constexpr int kExecWaitMs = 10000;
constexpr int kLogTailInErrors = 15;

const QLatin1String kConsoleLog("console.log");
const QLatin1String kServerLog("server.log");
const QLatin1String kConfigFile("versus.conf");

// Ports this process chose lately. The kernel may give one free port to two callers that each
// close it before their server binds it (bind-then-close): two servers started at once would
// then race for it, and one would find the other on its port.
bool claimPort(int port)
{
    static std::mutex mutex;
    static std::deque<int> recent;
    constexpr size_t kRemembered = 256;
    const std::lock_guard<std::mutex> lock(mutex);
    if (std::find(recent.begin(), recent.end(), port) != recent.end())
        return false;
    recent.push_back(port);
    if (recent.size() > kRemembered)
        recent.pop_front();
    return true;
}

// Asks the kernel for a free loopback port. The port is free only at this instant, which is
// why start() retries when the server then reports it taken.
Outcome<int> askForFreePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return Error{QStringLiteral("cannot open a socket to find a free port: %1").arg(QString::fromLocal8Bit(strerror(errno)))};
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof(address);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        const QString reason = QString::fromLocal8Bit(strerror(errno));
        ::close(fd);
        return Error{QStringLiteral("cannot find a free loopback port: %1").arg(reason)};
    }
    ::close(fd);
    return int(ntohs(address.sin_port));
}

// A free port no other server of this process was given lately. Another process can still
// take it first: launchOnce() accepts only a server that knows this start's passwords.
Outcome<int> pickFreePort()
{
    Outcome<int> port = askForFreePort();
    for (int attempt = 1; port && !claimPort(port.value()) && attempt < 16; ++attempt)
        port = askForFreePort();
    return port;
}

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QString text = QString::fromLocal8Bit(line).trimmed();
        if (!text.isEmpty())
            lines << text;
    }
    return lines;
}

QString indented(const QStringList &lines)
{
    if (lines.isEmpty())
        return QStringLiteral("\n  (the log is empty)");
    QString text;
    for (const QString &line : lines)
        text += QStringLiteral("\n  ") + line;
    return text;
}

} // namespace

ServerProcess::ServerProcess(ServerSpec spec)
    : m_spec(std::move(spec))
{
    if (m_spec.label.isEmpty())
        m_spec.label = m_spec.identity.label();
}

ServerProcess::~ServerProcess()
{
    stop();
}

QString ServerProcess::connectionName() const
{
    return QStringLiteral("%1 (%2:%3)").arg(m_spec.label, host()).arg(m_port);
}

Status ServerProcess::connect(RedisConnection &connection, int timeoutMs) const
{
    Status connected = connection.connectTcp(host(), m_port, timeoutMs, connectionName(), m_tls);
    if (connected)
        connected = connection.auth(m_config.control);
    return connected;
}

QString ServerProcess::configPath() const
{
    return m_dir ? m_dir->filePath(kConfigFile) : QString();
}

QString ServerProcess::tempDirPath() const
{
    return m_dir ? m_dir->path() : QString();
}

QString ServerProcess::logPath() const
{
    return m_dir ? m_dir->filePath(kServerLog) : QString();
}

QStringList ServerProcess::readLogLines() const
{
    if (!m_dir)
        return m_finalLogLines;
    return readLines(m_dir->filePath(kConsoleLog)) + readLines(m_dir->filePath(kServerLog));
}

QStringList ServerProcess::logTail(int lines) const
{
    const QStringList all = readLogLines();
    return all.mid(qMax(0, int(all.size()) - lines));
}

bool ServerProcess::isRunning() const
{
    if (!m_process)
        return false;
    // Without an event loop QProcess learns of the child's death only inside a wait call.
    m_process->waitForFinished(0);
    return m_process->state() != QProcess::NotRunning;
}

QString ServerProcess::exitDescription() const
{
    if (!m_process || isRunning())
        return QString();
    if (m_process->error() == QProcess::FailedToStart)
        return QStringLiteral("failed to start: %1").arg(m_process->errorString());
    if (m_process->exitStatus() == QProcess::CrashExit)
        return QStringLiteral("crashed or was killed");
    return QStringLiteral("exited with code %1").arg(m_process->exitCode());
}

qint64 ServerProcess::pid() const
{
    if (m_serverPid >= 0)
        return m_serverPid;
    return launchedPid();
}

qint64 ServerProcess::launchedPid() const
{
    return m_process ? m_process->processId() : 0;
}

// The launched program may be a wrapper whose child is the server: the server says who it is.
void ServerProcess::findServerPid(RedisConnection &connection)
{
    const qint64 launched = launchedPid();
    m_serverPid = launched;
    m_pidNote.clear();
    const Outcome<Reply> info = connection.command({"INFO", "server"});
    qint64 reported = 0;
    if (info && !info->isError()) {
        const std::map<QString, QString> fields = parseInfoFields(QString::fromStdString(info->text));
        if (const auto found = fields.find(QStringLiteral("process_id")); found != fields.end())
            reported = found->second.toLongLong();
    }
    if (reported == launched)
        return;
    const std::optional<ProcessStat> stat = readProcessStat(reported);
    if (reported > 0 && stat && stat->group == m_group) {
        m_serverPid = reported;
        m_pidNote = QStringLiteral("started through a wrapper (pid %1): the server is pid %2, whose CPU is pinned")
                        .arg(launched)
                        .arg(reported);
        return;
    }
    m_serverPid = 0;
    m_pidNote = reported <= 0
        ? QStringLiteral("cannot pin the server's CPU: INFO server gave no process_id (%1)")
              .arg(info ? QString::fromStdString(info->text).left(80).simplified() : info.error())
        : QStringLiteral("cannot pin the server's CPU: INFO server says process_id %1, which is not in the process "
                         "group Versus started (pid %2); it runs unpinned")
              .arg(reported)
              .arg(launched);
}

QStringList ServerProcess::serverArguments(int port) const
{
    const QString dir = m_dir->path();
    QStringList cluster;
    if (m_clusterNode)
        cluster = {QStringLiteral("--cluster-enabled"), QStringLiteral("yes"), QStringLiteral("--cluster-config-file"),
                   m_dir->filePath(QStringLiteral("nodes.conf")), QStringLiteral("--cluster-port"),
                   QString::number(m_busPort)};
    // The config file comes first: a server reads it before its options.
    return QStringList{
        m_dir->filePath(kConfigFile),
    } + tlsArguments(port) + QStringList{
        QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
        QStringLiteral("--save"), QString(),
        QStringLiteral("--appendonly"), QStringLiteral("no"),
        QStringLiteral("--dir"), dir,
        QStringLiteral("--logfile"), m_dir->filePath(kServerLog),
        QStringLiteral("--daemonize"), QStringLiteral("no"),
        QStringLiteral("--protected-mode"), QStringLiteral("yes"),
        // A command that takes longer than 10 ms of wall time, as any does when another process
        // takes the CPU in its middle, writes a slowlog entry that stays until the log is full:
        // about 280 bytes of the dataset in the next memory reading (Valkey 9.1.2, 3,000 keys read
        // 278,872 instead of 278,592 under load). Not logging keeps the machine's load out of the
        // memory figures; --server-config can turn it back on.
        QStringLiteral("--slowlog-log-slower-than"), QStringLiteral("-1"),
    } + cluster;
}

QStringList ServerProcess::tlsArguments(int port) const
{
    if (!m_tls.enabled)
        return {QStringLiteral("--port"), QString::number(port)};
    QStringList arguments{
        QStringLiteral("--port"), QStringLiteral("0"),
        QStringLiteral("--tls-port"), QString::number(port),
        QStringLiteral("--tls-cert-file"), m_tlsFiles.certFile,
        QStringLiteral("--tls-key-file"), m_tlsFiles.keyFile,
        QStringLiteral("--tls-ca-cert-file"), m_tlsFiles.caCertFile,
        QStringLiteral("--tls-auth-clients"), QStringLiteral("no"),
    };
    if (m_clusterNode)
        arguments << QStringLiteral("--tls-cluster") << QStringLiteral("yes");
    return arguments;
}

Status ServerProcess::prepareTls()
{
    m_tls = TlsSettings();
    if (!m_spec.tls.enabled)
        return Status::success();
    if (!m_tlsAuthority) {
        Outcome<std::shared_ptr<const TlsAuthority>> made = TlsAuthority::create(m_spec.label);
        if (!made)
            return Error{QStringLiteral("%1: %2").arg(m_spec.label, made.error())};
        m_tlsAuthority = made.value();
    }
    Outcome<TlsServerFiles> files = m_tlsAuthority->issueServerFiles(m_dir->path());
    if (!files)
        return Error{QStringLiteral("%1: %2").arg(m_spec.label, files.error())};
    m_tlsFiles = files.value();
    // Versus's own connections show a certificate of the same CA: a server started with
    // tls-auth-clients yes (--server-config cannot, a test can) accepts them too.
    Outcome<TlsServerFiles> client = m_tlsAuthority->issueClientFiles(m_dir->path(), QString());
    if (!client)
        return Error{QStringLiteral("%1: %2").arg(m_spec.label, client.error())};
    m_tls = launchedServerTls(m_tlsFiles, client.value());
    return Status::success();
}

Status ServerProcess::prepareTempDir()
{
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/versus-server-XXXXXX"));
    if (!m_dir->isValid()) {
        const QString reason = m_dir->errorString();
        m_dir.reset();
        return Error{QStringLiteral("%1: cannot create a temporary directory in %2: %3")
                         .arg(m_spec.label, QDir::tempPath(), reason)};
    }
    // Lets a later Versus tell this dir is stale once we are gone (see orphancleanup.h).
    if (Status owned = writeOwnerFile(m_dir->path()); !owned)
        return Error{QStringLiteral("%1: %2").arg(m_spec.label, owned.error())};
    m_config = newLaunchConfig();
    if (Status written = writeLaunchConfig(m_dir->filePath(kConfigFile), m_config); !written)
        return Error{QStringLiteral("%1: %2").arg(m_spec.label, written.error())};
    return prepareTls();
}

Status ServerProcess::start(int readyTimeoutMs)
{
    if (isRunning())
        return Error{QStringLiteral("%1: already running on port %2").arg(m_spec.label).arg(m_port)};
    stop();   // leftovers of an earlier run: old process object and temp dir
    m_finalLogLines.clear();

    if (!m_spec.isLaunchable())
        return Error{QStringLiteral("%1: not a server Versus can launch (no program, or an endpoint)").arg(m_spec.label)};
    const QFileInfo program(m_spec.program);
    if (!program.exists())
        return Error{QStringLiteral("%1: server program %2 does not exist").arg(m_spec.label, m_spec.program)};
    if (!program.isFile() || !program.isExecutable())
        return Error{QStringLiteral("%1: server program %2 is not an executable file").arg(m_spec.label, m_spec.program)};
    if (!m_spec.binaryPath.isEmpty() && m_spec.binaryPath != m_spec.program && !QFileInfo::exists(m_spec.binaryPath))
        return Error{QStringLiteral("%1: server binary %2 does not exist").arg(m_spec.label, m_spec.binaryPath)};

    if (Status prepared = prepareTempDir(); !prepared) {
        stop();
        return prepared;
    }

    Status result;
    QStringList portsTried;
    bool portTaken = false;
    for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
        Outcome<int> port = pickFreePort();
        if (!port) {
            result = Error{QStringLiteral("%1: %2").arg(m_spec.label, port.error())};
            break;
        }
        if (m_portChosenHook)
            m_portChosenHook(port.value(), attempt);
        portsTried << QString::number(port.value());
        if (m_clusterNode) {
            Outcome<int> bus = pickFreePort();
            while (bus && bus.value() == port.value())
                bus = pickFreePort();
            if (!bus) {
                result = Error{QStringLiteral("%1: %2").arg(m_spec.label, bus.error())};
                break;
            }
            m_busPort = bus.value();
            portsTried.back() += QStringLiteral(" (bus %1)").arg(m_busPort);
        }
        result = launchOnce(port.value(), readyTimeoutMs, &portTaken);
        if (result || !portTaken)
            break;
    }
    if (!result && portTaken) {
        result = Error{result.error() + QStringLiteral("\n(ports %1 were each taken by someone else before the server could bind them)")
                                            .arg(portsTried.join(QStringLiteral(", ")))};
    }
    if (!result)
        stop();
    return result;
}

Status ServerProcess::launchOnce(int port, int readyTimeoutMs, bool *portTaken)
{
    *portTaken = false;
    finishProcess();
    QFile::remove(m_dir->filePath(kConsoleLog));
    QFile::remove(m_dir->filePath(kServerLog));
    QFile::remove(m_dir->filePath(QStringLiteral("nodes.conf")));   // a cluster node's, from a try before
    m_port = port;

    m_process = std::make_unique<QProcess>();
    m_process->setProgram(m_spec.program);
    m_process->setArguments(m_spec.prefixArguments + serverArguments(port) + m_extraArguments);
    m_process->setWorkingDirectory(m_dir->path());
    // Start-up errors (a bad argument, a missing library) go to the console, not to the log.
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_dir->filePath(kConsoleLog));
    m_process->setStandardInputFile(QProcess::nullDevice());
    if (Status opened = m_guardian.open(); !opened)
        return Error{QStringLiteral("%1: %2").arg(m_spec.label, opened.error())};
    const pid_t versusPid = ::getpid();
    const std::function<void()> ownGroup = m_guardian.childSetup();
    m_process->setChildProcessModifier([versusPid, ownGroup] {
        // Async-signal-safe calls only: this runs between fork and exec.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != versusPid)   // Versus died before prctl took effect
            ::_exit(127);
        ownGroup();
    });

    m_process->start();
    if (!m_process->waitForStarted(std::max(readyTimeoutMs, kExecWaitMs))) {
        m_guardian.release();
        return Error{QStringLiteral("%1: cannot start %2: %3")
                         .arg(m_spec.label, m_spec.program, m_process->errorString())};
    }
    m_guardian.started();
    m_group = m_process->processId();   // setsid: the group's id is the launched pid
    m_serverPid = -1;
    m_pidNote.clear();

    const QDeadlineTimer deadline(readyTimeoutMs);
    QString lastAnswer;
    while (true) {
        if (!isRunning()) {
            const QStringList tail = logTail(kLogTailInErrors);
            *portTaken = tail.join(QLatin1Char('\n')).contains(QLatin1String("Address already in use"));
            return Error{QStringLiteral("%1: the server %2 during start-up (port %3). Last lines of its log:%4")
                             .arg(m_spec.label, exitDescription()).arg(port).arg(indented(tail))};
        }
        RedisConnection connection;
        if (connection.connectTcp(host(), port, kPingTimeoutMs, connectionName(), m_tls) && answersAsOurs(connection, &lastAnswer))
            return Status::success();
        if (deadline.hasExpired())
            break;
        // Doubles as the pause between attempts and ends at once if the server exits.
        m_process->waitForFinished(kPollPauseMs);
    }
    const QStringList tail = logTail(kLogTailInErrors);
    finishProcess();
    return Error{QStringLiteral("%1: the server did not answer PING within %2 ms on port %3%4. Last lines of its log:%5")
                     .arg(m_spec.label)
                     .arg(readyTimeoutMs)
                     .arg(port)
                     .arg(lastAnswer.isEmpty() ? QString() : QStringLiteral(" (last answer: %1)").arg(lastAnswer))
                     .arg(indented(tail))};
}

// Ready only when the server on the port is the one this start launched: it must accept a
// password of the config file written for this start, fresh and random each time. Until our
// server has bound the port, whatever else listens there (another server that was given the
// same free port, and bound it first) refuses them; our server then exits with "Address
// already in use" and start() tries another port.
bool ServerProcess::answersAsOurs(RedisConnection &connection, QString *lastAnswer)
{
    const std::string control = m_config.control.password.toStdString();
    Outcome<Reply> answer = connection.command({"AUTH", control});
    // A --requirepass among the extra arguments replaces the default user's password; the
    // replay user of the same file keeps its own.
    if (answer && answer->isError()) {
        const std::string user = m_config.replay.user.toStdString();
        const std::string password = m_config.replay.password.toStdString();
        answer = connection.command({"AUTH", user, password});
        if (answer && answer->isError()) {
            *lastAnswer = QStringLiteral("a server that refuses this start's passwords, not the one started: %1")
                              .arg(QString::fromStdString(answer->text));
            return false;
        }
    }
    if (answer)
        answer = connection.command({"PING"});
    if (answer && answer->kind == Reply::Kind::Status && answer->text == "PONG") {
        findServerPid(connection);
        return true;
    }
    // e.g. "LOADING", or a timeout while the server is still busy starting
    *lastAnswer = answer ? QString::fromStdString(answer->text) : answer.error();
    return false;
}

// Terminate, then kill, and always reap, so no zombie or stray server remains; then whatever
// is left of its process group (a wrapper's server, the guardian).
void ServerProcess::finishProcess()
{
    if (!m_process)
        return;
    if (isRunning()) {
        m_process->terminate();
        // A SIGSTOPped server would sit on SIGTERM until continued.
        if (const qint64 pid = m_process->processId(); pid > 0)
            ::kill(pid_t(pid), SIGCONT);
        if (!m_process->waitForFinished(kTerminateWaitMs)) {
            m_process->kill();
            m_process->waitForFinished(kKillWaitMs);
        }
    }
    endGroup();
}

void ServerProcess::endGroup()
{
    if (m_group > 0)
        ::endProcessGroup(m_group, kTerminateWaitMs, kKillWaitMs);
    m_guardian.release();
    m_group = 0;
}

void ServerProcess::stop()
{
    if (m_process && isRunning()) {
        RedisConnection connection;
        if (connect(connection, kPingTimeoutMs * 2)) {
            // A server that obeys closes the connection instead of answering, so a transport
            // error is the expected outcome. A reply means SHUTDOWN was refused (e.g. NOAUTH)
            // and a timeout means the server is wedged: then waiting is pointless, go on to SIGTERM.
            const Outcome<Reply> refused = connection.command({"SHUTDOWN", "NOSAVE"});
            const bool closedByServer = !refused && !connection.lastErrorWasTimeout();
            connection.close();
            if (closedByServer)
                m_process->waitForFinished(kShutdownWaitMs);
        }
    }
    finishProcess();   // also when a wrapper ended before the server it started
    if (m_dir)
        m_finalLogLines = readLogLines();
    // Keep the finished QProcess so pid-less questions (exitDescription) still answer.
    m_dir.reset();
}
