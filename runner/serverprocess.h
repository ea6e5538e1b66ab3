#pragma once
// One launched server: private temp dir, no persistence, loopback on a free port,
// log captured, ready when it answers PING, and it dies with Versus (PR_SET_PDEATHSIG).
// Lives in the thread that created it; start() and stop() block, so call them off the GUI thread.

#include "outcome.h"
#include "serverspec.h"
#include <QString>
#include <QStringList>
#include <memory>

class QProcess;
class QTemporaryDir;

class ServerProcess {
public:
    explicit ServerProcess(ServerSpec spec);
    ~ServerProcess();   // stops the server if still running
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    // Picks a free port, starts, waits for PING. Retries on another port when the port was
    // taken between choosing and binding. On failure the message carries the log tail.
    Status start(int readyTimeoutMs = 10000);
    // SHUTDOWN NOSAVE, then terminate, then kill.
    void stop();

    bool isRunning() const;
    qint64 pid() const;
    QString host() const { return QStringLiteral("127.0.0.1"); }
    int port() const { return m_port; }
    const ServerSpec &spec() const { return m_spec; }
    QString logPath() const;
    QStringList logTail(int lines = 20) const;

private:
    ServerSpec m_spec;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
};
