#pragma once
// What a server says of its own time, beside commandstats: the main thread's CPU (INFO cpu
// used_cpu_user_main_thread + used_cpu_sys_main_thread) and its event loop (INFO stats
// eventloop_cycles, eventloop_duration_sum, eventloop_duration_cmd_sum), and the commands it
// processed (total_commands_processed). commandstats times only each command's own execution;
// these hold the time around the commands as well: reading, parsing, replies, the work before
// sleeping. As a reading it holds the counters; as a pass's record (the bundle's
// "server_time") the change over the pass, Versus's own reads taken off.
// A counter the server does not report stays absent, never 0: Redis 7.0 has no event loop
// counters.

#include <array>
#include <optional>

struct ServerClock {
    std::optional<long long> mainThreadCpuUsec;      // user + sys, µs
    std::optional<long long> eventLoopCycles;
    std::optional<long long> eventLoopUsec;          // eventloop_duration_sum
    std::optional<long long> eventLoopCommandUsec;   // eventloop_duration_cmd_sum
    std::optional<long long> commandsProcessed;      // total_commands_processed

    bool any() const
    {
        return mainThreadCpuUsec || eventLoopCycles || eventLoopUsec || eventLoopCommandUsec || commandsProcessed;
    }
    // this − before, counter by counter: absent where either lacks it, or where it went back
    // (a CONFIG RESETSTAT in between resets the event loop counters).
    ServerClock since(const ServerClock &before) const;
    // Adds another's counters (a cluster's primaries): absent where either lacks it.
    void add(const ServerClock &other);
    // Takes off what Versus's own reads cost (since() of a reading around them); a counter
    // that would go below 0 is left as it was.
    void takeOff(const ServerClock &own);
};

// Every counter of a ServerClock, with its name in the bundle's "server_time" (docs/BUNDLE.md).
struct ServerClockCounter {
    const char *name;
    std::optional<long long> ServerClock::*counter;
};
const std::array<ServerClockCounter, 5> &serverClockCounters();
