#pragma once
// A server the test starts itself, not through Versus (ServerProcess gives its servers
// Versus's own settings: --save "", --latency-tracking no, …). It runs with the server's
// defaults plus only what it is given: a free port and, as the working directory, a folder of
// its own (its dump.rdb lands there). It dies with the test (PR_SET_PDEATHSIG) and is shut
// down by the destructor, by pid.
//
//   ForeignServer endpoint(spec);                   // spec from VERSUS_REQUIRE_SERVER
//   QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
//   endpoint.command({"SET", "precious", "data"});
//   ... versus run --servers 127.0.0.1:<endpoint.port()> --allow-flush ...
//
// useTls() before start() makes it TLS-only, as a managed service is: port 0, tls-port, and a
// certificate of the given authority in its folder; the test's own connections then use TLS.

#include "redisconnection.h"
#include "serverspec.h"
#include "tlsauthority.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <arpa/inet.h>
#include <csignal>
#include <map>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

class ForeignServer {
public:
    explicit ForeignServer(ServerSpec spec, QStringList extraArguments = {})
        : m_spec(std::move(spec)), m_extra(std::move(extraArguments))
    {
    }
    ~ForeignServer() { stop(); }
    ForeignServer(const ForeignServer &) = delete;
    ForeignServer &operator=(const ForeignServer &) = delete;

    // TLS-only with a certificate of `authority` (tls-auth-clients as given; the cluster bus too
    // when `cluster`). False when the files cannot be made.
    bool useTls(const TlsAuthority &authority, const QString &authClients = QStringLiteral("no"), bool cluster = false)
    {
        const Outcome<TlsServerFiles> files = authority.issueServerFiles(m_dir.path());
        const Outcome<TlsServerFiles> client = authority.issueClientFiles(m_dir.path(), QString());
        if (!files || !client) {
            m_error = files ? client.error() : files.error();
            return false;
        }
        m_tlsArguments = {QStringLiteral("--tls-cert-file"), files->certFile, QStringLiteral("--tls-key-file"), files->keyFile,
                          QStringLiteral("--tls-ca-cert-file"), files->caCertFile, QStringLiteral("--tls-auth-clients"), authClients};
        if (cluster)
            m_tlsArguments << QStringLiteral("--tls-cluster") << QStringLiteral("yes");
        m_tls = launchedServerTls(files.value(), client.value());
        return true;
    }
    // The same with a throwaway authority of its own.
    bool useOwnTls(const QString &authClients = QStringLiteral("no"))
    {
        Outcome<std::shared_ptr<const TlsAuthority>> made = TlsAuthority::create(QStringLiteral("foreign"));
        if (!made) {
            m_error = made.error();
            return false;
        }
        m_authority = made.value();
        return useTls(*m_authority, authClients);
    }
    // TLS-only with certificate files made elsewhere (openssl's command line); the test's own
    // connections reach it as `ownConnections` says (its CA, the name its certificate is for).
    void useTlsFiles(const TlsServerFiles &files, const TlsSettings &ownConnections)
    {
        m_tlsArguments = {QStringLiteral("--tls-cert-file"), files.certFile, QStringLiteral("--tls-key-file"), files.keyFile,
                          QStringLiteral("--tls-ca-cert-file"), files.caCertFile, QStringLiteral("--tls-auth-clients"),
                          QStringLiteral("no")};
        m_tls = ownConnections;
    }
    // How the test's own connections reach it (TLS with a client certificate of its CA).
    const TlsSettings &tls() const { return m_tls; }

    // Picks a free port and starts the server there. The port is chosen by bind-then-close, so
    // another program (a test running beside this one) may take it first: the server is ready
    // only once the one answering is this process (INFO server process_id), and a start that
    // lost its port to another server tries another one.
    bool start()
    {
        for (int attempt = 0; attempt < 5; ++attempt) {
            bool portTaken = false;
            if (startOnce(portTaken))
                return true;
            if (!portTaken)
                return false;
        }
        return false;
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        ::kill(pid_t(m_process.processId()), SIGKILL);
        m_process.waitForFinished(10000);
    }

    int port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    QString error() const { return m_error; }
    QString hostPort() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }

    // A connection of the test's own; AUTH with `password` when given.
    bool connect(RedisConnection &connection, const QString &password = {}, const QString &host = QStringLiteral("127.0.0.1")) const
    {
        if (!connection.connectTcp(host, m_port, 5000, QStringLiteral("foreign %1").arg(m_port), m_tls))
            return false;
        return password.isEmpty() || connection.auth(password);
    }

    // One command on a fresh connection; the reply's text, or "<error>" when it failed.
    QString command(const std::vector<std::string> &args, const QString &password = {}) const
    {
        RedisConnection connection;
        if (!connect(connection, password))
            return QStringLiteral("<cannot connect>");
        Outcome<Reply> reply = connection.command(args);
        if (!reply)
            return QStringLiteral("<%1>").arg(reply.error());
        if (reply->kind == Reply::Kind::Integer)
            return QString::number(reply->integer);
        return QString::fromStdString(reply->text);
    }

    // INFO server run_id: which server this is, whatever address reaches it.
    QString runId(const QString &password = {}) const
    {
        for (const QString &line : command({"INFO", "server"}, password).split(QStringLiteral("\r\n"))) {
            if (line.startsWith(QLatin1String("run_id:")))
                return line.mid(7);
        }
        return QString();
    }

    // ACL USERS; empty when it could not be asked.
    QStringList aclUsers(const QString &password = {}) const
    {
        QStringList users;
        RedisConnection connection;
        if (!connect(connection, password))
            return users;
        const Outcome<Reply> reply = connection.command({"ACL", "USERS"});
        if (reply)
            for (const Reply &user : reply->elements)
                users << QString::fromStdString(user.text);
        return users;
    }

    // CONFIG GET * as name -> value.
    std::map<QString, QString> settings(const QString &password = {}) const
    {
        std::map<QString, QString> values;
        RedisConnection connection;
        if (!connect(connection, password))
            return values;
        Outcome<Reply> reply = connection.command({"CONFIG", "GET", "*"});
        if (!reply)
            return values;
        for (size_t i = 0; i + 1 < reply->elements.size(); i += 2)
            values[QString::fromStdString(reply->elements[i].text)] = QString::fromStdString(reply->elements[i + 1].text);
        return values;
    }

private:
    bool startOnce(bool &portTaken)
    {
        m_port = freePort();
        QStringList arguments = m_spec.prefixArguments;
        if (m_tls.enabled)
            arguments << QStringLiteral("--port") << QStringLiteral("0") << QStringLiteral("--tls-port") << QString::number(m_port)
                      << m_tlsArguments << m_extra;
        else
            arguments << QStringLiteral("--port") << QString::number(m_port) << m_extra;
        m_process.setProgram(m_spec.program);
        m_process.setArguments(arguments);
        m_process.setWorkingDirectory(m_dir.path());
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.start();
        if (!m_process.waitForStarted(10000)) {
            m_error = m_process.errorString();
            return false;
        }
        const bool ready = QTest::qWaitFor([this] { return m_process.state() != QProcess::Running || answersAsOurs(); }, 10000)
                           && m_process.state() == QProcess::Running;
        if (ready)
            return true;
        const QString output = QString::fromLocal8Bit(m_process.readAll());
        portTaken = output.contains(QLatin1String("Address already in use"));
        stop();
        m_error = QStringLiteral("no answer from our server on port %1: %2").arg(m_port).arg(output);
        return false;
    }

    // The server on the port is this process: INFO server names its pid. One that needs a
    // password (--requirepass among the arguments) answers NOAUTH: then that it answers while
    // ours still runs has to do.
    bool answersAsOurs() const
    {
        RedisConnection connection;
        if (!connection.connectTcp(QStringLiteral("127.0.0.1"), m_port, 500, QStringLiteral("ping"), m_tls))
            return false;
        Outcome<Reply> reply = connection.command({"INFO", "server"});
        if (!reply)
            return false;
        if (reply->isError())
            return true;
        const QString pid = QStringLiteral("process_id:%1\r\n").arg(m_process.processId());
        return QString::fromStdString(reply->text).contains(pid);
    }

public:
    // A port nothing listens on now, from the system's ephemeral range.
    static int freePort()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof(address);
        ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address));
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
        ::close(fd);
        return ntohs(address.sin_port);
    }

private:

    ServerSpec m_spec;
    QStringList m_extra;
    QStringList m_tlsArguments;
    TlsSettings m_tls;
    std::shared_ptr<const TlsAuthority> m_authority;
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
    QString m_error;
};
