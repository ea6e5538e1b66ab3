// Window responsiveness: the real main window (offscreen platform unless QT_QPA_PLATFORM is
// set) runs the default workload on 3 server versions, as a user would start it. A 10 ms
// timer in the GUI thread records how late it fires; the longest lateness is the longest
// event-loop stall. Each ChartWidget's applied() signal counts live chart refreshes.
// The GUI thread's own CPU time between two firings is recorded too: on a loaded machine a
// late firing may be the scheduler's doing, while CPU time spent in between is the window's.
// A plain thread that sleeps 10 ms at a time measures the same lateness outside the event
// loop: what the machine's scheduler alone costs, to tell a busy GUI from busy cores.
//
// Usage: bench_gui_stall [--servers a,b,c]    (default: valkey-8.0.1, valkey-8.1.1, valkey-9.1.x)

#include "benchsupport.h"
#include "chartwidget.h"
#include "mainwindow.h"
#include "serverspanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <thread>

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
    double lastCpuMs = 0;
    double maxBusyCpuMs = 0;
    const auto threadCpuMs = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
    };
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = probeClock.nsecsElapsed();
        const double cpuNow = threadCpuMs();
        if (last >= 0)
            maxBusyCpuMs = std::max(maxBusyCpuMs, cpuNow - lastCpuMs);
        lastCpuMs = cpuNow;
        if (last >= 0) {
            const double late = double(now - last) / 1e6 - 10.0;
            stalls.push_back(late);
            if (late > 50)
                std::printf("stall of %.0f ms at %.1f s\n", late, double(now) / 1e9);
            maxStallMs = std::max(maxStallMs, late);
        }
        last = now;
    });

    std::atomic<bool> stopBaseline{false};
    std::atomic<long long> baselineMaxUs{0};
    std::thread baseline([&] {
        auto last = std::chrono::steady_clock::now();
        while (!stopBaseline.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            const auto now = std::chrono::steady_clock::now();
            const long long late = std::chrono::duration_cast<std::chrono::microseconds>(now - last).count() - 10000;
            if (late > baselineMaxUs.load())
                baselineMaxUs.store(late);
            last = now;
        }
    });

    std::map<ChartWidget *, int> refreshes;
    std::map<ChartWidget *, std::vector<qint64>> refreshTimes;
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
            QObject::connect(chart, &ChartWidget::applied, [&, chart] {
                ++refreshes[chart];
                refreshTimes[chart].push_back(runClock.elapsed());
            });
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
    stopBaseline.store(true);
    baseline.join();
    if (!finished)
        Bench::fail(QStringLiteral("the run did not finish"));

    int most = 0;
    int total = 0;
    ChartWidget *busiest = nullptr;
    for (const auto &entry : refreshes) {
        if (entry.second > most)
            busiest = entry.first;
        most = std::max(most, entry.second);
        total += entry.second;
    }
    // While the charts are live: from the first refresh to the last one.
    double liveRate = 0;
    qint64 longestGap = 0;
    if (busiest && refreshTimes[busiest].size() > 1) {
        const std::vector<qint64> &times = refreshTimes[busiest];
        liveRate = double(times.size() - 1) * 1000.0 / double(std::max<qint64>(1, times.back() - times.front()));
        qint64 gapStart = 0;
        for (size_t i = 1; i < times.size(); ++i) {
            if (times[i] - times[i - 1] > longestGap)
                gapStart = times[i - 1];
            longestGap = std::max(longestGap, times[i] - times[i - 1]);
        }
        std::printf("busiest chart refreshed from %.1f s to %.1f s: %.1f per second, longest gap %lld ms (from %.1f s)\n",
                    double(times.front()) / 1000.0, double(times.back()) / 1000.0, liveRate, (long long)longestGap,
                    double(gapStart) / 1000.0);
        // Refreshes follow the results: between passes nothing changes and nothing is redrawn.
        // So the rate is also given per whole second in which the chart was redrawn at all.
        std::map<qint64, int> perSecond;
        for (qint64 t : times)
            ++perSecond[t / 1000];
        std::vector<double> busySeconds;
        for (const auto &bin : perSecond)
            busySeconds.push_back(bin.second);
        std::printf("seconds with refreshes: %zu; refreshes in such a second: median %.0f, min %.0f, max %.0f\n",
                    busySeconds.size(), Bench::median(busySeconds),
                    *std::min_element(busySeconds.begin(), busySeconds.end()),
                    *std::max_element(busySeconds.begin(), busySeconds.end()));
        liveRate = Bench::median(busySeconds);
    }
    std::sort(stalls.begin(), stalls.end());
    const auto pct = [&](double f) { return stalls.empty() ? 0.0 : stalls[size_t(f * double(stalls.size() - 1))]; };
    std::printf("run: %.1f s; probe fired %zu times; lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", runSeconds,
                stalls.size(), pct(0.5), pct(0.99), maxStallMs);
    std::printf("live charts: %zu; refreshes of the busiest chart: %d (%.1f per second); all charts: %d\n",
                refreshes.size(), most, double(most) / runSeconds, total);
    std::printf("longest GUI-thread CPU time between two firings: %.1f ms\n", maxBusyCpuMs);
    std::printf("scheduler baseline (a plain thread sleeping 10 ms): max lateness %.1f ms\n",
                double(baselineMaxUs.load()) / 1000.0);
    std::printf("chart_refreshes_per_second (median over seconds with refreshes): %.1f\n", liveRate);
    std::printf("max_gui_stall_ms: %.0f\n", maxStallMs);
    return 0;
}
