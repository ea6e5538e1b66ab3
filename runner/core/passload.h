#pragma once
// What else used the machine, and the server, while a timed pass ran: read at the pass's edges
// from unprivileged counters, recorded per pass (the bundle's "load", docs/BUNDLE.md), judged by
// the figures layer (figurespassverdict.cpp). A counter that could not be read stays absent.
//
// - the wall time between the edges;
// - Versus's replay thread's CPU (CLOCK_THREAD_CPUTIME_ID: the replay runs in one thread), and the
//   time it waited runnable for a CPU (/proc/self/task/<tid>/schedstat);
// - the server's main thread's wait, runnable, for its CPU (/proc/<pid>/schedstat): another
//   process ran there while the server had work. Under the fair schedule the other servers run
//   on the same CPU in turns, while this one sleeps, so they add no wait;
// - on the CPUs the server was pinned to: every process's CPU (/proc/stat) less the server's own
//   (/proc/<pid>/stat), and steal time; only for a server Versus launched and pinned;
// - the server's own interference, from INFO: forks (total_forks), a BGSAVE or AOF rewrite in
//   progress at an edge, keys evicted, and clients connected beyond Versus's own.

#include <array>
#include <optional>

struct PassLoad {
    std::optional<long long> wallUsec;
    std::optional<long long> replayCpuUsec;
    std::optional<long long> replayWaitUsec;          // runnable, not running
    std::optional<long long> serverWaitUsec;          // the server's main thread, runnable, not running
    std::optional<long long> othersOnServerCpuUsec;   // other processes on the server's CPUs
    std::optional<long long> stealUsec;               // steal on the server's CPUs
    std::optional<long long> forks;                   // Δ total_forks
    std::optional<long long> forkRunning;             // 1: rdb_bgsave_in_progress or aof_rewrite_in_progress at an edge
    std::optional<long long> evictedKeys;             // Δ evicted_keys
    std::optional<long long> foreignClients;          // most clients beyond Versus's own at an edge

    bool any() const;
};

// Every counter of a PassLoad with its name in the bundle's "load".
struct PassLoadCounter {
    const char *name;
    std::optional<long long> PassLoad::*counter;
};
const std::array<PassLoadCounter, 10> &passLoadCounters();
