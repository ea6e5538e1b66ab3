// Window responsiveness: the real main window (offscreen platform unless QT_QPA_PLATFORM is
// set) runs the default workload on 3 server versions, as a user would start it. A 10 ms
// timer in the GUI thread records how late it fires; the longest lateness is the longest
// event-loop stall. Each ChartWidget's applied() signal counts live chart refreshes.
//
// Usage: bench_gui_stall [--servers a,b,c]    (default: valkey-8.0.1, valkey-8.1.1, valkey-9.1.x)

#include "benchsupport.h"
#include "chartwidget.h"
#include "mainwindow.h"
#include "serverspanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <cstdio>
#include <map>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // A private settings scope: the benchmark must not change the user's saved choices.
    QApplication::setOrganizationName(QStringLiteral("versus-bench"));
    QApplication::setApplicationName(QStringLiteral("versus-bench"));
    QStringList wanted = {QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-8.1.1"), QStringLiteral("valkey-9.1.")};
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i)
        if (args[i] == QLatin1String("--servers"))
            wanted = args[i + 1].split(QLatin1Char(','));

    MainWindow window;
    window.resize(1400, 900);
    window.show();

    QElapsedTimer guard;
    guard.start();
    while ((window.serversPanel()->isDiscovering() || !window.isReady()) && guard.elapsed() < 30000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QStringList chosen;
    for (const QString &label : window.serversPanel()->labels()) {
        bool take = false;
        for (const QString &prefix : wanted)
            take = take || label.startsWith(prefix);
        window.serversPanel()->setChecked(label, take);
        if (take)
            chosen << label;
    }
    if (chosen.size() != wanted.size())
        Bench::fail(QStringLiteral("wanted %1, the window offers %2").arg(wanted.join(QLatin1Char(',')),
                                                                        window.serversPanel()->labels().join(QLatin1Char(','))));
    QCoreApplication::processEvents();
    std::printf("servers: %s\n", qPrintable(chosen.join(QStringLiteral(", "))));

    // Stall probe: a 10 ms repeating timer; lateness = time between firings minus 10 ms.
    QElapsedTimer probeClock;
    double maxStallMs = 0;
    std::vector<double> stalls;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    qint64 last = -1;
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = probeClock.nsecsElapsed();
        if (last >= 0) {
            const double late = double(now - last) / 1e6 - 10.0;
            stalls.push_back(late);
            maxStallMs = std::max(maxStallMs, late);
        }
        last = now;
    });

    std::map<ChartWidget *, int> refreshes;
    bool finished = false;
    bool failed = false;
    QElapsedTimer runClock;
    QObject::connect(&window, &MainWindow::runNotStarted, [&](const QString &reason) {
        std::fprintf(stderr, "run not started: %s\n", qPrintable(reason));
        failed = true;
    });
    QObject::connect(&window, &MainWindow::runFinished, [&](const ResultsBundle &) { finished = true; });
    auto hookCharts = [&] {
        for (ChartWidget *chart : window.findChildren<ChartWidget *>()) {
            if (refreshes.count(chart))
                continue;
            refreshes[chart] = 0;
            QObject::connect(chart, &ChartWidget::applied, [&refreshes, chart] { ++refreshes[chart]; });
        }
    };
    hookCharts();
    probeClock.start();
    probe.start();
    runClock.start();
    if (!window.startRun())
        Bench::fail(QStringLiteral("the window refused to start a run"));
    QTimer rehook;
    QObject::connect(&rehook, &QTimer::timeout, hookCharts);
    rehook.start(250);
    while (!finished && !failed && runClock.elapsed() < 20 * 60 * 1000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    const double runSeconds = double(runClock.nsecsElapsed()) / 1e9;
    probe.stop();
    if (!finished)
        Bench::fail(QStringLiteral("the run did not finish"));

    int most = 0;
    int total = 0;
    for (const auto &entry : refreshes) {
        most = std::max(most, entry.second);
        total += entry.second;
    }
    std::sort(stalls.begin(), stalls.end());
    const auto pct = [&](double f) { return stalls.empty() ? 0.0 : stalls[size_t(f * double(stalls.size() - 1))]; };
    std::printf("run: %.1f s; probe fired %zu times; lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", runSeconds,
                stalls.size(), pct(0.5), pct(0.99), maxStallMs);
    std::printf("live charts: %zu; refreshes of the busiest chart: %d (%.1f per second); all charts: %d\n",
                refreshes.size(), most, double(most) / runSeconds, total);
    std::printf("chart_refreshes_per_second: %.1f\n", double(most) / runSeconds);
    std::printf("max_gui_stall_ms: %.0f\n", maxStallMs);
    return 0;
}
