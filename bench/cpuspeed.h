#pragma once
// How fast each CPU this process may use is right now: the same fixed loop timed on each in
// turn. On a virtual machine the CPUs can differ by twice or more, and for minutes at a time;
// a figure that depends on which CPU the server ran on is only comparable with figures taken
// at the same speeds. Header-only: each bench_*.cpp is its own program.

#include "cpupinning.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <vector>

namespace Bench {

struct CpuSpeed {
    int cpu = 0;
    double probeMs = 0;   // wall time of the probe loop on this CPU
};

// The allowed CPUs, each with its probe time; the caller's affinity is restored afterwards.
inline std::vector<CpuSpeed> cpuSpeeds()
{
    const std::vector<int> allowed = cpusOfThisThread();
    std::vector<CpuSpeed> speeds;
    for (int cpu : allowed) {
        if (!pinToCpus(0, {cpu}))
            continue;
        QElapsedTimer clock;
        clock.start();
        volatile unsigned long long sink = 0;
        for (unsigned long long i = 0; i < 100000000ULL; ++i)
            sink = sink + i * i;
        speeds.push_back({cpu, double(clock.nsecsElapsed()) / 1e6});
    }
    pinToCpus(0, allowed);
    return speeds;
}

// The slowest CPU's probe time over the fastest's; 0 when nothing was probed.
inline double slowestOverFastest(const std::vector<CpuSpeed> &speeds)
{
    double fastest = 0, slowest = 0;
    for (const CpuSpeed &speed : speeds) {
        fastest = fastest == 0 ? speed.probeMs : std::min(fastest, speed.probeMs);
        slowest = std::max(slowest, speed.probeMs);
    }
    return fastest > 0 ? slowest / fastest : 0;
}

// Whether the slowest CPU took more than 1.2 times as long as the fastest.
inline bool unevenCpus(const std::vector<CpuSpeed> &speeds)
{
    return slowestOverFastest(speeds) > 1.2;
}

// "CPU 0 78 ms, CPU 1 36 ms (the slowest 2.17× the fastest)".
inline QString describeCpuSpeeds(const std::vector<CpuSpeed> &speeds)
{
    QStringList parts;
    for (const CpuSpeed &speed : speeds)
        parts << QStringLiteral("CPU %1 %2 ms").arg(speed.cpu).arg(speed.probeMs, 0, 'f', 0);
    const double spread = slowestOverFastest(speeds);
    const QString ratio = spread > 0 ? QStringLiteral(" (the slowest %1× the fastest)").arg(spread, 0, 'f', 2) : QString();
    return parts.join(QStringLiteral(", ")) + ratio;
}

} // namespace Bench
