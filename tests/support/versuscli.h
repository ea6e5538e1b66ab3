#pragma once
// Runs the real `versus` binary ($VERSUS_BINARY, set by CTest) as a child process, the way a
// script or CI job does. Each VersusCli has its own work folder and gives the child a private
// TMPDIR, so the servers it launches and their versus-server-* folders can be found and
// counted afterwards: a server's command line carries its --dir, which lies under that TMPDIR.
//
//   VersusCli cli;
//   const VersusCli::Result r = cli.run({"run", "--workload", "hash-ttl", "--set", "keys=100"});
//   QCOMPARE(r.exitCode, 0);
//   QVERIFY(cli.leftoverServers().empty());

#include "servertesthelpers.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <optional>

class VersusCli {
public:
    struct Result {
        bool finished = false;   // false: still running when the timeout hit (then killed)
        bool crashed = false;    // ended by a signal (QProcess::CrashExit)
        int exitCode = -1;
        QString out;
        QString err;
        // For QVERIFY2 messages: what the child printed.
        QByteArray describe() const
        {
            return QStringLiteral("exit %1%2%3\n--- stdout ---\n%4\n--- stderr ---\n%5")
                .arg(exitCode)
                .arg(crashed ? QStringLiteral(" (crashed)") : QString())
                .arg(finished ? QString() : QStringLiteral(" (timed out)"))
                .arg(out.right(3000), err.right(3000))
                .toLocal8Bit();
        }
    };

    VersusCli()
    {
        m_childTemp = m_root.filePath(QStringLiteral("tmp"));
        QDir().mkpath(m_childTemp);
        m_environment = QProcessEnvironment::systemEnvironment();
        m_environment.insert(QStringLiteral("TMPDIR"), m_childTemp);
        m_environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root.filePath(QStringLiteral("runtime")));
        QDir().mkpath(m_root.filePath(QStringLiteral("runtime")));
        QFile::setPermissions(m_root.filePath(QStringLiteral("runtime")), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    ~VersusCli()
    {
        // A failed assertion may leave the child or its servers running: end them, by pid.
        if (m_process && m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(10000);
        }
        for (qint64 pid : leftoverServers())
            ::kill(pid_t(pid), SIGKILL);
    }

    static QString binary() { return qEnvironmentVariable("VERSUS_BINARY"); }

    // A path inside this test's work folder (not under the child's TMPDIR).
    QString path(const QString &name) const { return m_root.filePath(name); }
    QString childTemp() const { return m_childTemp; }
    QProcessEnvironment &environment() { return m_environment; }
    // Runs in the child between fork and exec (e.g. setrlimit).
    void setChildModifier(std::function<void()> modifier) { m_modifier = std::move(modifier); }
    // The child's stdin: these bytes, then end of file. Without either call it is an open pipe
    // that nothing is written to.
    void setStandardInput(const QByteArray &bytes) { m_input = bytes; m_inputFile.clear(); }
    // The child's stdin read from a file, e.g. a pseudo-terminal's slave (/dev/pts/N).
    void setStandardInputFile(const QString &path) { m_inputFile = path; m_input.reset(); }

    void start(const QStringList &arguments)
    {
        m_out.clear();
        m_err.clear();
        m_process = std::make_unique<QProcess>();
        m_process->setProgram(binary());
        m_process->setArguments(arguments);
        m_process->setProcessEnvironment(m_environment);
        m_process->setWorkingDirectory(m_root.path());
        if (m_modifier)
            m_process->setChildProcessModifier(m_modifier);
        if (!m_inputFile.isEmpty())
            m_process->setStandardInputFile(m_inputFile);
        QProcess *process = m_process.get();
        QObject::connect(process, &QProcess::readyReadStandardOutput, [this, process] { m_out += process->readAllStandardOutput(); });
        QObject::connect(process, &QProcess::readyReadStandardError, [this, process] { m_err += process->readAllStandardError(); });
        m_process->start();
        if (m_input && m_process->waitForStarted(10000)) {
            m_process->write(*m_input);
            m_process->closeWriteChannel();
        }
    }

    bool waitStarted() { return m_process && m_process->waitForStarted(10000); }
    bool running() const { return m_process && m_process->state() != QProcess::NotRunning; }
    qint64 pid() const { return m_process ? m_process->processId() : 0; }
    void signal(int number) const
    {
        if (running())
            ::kill(pid_t(pid()), number);
    }

    QString errSoFar() const { return QString::fromLocal8Bit(m_err); }

    // Waits until stderr matches `pattern` (or the child ends, or the timeout passes).
    bool waitForErr(const QRegularExpression &pattern, int timeoutMs = 60000)
    {
        return QTest::qWaitFor([&] { return pattern.match(errSoFar()).hasMatch() || !running(); }, timeoutMs)
            && pattern.match(errSoFar()).hasMatch();
    }

    Result finish(int timeoutMs = 180000)
    {
        Result result;
        result.finished = QTest::qWaitFor([this] { return !running(); }, timeoutMs);
        if (!result.finished) {
            m_process->kill();
            m_process->waitForFinished(10000);
        }
        m_out += m_process->readAllStandardOutput();
        m_err += m_process->readAllStandardError();
        result.crashed = m_process->exitStatus() == QProcess::CrashExit;
        result.exitCode = result.crashed ? -1 : m_process->exitCode();
        result.out = QString::fromLocal8Bit(m_out);
        result.err = QString::fromLocal8Bit(m_err);
        return result;
    }

    Result run(const QStringList &arguments, int timeoutMs = 180000)
    {
        start(arguments);
        return finish(timeoutMs);
    }

    // label -> pid, from the "<label>: started on 127.0.0.1:PORT (pid N)" lines of stderr.
    std::map<QString, qint64> serverPids() const
    {
        static const QRegularExpression started(QStringLiteral("(\\S+): started on \\S+ \\(pid (\\d+)\\)"));
        std::map<QString, qint64> pids;
        auto it = started.globalMatch(errSoFar());
        while (it.hasNext()) {
            const QRegularExpressionMatch match = it.next();
            pids[match.captured(1)] = match.captured(2).toLongLong();
        }
        return pids;
    }

    // Live server processes launched by the child (their --dir lies under its TMPDIR).
    std::vector<qint64> leftoverServers() const
    {
        std::vector<qint64> alive;
        for (qint64 pid : ServerTestHelpers::pidsMentioning(m_childTemp + QStringLiteral("/versus-server-"))) {
            if (ServerTestHelpers::processAlive(pid))
                alive.push_back(pid);
        }
        return alive;
    }

    QStringList leftoverDirs() const
    {
        return QDir(m_childTemp).entryList({QStringLiteral("versus-server-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    }

private:
    QTemporaryDir m_root;
    QString m_childTemp;
    QProcessEnvironment m_environment;
    std::function<void()> m_modifier;
    std::optional<QByteArray> m_input;
    QString m_inputFile;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_out;
    QByteArray m_err;
};

// The progress line versus run prints while a server replays: "<label>  42%  replaying".
inline QRegularExpression replayingLine(const QString &label)
{
    return QRegularExpression(QRegularExpression::escape(label) + QStringLiteral(" +\\d+%  replaying"));
}

// Fails the test when $VERSUS_BINARY is not set (it is, under CTest).
#define VERSUS_REQUIRE_BINARY()                                                                  \
    do {                                                                                         \
        if (VersusCli::binary().isEmpty() || !QFileInfo(VersusCli::binary()).isExecutable())     \
            QFAIL("VERSUS_BINARY does not name the versus executable (run the test through ctest)"); \
    } while (false)
