// Replay throughput: the default e-commerce stream sent into one valkey-9.1 server through
// Versus's replay (replayPass on one connection, the engine's own code) and through
// `valkey-cli --pipe` reading the same RESP bytes from a file. The runs alternate, each on a
// server emptied with FLUSHALL SYNC, and the ratio uses Versus with a large batch: --pipe
// streams everything without waiting, which only a deep pipeline can be compared with.
//
// Usage: bench_replay_throughput [--runs N] [--events N]

#include "benchsupport.h"
#include "passreplayer.h"
#include "redisconnection.h"
#include "respfile.h"
#include "serverprocess.h"
#include "workloadfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>

namespace {

struct Figures {
    double commandsPerSecond = 0;
    long long commands = 0;
    double seconds = 0;
};

void flushAll(RedisConnection &control)
{
    Outcome<Reply> reply = control.command({"FLUSHALL", "SYNC"});
    if (!reply || reply.value().isError())
        Bench::fail(QStringLiteral("FLUSHALL SYNC failed: %1").arg(reply ? QString::fromStdString(reply.value().text) : reply.error()));
}

long long dbsize(RedisConnection &control)
{
    Outcome<Reply> reply = control.command({"DBSIZE"});
    return reply ? reply.value().integer : -1;
}

Figures runVersus(const Workload &workload, const ServerProcess &server, int eventsPerBatch)
{
    RedisConnection connection;
    if (Status connected = server.connect(connection, 10000); !connected)
        Bench::fail(connected.error());
    PassOptions options;
    options.eventsPerBatch = eventsPerBatch;
    QElapsedTimer clock;
    clock.start();
    Outcome<PassResult> pass = replayPass(workload, connection, options);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!pass)
        Bench::fail(pass.error());
    if (!pass.value().errors.empty())
        Bench::fail(QStringLiteral("the server answered errors: %1").arg(pass.value().errors.begin()->first));
    return {double(pass.value().commands) / seconds, pass.value().commands, seconds};
}

Figures runCli(const QStringList &cliCommand, const ServerProcess &server, const QString &respFile, long long commands)
{
    const int port = server.port();
    QProcess cli;
    // The server's password goes through the environment, never the command line.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("REDISCLI_AUTH"), server.controlCredentials().password);
    cli.setProcessEnvironment(environment);
    QStringList arguments = cliCommand.mid(1);
    arguments << QStringLiteral("-p") << QString::number(port) << QStringLiteral("--pipe");
    cli.setStandardInputFile(respFile);
    cli.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer clock;
    clock.start();
    cli.start(cliCommand.first(), arguments);
    if (!cli.waitForFinished(600000) || cli.exitCode() != 0)
        Bench::fail(QStringLiteral("valkey-cli --pipe failed: %1").arg(QString::fromLocal8Bit(cli.readAll())));
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    const QString output = QString::fromLocal8Bit(cli.readAll());
    if (!output.contains(QStringLiteral("errors: 0, replies: %1").arg(commands)))
        Bench::fail(QStringLiteral("valkey-cli --pipe: unexpected summary: %1").arg(output.trimmed()));
    return {double(commands) / seconds, commands, seconds};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int runs = 5;
    long long events = 0;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs"))
            runs = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--events"))
            events = args[i + 1].toLongLong();
    }

    const std::optional<Bench::FetchedServer> fetched = Bench::findServer(QStringLiteral("valkey-9.1."));
    if (!fetched)
        Bench::fail(QStringLiteral("no valkey-9.1.x in %1: run scripts/fetch-servers").arg(Bench::serverCacheDir()));
    if (fetched->cliCommand.isEmpty())
        Bench::fail(QStringLiteral("%1 has no cli_command in its manifest: run scripts/fetch-servers").arg(fetched->spec.label));

    Outcome<std::shared_ptr<Workload>> made = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), events, false);
    if (!made)
        Bench::fail(made.error());
    const Workload &workload = *made.value();

    // The same bytes Versus sends, written once for valkey-cli.
    QTemporaryDir dir;
    const QString respPath = dir.filePath(QStringLiteral("stream.resp"));
    const Bench::RespFile written = Bench::writeRespFile(workload, respPath);
    const long long commands = written.commands;
    const long long eventCount = written.events;
    std::printf("workload: ecommerce, %lld events, %lld commands, %.1f MB of RESP\n", eventCount, commands,
                double(QFileInfo(respPath).size()) / 1e6);

    ServerProcess server(fetched->spec);
    if (Status started = server.start(); !started)
        Bench::fail(started.error());
    RedisConnection control;
    if (Status connected = server.connect(control, 10000); !connected)
        Bench::fail(connected.error());
    std::printf("server: %s on port %d\n\n", qPrintable(fetched->spec.label), server.port());

    std::vector<double> single, batched, pipe, ratios;
    std::printf("%-4s %18s %18s %18s %8s\n", "run", "versus batch=1", "versus batch=256", "valkey-cli --pipe", "ratio");
    for (int run = 1; run <= runs; ++run) {
        flushAll(control);
        const Figures a1 = runVersus(workload, server, 1);
        const long long keysVersus = dbsize(control);
        flushAll(control);
        const Figures a256 = runVersus(workload, server, 256);
        flushAll(control);
        const Figures b = runCli(fetched->cliCommand, server, respPath, commands);
        const long long keysCli = dbsize(control);
        if (keysVersus != keysCli)
            Bench::fail(QStringLiteral("DBSIZE differs: %1 after Versus, %2 after valkey-cli").arg(keysVersus).arg(keysCli));
        single.push_back(a1.commandsPerSecond);
        batched.push_back(a256.commandsPerSecond);
        pipe.push_back(b.commandsPerSecond);
        ratios.push_back(a256.commandsPerSecond / b.commandsPerSecond);
        std::printf("%-4d %14.0f c/s %14.0f c/s %14.0f c/s %8.3f\n", run, a1.commandsPerSecond, a256.commandsPerSecond,
                    b.commandsPerSecond, ratios.back());
        std::fflush(stdout);
    }
    server.stop();

    std::printf("\nmedian commands/s: versus batch=1 %.0f, versus batch=256 %.0f, valkey-cli --pipe %.0f\n",
                Bench::median(single), Bench::median(batched), Bench::median(pipe));
    std::printf("median ratio batch=1 / pipe: %.3f (one event per pipeline, as an application sends it)\n",
                Bench::median(single) / Bench::median(pipe));
    std::printf("replay_vs_valkey_cli_pipe_ratio: %.3f\n", Bench::median(ratios));
    return 0;
}
