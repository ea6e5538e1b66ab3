#pragma once
// A fixture bundle with the server's own clock (server_time) for tests of what a time
// measures: real-ecommerce.json (Valkey 8.0.1 and 9.1.2, one combined timed pass, no command
// groups) over three repeats, its times set by hand. Nothing in it is measured.

#include "fixturebundle.h"

#include <cmath>

// 9.1.2's commandstats time is `inside` times 8.0.1's in every repeat, its main-thread CPU per
// command `cpu` times and its event loop `loop` times. 8.0.1 spends 0.6 µs of CPU and 0.5 µs of
// event loop per call; the machine drifts between repeats (×1.0, ×1.1, ×0.9).
inline ResultsBundle withServerTimes(double inside, double cpu, double loop)
{
    ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    const double machine[] = {1.0, 1.1, 0.9};
    bundle.repeats = 3;
    ServerRun &old = bundle.servers[0];
    ServerRun &newer = bundle.servers[1];
    old.repeats.resize(1);
    for (int r = 0; r < 3; ++r) {
        RepeatResult repeat = old.repeats.front();
        repeat.repeat = r;
        PassTiming &timing = repeat.timing;
        for (auto &entry : timing.byCommand)
            entry.second.usec = std::llround(double(entry.second.usec) * machine[r]);
        ServerClock clock;
        clock.mainThreadCpuUsec = std::llround(0.6 * double(timing.totalCalls()) * machine[r]);
        clock.eventLoopUsec = std::llround(0.5 * double(timing.totalCalls()) * machine[r]);
        timing.serverTime = clock;
        if (r > 0)
            old.repeats.push_back(repeat);
        else
            old.repeats.front() = repeat;
        for (auto &entry : repeat.timing.byCommand)
            entry.second.usec = std::llround(double(entry.second.usec) * inside);
        repeat.timing.serverTime->mainThreadCpuUsec = std::llround(double(*clock.mainThreadCpuUsec) * cpu);
        repeat.timing.serverTime->eventLoopUsec = std::llround(double(*clock.eventLoopUsec) * loop);
        if (r == 0)
            newer.repeats.assign(1, repeat);
        else
            newer.repeats.push_back(repeat);
    }
    return bundle;
}

// Sets the round-trip time of each of `repeats` timed passes of server `index` so that its main
// thread was busy `percent` of the pass: at 90% or more the pass was server-bound, and its
// commands per second are the server's throughput at saturation (the same commands over the
// main-thread CPU the pass took).
inline void setMainThreadBusy(ResultsBundle &bundle, size_t index, double percent, std::initializer_list<int> repeats = {0, 1, 2})
{
    for (const int r : repeats) {
        PassTiming &timing = bundle.servers[index].repeats[size_t(r)].timing;
        timing.seconds = double(*timing.serverTime->mainThreadCpuUsec) / (percent / 100.0) / 1e6;
    }
}
