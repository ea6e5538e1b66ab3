// Replay throughput: the default e-commerce stream sent into one valkey-9.1 server through
// Versus's replay (replayPass on one connection, the engine's own code) and through
// `valkey-cli --pipe` reading the same RESP bytes from a file. The runs alternate, each on a
// server emptied with FLUSHALL SYNC, and the ratio uses Versus with a large batch: --pipe
// streams everything without waiting, which only a deep pipeline can be compared with.
// For each timed pass it also reports how busy the server's main thread was: the CPU time
// of /proc/<pid>/task/<pid>/stat (utime + stime, in clock ticks of 10 ms) over the pass's wall
// time. A client that keeps the server busy brings that near 100%. Beside it, how busy the
// client was: this process's CPU time (every thread) plus that of the children reaped meanwhile
// (valkey-cli), over the same wall time; a client near 100% is the bottleneck itself.
// Both clients run as a run's replay does: the server pinned to its own CPU, the client on the
// others, with Versus waiting for replies as a pinned pass waits. On a virtual machine one CPU
// can run at half the other's speed for minutes, so each CPU's speed is probed before and after.
//
// Usage: bench_replay_throughput [--runs N] [--events N] [--clients N] [--tls] [--write-resp FILE]
//   --clients N        Versus's runs over N connections (lanes), each command on its key's lane.
//   --tls              the server is launched TLS-only (a throwaway certificate, as `versus run
//                      --tls` launches it); Versus and valkey-cli --tls both connect over TLS.
//                      valkey-cli must be built with TLS (Debian's is; upstream BUILD_TLS=yes).
//   --write-resp FILE  only write the workload's RESP bytes to FILE, for a check by other tools
//                      (scripts/check-memory), and exit.

#include "benchsupport.h"
#include "clipipe.h"
#include "cpupinning.h"
#include "cpuspeed.h"
#include "keyrouting.h"
#include "passreplayer.h"
#include "redisconnection.h"
#include "respfile.h"
#include "serverprocess.h"
#include "workloadfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

namespace {

struct Figures {
    double commandsPerSecond = 0;
    long long commands = 0;
    double seconds = 0;
    double serverBusy = 0;   // the server's main thread: CPU seconds over wall seconds
    double clientBusy = 0;   // the client (Versus, or valkey-cli): CPU seconds over wall seconds
};

// CPU seconds of this process and of its children reaped so far (valkey-cli, once finished).
double clientCpuSeconds()
{
    double seconds = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage usage{};
        ::getrusage(who, &usage);
        for (const timeval &part : {usage.ru_utime, usage.ru_stime})
            seconds += double(part.tv_sec) + double(part.tv_usec) / 1e6;
    }
    return seconds;
}

// CPU seconds the thread `pid` of process `pid` (a process's main thread) used so far.
double mainThreadCpuSeconds(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/task/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        Bench::fail(QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString()));
    const QByteArray text = file.readAll();
    // "pid (comm) state ppid …": comm may hold spaces, so count fields after the last ')'.
    // utime and stime are fields 14 and 15, the 12th and 13th after it.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        Bench::fail(QStringLiteral("%1: unexpected content").arg(file.fileName()));
    const double ticks = fields.at(11).toDouble() + fields.at(12).toDouble();
    return ticks / double(::sysconf(_SC_CLK_TCK));
}

// Every run's figures, in run order; busy in percent.
struct Runs {
    std::vector<double> single, batched, pipe, ratios, singleBusy, batchedBusy, pipeBusy;
    std::vector<double> singleClient, batchedClient, pipeClient;

    // One run: Versus at one and at 256 events per pipeline, and valkey-cli --pipe; printed.
    void add(int run, const Figures &one, const Figures &batch, const Figures &cli)
    {
        single.push_back(one.commandsPerSecond);
        batched.push_back(batch.commandsPerSecond);
        pipe.push_back(cli.commandsPerSecond);
        singleBusy.push_back(100 * one.serverBusy);
        batchedBusy.push_back(100 * batch.serverBusy);
        pipeBusy.push_back(100 * cli.serverBusy);
        singleClient.push_back(100 * one.clientBusy);
        batchedClient.push_back(100 * batch.clientBusy);
        pipeClient.push_back(100 * cli.clientBusy);
        ratios.push_back(batch.commandsPerSecond / cli.commandsPerSecond);
        std::printf("%-4d %9.0f c/s (%3.0f%% %3.0f%%) %9.0f c/s (%3.0f%% %3.0f%%) %9.0f c/s (%3.0f%% %3.0f%%) %8.3f\n", run,
                    one.commandsPerSecond, singleBusy.back(), singleClient.back(), batch.commandsPerSecond,
                    batchedBusy.back(), batchedClient.back(), cli.commandsPerSecond, pipeBusy.back(), pipeClient.back(),
                    ratios.back());
        std::fflush(stdout);
    }
};

// Measures the server's main thread and the client around `timed`, which returns the pass's figures.
template <typename Pass>
Figures withServerBusy(const ServerProcess &server, const CpuPlan &plan, Pass timed)
{
    // Pinned as a run pins its timed server: the server on its CPU, this thread (the replay's,
    // whose affinity valkey-cli's modifier replaces) on the others.
    CpuPinning pinning(plan, server.pid(), QStringLiteral("the server"));
    if (!pinning.status())
        Bench::fail(pinning.status().error());
    const double serverBefore = mainThreadCpuSeconds(server.pid());
    const double clientBefore = clientCpuSeconds();
    Figures figures = timed();
    const double clientUsed = clientCpuSeconds() - clientBefore;
    const double serverUsed = mainThreadCpuSeconds(server.pid()) - serverBefore;
    figures.serverBusy = figures.seconds > 0 ? serverUsed / figures.seconds : 0;
    figures.clientBusy = figures.seconds > 0 ? clientUsed / figures.seconds : 0;
    return figures;
}

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

// `routing` (a standalone server's lanes) when `clients` is more than 1.
Figures runVersus(const Workload &workload, const ServerProcess &server, int eventsPerBatch, int clients,
                  const ClusterRouting *routing)
{
    std::vector<std::unique_ptr<RedisConnection>> connections;
    std::vector<RedisConnection *> lanes;
    for (int lane = 0; lane < clients; ++lane) {
        connections.push_back(std::make_unique<RedisConnection>());
        if (Status connected = server.connect(*connections.back(), 10000); !connected)
            Bench::fail(connected.error());
        lanes.push_back(connections.back().get());
    }
    PassOptions options;
    options.eventsPerBatch = eventsPerBatch;
    options.lanes = clients;
    options.routing = clients > 1 ? routing : nullptr;
    options.spinForReplies = true;   // as in a run: the caller pins this thread off the server's CPU
    QElapsedTimer clock;
    clock.start();
    Outcome<PassResult> pass = replayPass(workload, lanes, options);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!pass)
        Bench::fail(pass.error());
    if (!pass.value().errors.empty())
        Bench::fail(QStringLiteral("the server answered errors: %1").arg(pass.value().errors.begin()->first));
    return {double(pass.value().commands) / seconds, pass.value().commands, seconds};
}

// valkey-cli on the replay's CPUs and the server on its own, as a run pins its timed server.
Figures runCli(const QStringList &cliCommand, const ServerProcess &server, const QString &respFile, long long commands,
               const CpuPlan &plan)
{
    const double seconds = Bench::pipeInto(cliCommand, server, QStringLiteral("the server"), respFile, commands,
                                           plan.replayCpus);
    return {double(commands) / seconds, commands, seconds};
}

// The medians of all runs; the last line is the benchmark's figure.
void printSummary(const Runs &all)
{
    const std::vector<double> &single = all.single, &batched = all.batched, &pipe = all.pipe, &ratios = all.ratios;
    const std::vector<double> &singleBusy = all.singleBusy, &batchedBusy = all.batchedBusy, &pipeBusy = all.pipeBusy;
    std::printf("\nmedian commands/s: versus batch=1 %.0f, versus batch=256 %.0f, valkey-cli --pipe %.0f\n",
                Bench::median(single), Bench::median(batched), Bench::median(pipe));
    std::printf("median busy of the server's main thread during the timed pass: versus batch=1 %.1f%%, "
                "versus batch=256 %.1f%%, valkey-cli --pipe %.1f%% (CPU time in 10 ms ticks over wall time)\n",
                Bench::median(singleBusy), Bench::median(batchedBusy), Bench::median(pipeBusy));
    std::printf("median busy of the client (CPU time of every thread over wall time): versus batch=1 %.1f%%, "
                "versus batch=256 %.1f%%, valkey-cli --pipe %.1f%%\n",
                Bench::median(all.singleClient), Bench::median(all.batchedClient), Bench::median(all.pipeClient));
    std::printf("server_busy_percent_at_batch_256: %.1f\n", Bench::median(batchedBusy));
    std::printf("median ratio batch=1 / pipe: %.3f (one event per pipeline, as an application sends it)\n",
                Bench::median(single) / Bench::median(pipe));
    std::printf("replay_vs_valkey_cli_pipe_ratio: %.3f\n", Bench::median(ratios));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int runs = 5;
    long long events = 0;
    int clients = 1;
    bool tls = false;
    QString writeRespOnly;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs"))
            runs = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--events"))
            events = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--clients"))
            clients = std::max(1, args[i + 1].toInt());
        else if (args[i] == QLatin1String("--write-resp"))
            writeRespOnly = args[i + 1];
    }
    tls = args.contains(QLatin1String("--tls"));
    if (!writeRespOnly.isEmpty()) {
        Outcome<std::shared_ptr<Workload>> made = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), events, false);
        if (!made)
            Bench::fail(made.error());
        const Bench::RespFile written = Bench::writeRespFile(*made.value(), writeRespOnly);
        std::printf("%lld events, %lld commands\n", written.events, written.commands);
        return 0;
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

    ServerSpec spec = fetched->spec;
    spec.tls.enabled = tls;
    ServerProcess server(spec);
    if (Status started = server.start(); !started)
        Bench::fail(started.error());
    RedisConnection control;
    if (Status connected = server.connect(control, 10000); !connected)
        Bench::fail(connected.error());
    std::printf("server: %s on port %d, %s\n\n", qPrintable(fetched->spec.label), server.port(),
                tls ? "TLS only (a throwaway certificate), every client over TLS" : "plain TCP");

    std::printf("server main thread: pid %lld; Versus with %d client(s)\n\n", server.pid(), clients);
    KeyRouting lanes;
    if (clients > 1) {
        if (Status routed = lanes.prepare(control, workload, nullptr, false, fetched->spec.label); !routed)
            Bench::fail(routed.error());
    }
    const std::optional<CpuPlan> planned = CpuPlan::forThisMachine();
    if (!planned)
        Bench::fail(QStringLiteral("this process may use fewer than two CPUs: the server and the client need one each"));
    const CpuPlan &plan = *planned;
    std::printf("%s, as in a run\n", qPrintable(plan.describe()));
    const std::vector<Bench::CpuSpeed> speedsBefore = Bench::cpuSpeeds();
    std::printf("speed of each CPU before the runs: %s\n", qPrintable(Bench::describeCpuSpeeds(speedsBefore)));
    Runs all;
    std::printf("busy: the server's main thread, then the client, in percent of the pass's wall time\n");
    std::printf("%-4s %25s %25s %25s %8s\n", "run", "versus batch=1 (busy)", "versus batch=256 (busy)",
                "valkey-cli --pipe (busy)", "ratio");
    for (int run = 1; run <= runs; ++run) {
        flushAll(control);
        const Figures a1 = withServerBusy(server, plan, [&] { return runVersus(workload, server, 1, clients, lanes.routing()); });
        const long long keysVersus = dbsize(control);
        flushAll(control);
        const Figures a256 = withServerBusy(server, plan, [&] { return runVersus(workload, server, 256, clients, lanes.routing()); });
        flushAll(control);
        const Figures b = withServerBusy(server, plan, [&] { return runCli(fetched->cliCommand, server, respPath, commands, plan); });
        const long long keysCli = dbsize(control);
        if (keysVersus != keysCli)
            Bench::fail(QStringLiteral("DBSIZE differs: %1 after Versus, %2 after valkey-cli").arg(keysVersus).arg(keysCli));
        all.add(run, a1, a256, b);
    }
    server.stop();
    const std::vector<Bench::CpuSpeed> speedsAfter = Bench::cpuSpeeds();
    std::printf("speed of each CPU after the runs: %s\n", qPrintable(Bench::describeCpuSpeeds(speedsAfter)));
    if (Bench::unevenCpus(speedsBefore) || Bench::unevenCpus(speedsAfter))
        std::printf("the CPUs ran at uneven speeds: these figures depend on which CPU the server had and compare only "
                    "with figures taken at the same speeds\n");

    printSummary(all);
    return 0;
}
