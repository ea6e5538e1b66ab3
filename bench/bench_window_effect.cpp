// Whether the window changes the measurement: the same run (default workload, the same
// servers, fair schedule) headless with `versus run` and from the real main window, taking
// turns: headless, window, headless, window, headless. Per server, the server time per
// command of all commands (Figures::commandTime(), "All commands") of the window's runs (their
// mean) is set against the mean of the headless runs; the headless runs' own spread (highest
// minus lowest, over their mean) is what the window's difference must stay within, on every
// server. When the headless runs themselves differ by more than kMachineDrift, the machine
// changed speed during the benchmark (this virtual machine has hours at half speed) and no
// verdict is given: a spread that wide would let any window effect pass.
//
// Usage: bench_window_effect [--servers a,b,c]    (default: valkey-8.0.1, valkey-8.1.1, valkey-9.1.x)

#include "benchsupport.h"
#include "bundlejson.h"
#include "figures.h"
#include "windowbench.h"

#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace {

constexpr int runTimeoutMs = 20 * 60 * 1000;
// Percent: wider than any spread of headless runs seen on a steady machine (13-16%).
constexpr double kMachineDrift = 25.0;

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
    std::vector<ResultsBundle> headless, windowed;
    for (int turn = 0; turn < 5; ++turn) {
        if (turn % 2 == 0)
            headless.push_back(headlessRun(chosen, dir.filePath(QStringLiteral("headless-%1.json").arg(turn))));
        else
            windowed.push_back(windowRun(window));
    }
    for (const ResultsBundle &run : windowed)
        if (run.workload.sourceSha256 != headless.front().workload.sourceSha256
            || run.workload.events != headless.front().workload.events)
            Bench::fail(QStringLiteral("the window ran another workload than versus run"));

    std::printf("µs per command, All commands, in the order run (H headless, W window)\n");
    std::printf("%-14s %9s %9s %9s %9s %9s %14s %16s\n", "server", "H1", "W1", "H2", "W2", "H3", "headless spread",
                "window vs mean");
    bool within = true;
    double worst = -100, widestSpread = 0;
    for (const QString &server : chosen) {
        std::vector<double> h, w;
        for (const ResultsBundle &run : headless)
            h.push_back(allCommandsUsec(run, server));
        for (const ResultsBundle &run : windowed)
            w.push_back(allCommandsUsec(run, server));
        const double mean = Bench::mean(h);
        const double spread = 100 * (*std::max_element(h.begin(), h.end()) - *std::min_element(h.begin(), h.end())) / mean;
        const double effect = 100 * (Bench::mean(w) - mean) / mean;
        within = within && std::abs(effect) <= spread;
        widestSpread = std::max(widestSpread, spread);
        worst = std::max(worst, std::abs(effect) - spread);
        std::printf("%-14s %9.4f %9.4f %9.4f %9.4f %9.4f %13.2f%% %+15.2f%%\n", qPrintable(server), h[0], w[0], h[1], w[1],
                    h[2], spread, effect);
    }
    if (widestSpread > kMachineDrift) {
        std::printf("the headless runs differ by up to %.1f%% (more than %.0f%%): the machine changed speed, run again\n",
                    widestSpread, kMachineDrift);
        std::printf("window_within_headless_spread: inconclusive\n");
        return 0;
    }
    std::printf("window_within_headless_spread: %s (worst margin %+.2f points)\n", within ? "yes" : "no", worst);
    return 0;
}
