// Scale: `versus generate` writes 20k, 200k and 2M events; each file is then replayed by a
// fresh process (this program with --replay) into one valkey-9.1 server through the engine's
// replayPass, streaming the file. Reported per size: generation time, replay time, commands/s
// and that process's peak RSS (VmHWM), so the growth of time and memory can be read off.
// Shoppers grow with the events (1500 per 20k events, the built-in recording's ratio), so the
// keys grow and each key's contents do not: the server's cost per command stays the same.
// Versus's CPU time is reported beside the wall time: the client's own share of the replay.
// The timed pass is measured (the per-type memory passes replay the same stream again, with
// the same streaming source; at 2M events the whole pipeline takes too long for a benchmark).
//
// Usage: bench_scale [--sizes 20000,200000,2000000] [--batch N]
//   --batch   events per pipeline in the replay (default 64: time grows the same way with
//             any batch, and a batch of 1 makes the 2M replay last many minutes here).

#include "benchsupport.h"
#include "passreplayer.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "workloadfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/resource.h>

namespace {

int replayOnce(const QString &file, int batch)
{
    const std::optional<Bench::FetchedServer> fetched = Bench::findServer(QStringLiteral("valkey-9.1."));
    if (!fetched)
        Bench::fail(QStringLiteral("no valkey-9.1.x fetched: run scripts/fetch-servers"));
    ServerProcess server(fetched->spec);
    if (Status started = server.start(); !started)
        Bench::fail(started.error());
    QElapsedTimer clock;
    clock.start();
    Outcome<std::shared_ptr<Workload>> made = makeWorkload(file, {}, QString(), 0, false);
    if (!made)
        Bench::fail(made.error());
    const double openSeconds = double(clock.nsecsElapsed()) / 1e9;
    RedisConnection connection;
    if (Status connected = server.connect(connection, 30000); !connected)
        Bench::fail(connected.error());
    PassOptions options;
    options.eventsPerBatch = batch;
    clock.restart();
    Outcome<PassResult> pass = replayPass(*made.value(), connection, options);
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!pass)
        Bench::fail(pass.error());
    server.stop();
    std::printf("replay events=%lld commands=%lld open_s=%.3f replay_s=%.3f cpu_s=%.3f peak_rss_kb=%lld\n",
                pass.value().events, pass.value().commands, openSeconds, seconds, Bench::cpuMs() / 1000.0,
                Bench::procStatusKb("VmHWM"));
    return 0;
}

QString field(const QString &line, const QString &name)
{
    return line.section(name + QLatin1Char('='), 1).section(QLatin1Char(' '), 0, 0);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList sizes = {QStringLiteral("20000"), QStringLiteral("200000"), QStringLiteral("2000000")};
    int batch = 64;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--replay"))
            return replayOnce(args[i + 1], i + 2 < args.size() ? args[i + 2].toInt() : batch);
        if (args[i] == QLatin1String("--sizes"))
            sizes = args[i + 1].split(QLatin1Char(','));
        else if (args[i] == QLatin1String("--batch"))
            batch = args[i + 1].toInt();
    }

    QTemporaryDir dir;
    std::printf("%10s %12s %10s %10s %12s %14s %12s %10s\n", "events", "commands", "gen s", "replay s", "commands/s",
                "CPU µs/command", "peak RSS MB", "file MB");
    double rssAtLargest = 0;
    for (const QString &size : sizes) {
        const QString file = dir.filePath(QStringLiteral("events-%1.jsonl").arg(size));
        QElapsedTimer clock;
        clock.start();
        QProcess generate;
        generate.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString shoppers = QString::number(std::max(1LL, size.toLongLong() * 1500 / 20000));
        generate.start(QStringLiteral(VERSUS_BINARY), {QStringLiteral("generate"), QStringLiteral("--events"), size,
                                                       QStringLiteral("--shoppers"), shoppers, QStringLiteral("--out"), file});
        if (!generate.waitForFinished(-1) || generate.exitCode() != 0)
            Bench::fail(QStringLiteral("versus generate --events %1 failed").arg(size));
        const double genSeconds = double(clock.nsecsElapsed()) / 1e9;

        QProcess replay;
        replay.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        replay.start(QCoreApplication::applicationFilePath(),
                     {QStringLiteral("--replay"), file, QString::number(batch)});
        if (!replay.waitForFinished(-1) || replay.exitCode() != 0)
            Bench::fail(QStringLiteral("replay of %1 events failed").arg(size));
        const QString line = QString::fromLocal8Bit(replay.readAllStandardOutput()).trimmed();
        const double replaySeconds = field(line, QStringLiteral("replay_s")).toDouble();
        const long long commands = field(line, QStringLiteral("commands")).toLongLong();
        const double rssMb = field(line, QStringLiteral("peak_rss_kb")).toDouble() / 1024.0;
        rssAtLargest = rssMb;
        const double cpuSeconds = field(line, QStringLiteral("cpu_s")).toDouble();
        std::printf("%10s %12lld %10.1f %10.1f %12.0f %14.3f %12.1f %10.1f\n", qPrintable(size), commands, genSeconds,
                    replaySeconds, double(commands) / replaySeconds, cpuSeconds * 1e6 / double(commands), rssMb,
                    double(QFileInfo(file).size()) / 1e6);
        std::fflush(stdout);
        QFile::remove(file);
    }
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    std::printf("largest peak RSS of any versus generate or replay child: %.1f MB\n", double(usage.ru_maxrss) / 1024.0);
    std::printf("batch: %d events per pipeline\n", batch);
    std::printf("peak_rss_mb_at_2m_events: %.0f\n", rssAtLargest);
    return 0;
}
