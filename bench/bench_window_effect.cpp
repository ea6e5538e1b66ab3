// Whether the window changes the measurement: the same run (default workload, the same
// servers, fair schedule) headless with `versus run`, from the real main window, and headless
// again, in that order. Per server, the server time per command of all commands
// (Figures::commandTime(), "All commands") of the window's run is set against the mean of the
// two headless runs; the two headless runs' own difference is the paired spread. The window
// passes when its difference is within that spread on every server.
//
// Usage: bench_window_effect [--servers a,b,c]    (default: valkey-8.0.1, valkey-8.1.1, valkey-9.1.x)

#include "benchsupport.h"
#include "bundlejson.h"
#include "figures.h"
#include "windowbench.h"

#include <QProcess>
#include <QTemporaryDir>
#include <cmath>
#include <cstdio>
#include <optional>

namespace {

constexpr int runTimeoutMs = 20 * 60 * 1000;

ResultsBundle headlessRun(const QStringList &servers, const QString &out)
{
    QProcess versus;
    versus.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    versus.start(QStringLiteral(VERSUS_BINARY), {QStringLiteral("run"), QStringLiteral("--servers"),
                                                 servers.join(QLatin1Char(',')), QStringLiteral("--out"), out});
    if (!versus.waitForFinished(runTimeoutMs) || versus.exitStatus() != QProcess::NormalExit || versus.exitCode() != 0)
        Bench::fail(QStringLiteral("versus run did not finish: exit %1").arg(versus.exitCode()));
    Outcome<ResultsBundle> loaded = loadBundle(out);
    if (!loaded)
        Bench::fail(loaded.error());
    return loaded.value();
}

ResultsBundle windowRun(MainWindow &window)
{
    std::optional<ResultsBundle> result;
    QObject watcher;
    QObject::connect(&window, &MainWindow::runFinished, &watcher, [&](const ResultsBundle &bundle) { result = bundle; });
    if (!window.startRun())
        Bench::fail(QStringLiteral("the window refused to start a run"));
    QElapsedTimer clock;
    clock.start();
    while (!result && clock.elapsed() < runTimeoutMs)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    if (!result)
        Bench::fail(QStringLiteral("the window's run did not finish"));
    return *result;
}

double allCommandsUsec(const ResultsBundle &bundle, const QString &server)
{
    const FigureTable time = Figures(bundle).commandTime();
    const int all = time.categoryIndex(QStringLiteral("all"));
    if (all < 0 || !time.at(all, server).hasValue())
        Bench::fail(QStringLiteral("no µs per command for %1").arg(server));
    return time.at(all, server).value;
}

} // namespace

int main(int argc, char **argv)
{
    WindowBench::useOffscreenPlatformUnlessChosen();
    QApplication app(argc, argv);
    WindowBench::usePrivateSettingsScope();
    const QStringList wanted = WindowBench::wantedServerPrefixes(app.arguments());
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    WindowBench::waitUntilWindowIsReady(window);
    const QStringList chosen = WindowBench::checkWantedServers(window, wanted);
    QCoreApplication::processEvents();
    std::printf("servers: %s\n", qPrintable(chosen.join(QStringLiteral(", "))));

    QTemporaryDir dir;
    const ResultsBundle first = headlessRun(chosen, dir.filePath(QStringLiteral("headless-1.json")));
    const ResultsBundle windowed = windowRun(window);
    const ResultsBundle second = headlessRun(chosen, dir.filePath(QStringLiteral("headless-2.json")));
    if (windowed.workload.sourceSha256 != first.workload.sourceSha256 || windowed.workload.events != first.workload.events)
        Bench::fail(QStringLiteral("the window ran another workload than versus run"));

    std::printf("%-14s %12s %12s %12s %14s %16s\n", "server", "headless 1", "window", "headless 2", "paired spread",
                "window vs mean");
    bool within = true;
    double worst = 0;
    for (const QString &server : chosen) {
        const double a = allCommandsUsec(first, server), w = allCommandsUsec(windowed, server),
                     b = allCommandsUsec(second, server);
        const double mean = (a + b) / 2;
        const double spread = 100 * std::abs(a - b) / mean;
        const double effect = 100 * std::abs(w - mean) / mean;
        within = within && effect <= spread;
        worst = std::max(worst, effect - spread);
        std::printf("%-14s %10.4f µs %10.4f µs %10.4f µs %13.2f%% %15.2f%%\n", qPrintable(server), a, w, b, spread, effect);
    }
    std::printf("window_within_headless_spread: %s (worst margin %+.2f points)\n", within ? "yes" : "no", worst);
    return 0;
}
