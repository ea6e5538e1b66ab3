#pragma once
// One launched server: private temp dir, no persistence, loopback on a free port,
// log captured, ready when it answers PING after accepting a password given to it at this start
// (so a server of someone else's that took the port first is never taken for it), and it dies
// with Versus (PR_SET_PDEATHSIG).
// Lives in the thread that created it; start() and stop() block, so call them off the GUI thread.
//
// The thread that calls start() must outlive the server: Linux delivers the parent-death
// signal when the *thread* that forked the child ends, not only when the process does.
//
// The temp dir is QDir::tempPath()/versus-server-XXXXXX and holds owner.pid (Versus's pid,
// for cleanStaleServerDirs()), server.log (the server's own log), console.log (its
// stdout/stderr, where start-up errors such as a bad argument go) and versus.conf (mode 0600,
// the server's first argument: the default user's random password and the replay user,
// launchconfig.h). A TLS-only server (spec.tls.enabled) also finds there ca.crt, server.crt and
// server.key, and Versus client.crt and client.key (all 0600, tlsauthority.h), listens on tls-port alone (port 0) and accepts clients
// without a certificate (tls-auth-clients no). It is removed by stop().
//
// Nobody reaches the server without a password: connect() authenticates as the default user
// (Versus's control connections); the replay connections use replayCredentials().
//
// The program may be a wrapper script that starts the server as its own child. So it runs in a
// session and process group of its own, which stop() and every failed start end as a whole, and
// a guardian in that group ends it when Versus dies, even by SIGKILL (groupguardian.h). Once the
// server answers, its real pid is read from INFO server's process_id: pid() is that pid (the one
// CPU pinning pins), and pidNote() says when it differs from the launched one or cannot be used.

#include "launchconfig.h"
#include "outcome.h"
#include "groupguardian.h"
#include "serverspec.h"
#include "tlsauthority.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

class QProcess;
class QTemporaryDir;
class RedisConnection;

class ServerProcess {
public:
    explicit ServerProcess(ServerSpec spec);
    ~ServerProcess();   // stops the server if still running
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    // Arguments appended after Versus's own (e.g. {"--maxmemory", "1gb"}); set before start().
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }
    // A cluster node: cluster-enabled, its nodes.conf in the temp dir, and a cluster bus on a
    // free port of its own (busPort()), not port + 10000, which may be taken or past 65535.
    // Set before start().
    void setClusterNode(bool enabled) { m_clusterNode = enabled; }
    int busPort() const { return m_busPort; }
    // TLS-only (the spec's tls.enabled): the authority that signs this server's certificate; one
    // of its own is made at start() when none is set. Set before start().
    void setTlsAuthority(std::shared_ptr<const TlsAuthority> authority) { m_tlsAuthority = std::move(authority); }
    // How to connect to this server: plain, or TLS checked against its CA (in its temp dir).
    const TlsSettings &tls() const { return m_tls; }

    // Picks a free port, starts, waits until the server on it accepts this start's password and
    // answers PING. Retries on another port when the port was taken between choosing and
    // binding. On failure the message carries the log tail.
    Status start(int readyTimeoutMs = 10000);
    // SHUTDOWN NOSAVE, then terminate, then kill; always reaps the process and removes the
    // temp dir. Safe to call more than once.
    void stop();

    // False once the process has exited for any reason (also when it was killed behind our back).
    bool isRunning() const;
    // "exited with code 1", "crashed or was killed", or empty while running / never started.
    QString exitDescription() const;
    // The server's own pid (INFO process_id) once it answered and that process is in the group
    // Versus started; the launched pid before that; 0 when the server's pid cannot be pinned.
    qint64 pid() const;
    // The pid of the program Versus started (the wrapper, when there is one).
    qint64 launchedPid() const;
    // Empty when the launched program is the server; otherwise what pid() is and why, e.g.
    // "started through a wrapper (pid 12): the server is pid 14, whose CPU is pinned".
    QString pidNote() const { return m_pidNote; }
    QString host() const { return QStringLiteral("127.0.0.1"); }
    int port() const { return m_port; }
    // "valkey-8.0.1 (127.0.0.1:40123)": the name to give connections to this server.
    QString connectionName() const;
    // Connects `connection` to this server, named connectionName(), authenticated as the
    // default user.
    Status connect(RedisConnection &connection, int timeoutMs) const;
    // The default user (control connections) and the replay user, fresh for every start().
    const Credentials &controlCredentials() const { return m_config.control; }
    const Credentials &replayCredentials() const { return m_config.replay; }
    QString configPath() const;
    QString logPath() const;
    QString tempDirPath() const;
    // The last lines of the console output and the server log; after stop() the lines as
    // they were just before the temp dir was removed.
    QStringList logTail(int lines = 20) const;

    // Test hook: called with each chosen port just before the server is launched on it,
    // so a test can take the port in between. `attempt` counts from 0.
    void setPortChosenHookForTesting(std::function<void(int port, int attempt)> hook) { m_portChosenHook = std::move(hook); }

private:
    Status prepareTempDir();
    Status prepareTls();
    QStringList tlsArguments(int port) const;
    Status launchOnce(int port, int readyTimeoutMs, bool *portTaken);
    QStringList serverArguments(int port) const;
    QStringList readLogLines() const;
    void finishProcess();
    void endGroup();
    bool answersAsOurs(RedisConnection &connection, QString *lastAnswer);
    void findServerPid(RedisConnection &connection);

    ServerSpec m_spec;
    QStringList m_extraArguments;
    bool m_clusterNode = false;
    int m_busPort = 0;
    std::shared_ptr<const TlsAuthority> m_tlsAuthority;
    TlsServerFiles m_tlsFiles;
    TlsSettings m_tls;
    LaunchConfig m_config;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
    GroupGuardian m_guardian;
    qint64 m_group = 0;
    qint64 m_serverPid = -1;   // -1: not read yet (pid() is the launched one)
    QString m_pidNote;
    QStringList m_finalLogLines;
    std::function<void(int, int)> m_portChosenHook;
};
