#pragma once
// The reference client: `valkey-cli --pipe` sending a RESP file into a running server, on the
// CPUs Versus gives its replay threads, so that it never shares the timed server's CPU.
// Header-only: each bench_*.cpp is its own program.

#include "benchsupport.h"
#include "cpupinning.h"
#include "serverprocess.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <vector>

namespace Bench {

// Sends `respPath` with `valkey-cli --pipe` and checks that it answered `commands` replies and
// no error; returns the wall seconds from start to exit. `label` names the server in failures.
inline double pipeInto(const QStringList &cliCommand, const ServerProcess &server, const QString &label,
                       const QString &respPath, long long commands, const std::vector<int> &clientCpus)
{
    QProcess cli;
    cli.setStandardInputFile(respPath);
    cli.setProcessChannelMode(QProcess::MergedChannels);
    // The server's password goes through the environment, never the command line.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("REDISCLI_AUTH"), server.controlCredentials().password);
    cli.setProcessEnvironment(environment);
    // Off the server's CPU, as Versus's replay threads are: sharing it would put the
    // client's time into the server's usec.
    cli.setChildProcessModifier([clientCpus] { pinToCpus(0, clientCpus); });
    QStringList arguments = cliCommand.mid(1);
    arguments << QStringLiteral("-p") << QString::number(server.port()) << QStringLiteral("--pipe");
    // A server launched TLS-only: the same CA and client certificate Versus's connections use.
    if (const TlsSettings &tls = server.tls(); tls.enabled) {
        arguments << QStringLiteral("--tls") << QStringLiteral("--cacert") << tls.caCertFile;
        if (!tls.certFile.isEmpty())
            arguments << QStringLiteral("--cert") << tls.certFile << QStringLiteral("--key") << tls.keyFile;
    }
    QElapsedTimer clock;
    clock.start();
    cli.start(cliCommand.first(), arguments);
    if (!cli.waitForFinished(600000) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0)
        fail(QStringLiteral("%1: valkey-cli --pipe failed: %2").arg(label, QString::fromLocal8Bit(cli.readAll())));
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    const QString output = QString::fromLocal8Bit(cli.readAll());
    if (!output.contains(QStringLiteral("errors: 0, replies: %1").arg(commands)))
        fail(QStringLiteral("%1: valkey-cli --pipe: unexpected summary: %2").arg(label, output.trimmed()));
    return seconds;
}

} // namespace Bench
