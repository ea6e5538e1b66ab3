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
#include "windowbench.h"
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

namespace {

constexpr int probeIntervalMs = 10;
constexpr qint64 runTimeoutMs = 20 * 60 * 1000;
constexpr int rehookIntervalMs = 250;

double guiThreadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1000.0 + double(t.tv_nsec) / 1e6;
}

// A repeating timer in the GUI thread; lateness = time between firings minus the interval.
class StallProbe {
public:
    StallProbe()
    {
        timer.setTimerType(Qt::PreciseTimer);
        timer.setInterval(probeIntervalMs);
        QObject::connect(&timer, &QTimer::timeout, [this] { fired(); });
    }

    void start()
    {
        clock.start();
        startCpuMs = guiThreadCpuMs();
        timer.start();
    }

    // Sorts the latenesses once no more can come, for percentile().
    void stop()
    {
        timer.stop();
        runCpuMs = guiThreadCpuMs() - startCpuMs;
        std::sort(stalls.begin(), stalls.end());
    }

    double percentile(double fraction) const
    {
        return stalls.empty() ? 0.0 : stalls[size_t(fraction * double(stalls.size() - 1))];
    }

    size_t firings() const { return stalls.size(); }
    double maxStallMs() const { return maxLateMs; }
    double maxBusyCpuMs() const { return maxCpuBetweenFiringsMs; }
    double guiCpuMs() const { return runCpuMs; }

private:
    void fired()
    {
        const qint64 now = clock.nsecsElapsed();
        const double cpuNow = guiThreadCpuMs();
        if (last >= 0)
            maxCpuBetweenFiringsMs = std::max(maxCpuBetweenFiringsMs, cpuNow - lastCpuMs);
        lastCpuMs = cpuNow;
        if (last >= 0) {
            const double late = double(now - last) / 1e6 - double(probeIntervalMs);
            stalls.push_back(late);
            if (late > 50)
                std::printf("stall of %.0f ms at %.1f s\n", late, double(now) / 1e9);
            maxLateMs = std::max(maxLateMs, late);
        }
        last = now;
    }

    QElapsedTimer clock;
    QTimer timer;
    qint64 last = -1;
    double lastCpuMs = 0;
    double startCpuMs = 0;
    double runCpuMs = 0;   // the GUI thread's CPU time from start() to stop()
    double maxLateMs = 0;
    double maxCpuBetweenFiringsMs = 0;
    std::vector<double> stalls;
};

// A plain thread sleeping 10 ms at a time, outside any event loop: its lateness is what the
// scheduler alone costs.
class SchedulerBaseline {
public:
    SchedulerBaseline() : thread([this] { sleepAndMeasure(); }) {}
    SchedulerBaseline(const SchedulerBaseline &) = delete;
    SchedulerBaseline &operator=(const SchedulerBaseline &) = delete;
    ~SchedulerBaseline() { stop(); }

    void stop()
    {
        stopRequested.store(true);
        if (thread.joinable())
            thread.join();
    }

    double maxLatenessMs() const { return double(maxLatenessUs.load()) / 1000.0; }

private:
    void sleepAndMeasure()
    {
        auto last = std::chrono::steady_clock::now();
        while (!stopRequested.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(probeIntervalMs));
            const auto now = std::chrono::steady_clock::now();
            const long long late = std::chrono::duration_cast<std::chrono::microseconds>(now - last).count()
                - probeIntervalMs * 1000;
            if (late > maxLatenessUs.load())
                maxLatenessUs.store(late);
            last = now;
        }
    }

    std::atomic<bool> stopRequested{false};
    std::atomic<long long> maxLatenessUs{0};
    std::thread thread;   // last: it starts running once the atomics above exist
};

// Counts each chart's applied() signals and when they came, in ms of the run clock.
class ChartRefreshes {
public:
    ChartRefreshes(MainWindow &window, const QElapsedTimer &runClock) : window(window), runClock(runClock) {}

    // Charts appear as the run creates them, so this is called again while it goes on.
    void hookNewCharts()
    {
        for (ChartWidget *chart : window.findChildren<ChartWidget *>()) {
            if (counts.count(chart))
                continue;
            counts[chart] = 0;
            QObject::connect(chart, &ChartWidget::applied, [this, chart] {
                ++counts[chart];
                times[chart].push_back(runClock.elapsed());
            });
        }
    }

    std::map<ChartWidget *, int> counts;
    std::map<ChartWidget *, std::vector<qint64>> times;

private:
    MainWindow &window;
    const QElapsedTimer &runClock;
};

// Starts the window's run with the probes going and waits for its end; returns its seconds.
double runWithProbes(MainWindow &window, StallProbe &probe, SchedulerBaseline &baseline, ChartRefreshes &refreshes,
                     QElapsedTimer &runClock)
{
    bool finished = false;
    bool failed = false;
    // The connections end with this object, before the flags they set go out of scope.
    QObject watcher;
    QObject::connect(&window, &MainWindow::runNotStarted, &watcher, [&](const QString &reason) {
        std::fprintf(stderr, "run not started: %s\n", qPrintable(reason));
        failed = true;
    });
    QObject::connect(&window, &MainWindow::runFinished, &watcher, [&](const ResultsBundle &) { finished = true; });
    refreshes.hookNewCharts();
    probe.start();
    runClock.start();
    if (!window.startRun())
        Bench::fail(QStringLiteral("the window refused to start a run"));
    QTimer rehook;
    QObject::connect(&rehook, &QTimer::timeout, [&refreshes] { refreshes.hookNewCharts(); });
    rehook.start(rehookIntervalMs);
    while (!finished && !failed && runClock.elapsed() < runTimeoutMs)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    const double runSeconds = double(runClock.nsecsElapsed()) / 1e9;
    probe.stop();
    baseline.stop();
    if (!finished)
        Bench::fail(QStringLiteral("the run did not finish"));
    return runSeconds;
}

struct RefreshTotals {
    ChartWidget *busiest = nullptr;   // the first chart with the most refreshes
    int most = 0;
    int total = 0;
};

RefreshTotals refreshTotals(const std::map<ChartWidget *, int> &counts)
{
    RefreshTotals totals;
    for (const auto &entry : counts) {
        if (entry.second > totals.most)
            totals.busiest = entry.first;
        totals.most = std::max(totals.most, entry.second);
        totals.total += entry.second;
    }
    return totals;
}

// While the charts are live: from the first refresh to the last one.
void printLiveSpan(const std::vector<qint64> &times)
{
    const double liveRate = double(times.size() - 1) * 1000.0 / double(std::max<qint64>(1, times.back() - times.front()));
    qint64 longestGap = 0;
    qint64 gapStart = 0;
    for (size_t i = 1; i < times.size(); ++i) {
        if (times[i] - times[i - 1] > longestGap)
            gapStart = times[i - 1];
        longestGap = std::max(longestGap, times[i] - times[i - 1]);
    }
    std::printf("busiest chart refreshed from %.1f s to %.1f s: %.1f per second, longest gap %lld ms (from %.1f s)\n",
                double(times.front()) / 1000.0, double(times.back()) / 1000.0, liveRate, (long long)longestGap,
                double(gapStart) / 1000.0);
}

// Refreshes follow the results: between passes nothing changes and nothing is redrawn.
// So the rate is also given per whole second in which the chart was redrawn at all; that
// median is the figure the benchmark reports.
double printBusySecondsAndMedian(const std::vector<qint64> &times)
{
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
    return Bench::median(busySeconds);
}

// Prints the busiest chart's refresh pattern; returns its refreshes per busy second, or 0
// when it refreshed fewer than twice.
double printBusiestChart(ChartRefreshes &refreshes, ChartWidget *busiest)
{
    if (!busiest || refreshes.times[busiest].size() <= 1)
        return 0;
    const std::vector<qint64> &times = refreshes.times[busiest];
    printLiveSpan(times);
    return printBusySecondsAndMedian(times);
}

void printSummary(double runSeconds, const StallProbe &probe, const SchedulerBaseline &baseline,
                  const ChartRefreshes &refreshes, const RefreshTotals &totals, double liveRate)
{
    std::printf("run: %.1f s; probe fired %zu times; lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", runSeconds,
                probe.firings(), probe.percentile(0.5), probe.percentile(0.99), probe.maxStallMs());
    std::printf("live charts: %zu; refreshes of the busiest chart: %d (%.1f per second); all charts: %d\n",
                refreshes.counts.size(), totals.most, double(totals.most) / runSeconds, totals.total);
    std::printf("longest GUI-thread CPU time between two firings: %.1f ms\n", probe.maxBusyCpuMs());
    // Everything the window did during the run, the probe's own firings included: what every
    // update costs, summed, and so the figure an update's copies and figures weigh on.
    std::printf("GUI-thread CPU time over the run: %.0f ms (%.1f%% of the run, %.2f ms per refresh of all charts)\n",
                probe.guiCpuMs(), probe.guiCpuMs() / (runSeconds * 10.0), probe.guiCpuMs() / std::max(1, totals.total));
    std::printf("scheduler baseline (a plain thread sleeping 10 ms): max lateness %.1f ms\n", baseline.maxLatenessMs());
    std::printf("chart_refreshes_per_second (median over seconds with refreshes): %.1f\n", liveRate);
    std::printf("max_gui_stall_ms: %.0f\n", probe.maxStallMs());
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

    StallProbe probe;
    SchedulerBaseline baseline;
    QElapsedTimer runClock;
    ChartRefreshes refreshes(window, runClock);
    const double runSeconds = runWithProbes(window, probe, baseline, refreshes, runClock);

    const RefreshTotals totals = refreshTotals(refreshes.counts);
    const double liveRate = printBusiestChart(refreshes, totals.busiest);
    printSummary(runSeconds, probe, baseline, refreshes, totals, liveRate);
    return 0;
}
