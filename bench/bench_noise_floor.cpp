// The machine's own noise floor under bench_stability's measurement: the same default
// workload, the same three versions and the same number of repeats, each repeat on freshly
// started servers, but sent by the reference client (`valkey-cli --pipe`), one server after
// the other, with none of Versus's code in the timed path. Each server is timed on the CPU
// Versus gives its timed server, with valkey-cli on another CPU, and µs/command is
// Σusec / Σcalls from INFO commandstats, as in Versus.
//
// If the CV here is as large as bench_stability's, the variation belongs to the machine, not
// to Versus: nothing Versus does in a repeat can make a server's commands take less time
// than they take for the reference client at the same moment.
//
// Usage: bench_noise_floor [--repeats N] [--spacing S] [--servers a,b,c]
//   --spacing  seconds from the start of one repeat to the start of the next (default 21,
//              about what a repeat of bench_stability's run takes), so the repeats sample the
//              machine at the same pace.

#include "benchsupport.h"
#include "clipipe.h"
#include "cpupinning.h"
#include "infoparser.h"
#include "redisconnection.h"
#include "respfile.h"
#include "serverprocess.h"
#include "workloadfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

namespace {

void mustReplyOk(RedisConnection &control, const std::vector<std::string> &command, const QString &server)
{
    Outcome<Reply> reply = control.command(command);
    if (!reply || reply.value().isError())
        Bench::fail(QStringLiteral("%1: %2 failed: %3")
                        .arg(server, QString::fromStdString(command.front()),
                             reply ? QString::fromStdString(reply.value().text) : reply.error()));
}

// Σusec / Σcalls over the workload's commands. valkey-cli starts --pipe with an AUTH and ends it
// with an ECHO of its own to find the last reply; like the control connection's commands they
// are not part of the workload.
double usecPerCommand(RedisConnection &control, const QString &server, long long expectedCalls)
{
    Outcome<Reply> reply = control.command({"INFO", "commandstats"});
    if (!reply || reply.value().isError())
        Bench::fail(QStringLiteral("%1: INFO commandstats failed").arg(server));
    long long calls = 0;
    long long usec = 0;
    for (const auto &[command, stat] : parseCommandStats(QString::fromStdString(reply.value().text))) {
        if (control.sentCommands().ofRow(command) > 0 || command == QLatin1String("echo") || command == QLatin1String("auth"))
            continue;
        calls += stat.calls;
        usec += stat.usec;
    }
    if (calls != expectedCalls)
        Bench::fail(QStringLiteral("%1: commandstats counts %2 calls, the stream has %3").arg(server).arg(calls).arg(expectedCalls));
    return double(usec) / double(calls);
}

struct Options {
    int repeats = 5;
    double spacingSeconds = 21;
    QStringList labels;   // bench_stability's three versions unless --servers names others
};

Options parseOptions(const QStringList &args)
{
    Options options;
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--repeats"))
            options.repeats = args[++i].toInt();
        else if (args[i] == QLatin1String("--spacing"))
            options.spacingSeconds = args[++i].toDouble();
        else if (args[i] == QLatin1String("--servers"))
            options.labels = args[++i].split(QLatin1Char(','));
    }
    if (options.labels.isEmpty())
        options.labels = Bench::stabilityServerLabels();
    return options;
}

// Each label exactly as fetched, with the valkey-cli that came with it.
std::vector<Bench::FetchedServer> fetchedServersWithCli(const QStringList &labels)
{
    std::vector<Bench::FetchedServer> servers;
    for (const QString &label : labels) {
        const std::optional<Bench::FetchedServer> found = Bench::findServer(label);
        if (!found || found->spec.label != label)
            Bench::fail(QStringLiteral("%1 is not fetched: run scripts/fetch-servers").arg(label));
        if (found->cliCommand.isEmpty())
            Bench::fail(QStringLiteral("%1 has no cli_command in its manifest: run scripts/fetch-servers").arg(label));
        servers.push_back(*found);
    }
    return servers;
}

CpuPlan cpuPlanForServerAndClient()
{
    const std::optional<CpuPlan> allowed = CpuPlan::forThisMachine();
    if (!allowed)
        Bench::fail(QStringLiteral("this process may use fewer than two CPUs: the server and the client need one each"));
    return *allowed;
}

// The default workload, as the RESP stream valkey-cli --pipe sends.
Bench::RespFile writeDefaultWorkload(const QString &respPath)
{
    Outcome<std::shared_ptr<Workload>> made = makeWorkload(QStringLiteral("ecommerce"), {}, QString(), 0, false);
    if (!made)
        Bench::fail(made.error());
    return Bench::writeRespFile(*made.value(), respPath);
}

// One repeat's servers, each with its control connection, index for index.
struct RunningServers {
    std::vector<std::unique_ptr<ServerProcess>> processes;
    std::vector<std::unique_ptr<RedisConnection>> controls;

    explicit RunningServers(const std::vector<Bench::FetchedServer> &servers)
    {
        for (const Bench::FetchedServer &fetched : servers) {
            processes.push_back(std::make_unique<ServerProcess>(fetched.spec));
            if (Status started = processes.back()->start(); !started)
                Bench::fail(started.error());
            controls.push_back(std::make_unique<RedisConnection>());
            if (Status connected = processes.back()->connect(*controls.back(), 10000); !connected)
                Bench::fail(connected.error());
        }
    }

    // The connections close before their servers stop.
    void stop()
    {
        controls.clear();
        for (auto &process : processes)
            process->stop();
    }
};

// Sends the stream to an empty server with fresh statistics, the server pinned as Versus
// pins its timed server, and returns its µs/command.
double timeOneServer(const Bench::FetchedServer &fetched, ServerProcess &process, RedisConnection &control,
                     const CpuPlan &plan, const QString &respPath, long long commands)
{
    const QString &label = fetched.spec.label;
    mustReplyOk(control, {"FLUSHALL", "SYNC"}, label);
    mustReplyOk(control, {"CONFIG", "RESETSTAT"}, label);
    {
        CpuPinning pinning(plan, process.pid(), label);
        if (!pinning.status())
            Bench::fail(pinning.status().error());
        Bench::pipeInto(fetched.cliCommand, process, label, respPath, commands, plan.replayCpus);
    }
    return usecPerCommand(control, label, commands);
}

// usec[server][repeat]: µs/command of each server in each repeat, one server after the
// other on freshly started servers, the repeats `spacingSeconds` apart from start to start.
std::vector<std::vector<double>> timeAllRepeats(const Options &options, const std::vector<Bench::FetchedServer> &servers,
                                                const CpuPlan &plan, const QString &respPath, long long commands)
{
    std::vector<std::vector<double>> usec(servers.size());
    for (int repeat = 1; repeat <= options.repeats; ++repeat) {
        QElapsedTimer repeatClock;
        repeatClock.start();
        RunningServers running(servers);
        std::printf("repeat %d: %s\n", repeat, qPrintable(plan.describe()));
        std::fflush(stdout);
        for (size_t s = 0; s < servers.size(); ++s)
            usec[s].push_back(timeOneServer(servers[s], *running.processes[s], *running.controls[s], plan, respPath, commands));
        running.stop();
        const qint64 left = qint64(options.spacingSeconds * 1000) - repeatClock.elapsed();
        if (repeat < options.repeats && left > 0)
            QThread::msleep(static_cast<unsigned long>(left));
    }
    return usec;
}

// One row per server; returns the largest CV of µs/command.
double printRepeatTable(const std::vector<Bench::FetchedServer> &servers, const std::vector<std::vector<double>> &usec)
{
    std::printf("\n%-14s %-42s %8s %22s\n", "server", "µs/command per repeat", "CV %", "ratio to first, CV %");
    double maxCv = 0;
    for (size_t s = 0; s < servers.size(); ++s) {
        QString list;
        std::vector<double> ratios;
        for (size_t r = 0; r < usec[s].size(); ++r) {
            list += QString::number(usec[s][r], 'f', 3) + QLatin1Char(' ');
            ratios.push_back(usec[s][r] / usec[0][r]);
        }
        const double cv = Bench::cvPercent(usec[s]);
        maxCv = std::max(maxCv, cv);
        std::printf("%-14s %-42s %8.2f %22s\n", qPrintable(servers[s].spec.label), qPrintable(list), cv,
                    s == 0 ? "" : qPrintable(QString::number(Bench::cvPercent(ratios), 'f', 2)));
    }
    return maxCv;
}

bool sameOrderInEveryRepeat(const std::vector<std::vector<double>> &usec, int repeats)
{
    std::set<std::vector<size_t>> orders;
    for (int r = 0; r < repeats; ++r) {
        std::vector<size_t> order(usec.size());
        for (size_t s = 0; s < order.size(); ++s)
            order[s] = s;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return usec[a][r] < usec[b][r]; });
        orders.insert(order);
    }
    return orders.size() == 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app.arguments());
    const std::vector<Bench::FetchedServer> servers = fetchedServersWithCli(options.labels);
    const CpuPlan plan = cpuPlanForServerAndClient();

    QTemporaryDir dir;
    const QString respPath = dir.filePath(QStringLiteral("stream.resp"));
    const Bench::RespFile stream = writeDefaultWorkload(respPath);
    std::printf("workload: ecommerce, %lld events, %lld commands, sent by valkey-cli --pipe\n", stream.events,
                stream.commands);
    std::printf("%d repeats, one every %.0f s, each on freshly started servers\n\n", options.repeats,
                options.spacingSeconds);
    std::fflush(stdout);

    const std::vector<std::vector<double>> usec = timeAllRepeats(options, servers, plan, respPath, stream.commands);
    const double maxCv = printRepeatTable(servers, usec);
    std::printf("same order in every repeat: %s\n", sameOrderInEveryRepeat(usec, options.repeats) ? "yes" : "no");
    std::printf("noise_floor_max_cv_percent: %.2f\n", maxCv);
    return 0;
}
