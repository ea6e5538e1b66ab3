#pragma once
// Reads a timed pass's load (passload.h) at its edges: the host's counters from /proc for the
// replay thread (the calling thread) and, for a server Versus launched and pinned, its main
// thread and its CPUs; the server's forks, evictions and clients from INFO on every node.
// Nothing here needs privileges; a counter that cannot be read stays absent and the pass goes on.

#include "nodesessions.h"
#include "passload.h"

#include <QElapsedTimer>
#include <optional>
#include <vector>

class PassLoadMeter {
public:
    // `serverPid` 0 and `serverCpus` empty: a server Versus did not launch or pin (an endpoint, a
    // cluster): only the replay thread and INFO are read. `versusClients` is how many
    // connections Versus holds on each node during the pass (measuring and replay).
    PassLoadMeter(NodeSessions &sessions, qint64 serverPid, std::vector<int> serverCpus, int versusClients);

    void start();
    // The change since start(); call from the thread that called start().
    PassLoad finish();

private:
    // One reading of the host's and the server's counters.
    struct Edge {
        std::optional<long long> replayCpuUsec;
        std::optional<long long> replayWaitUsec;
        std::optional<long long> serverWaitUsec;
        std::optional<long long> serverProcessUsec;   // /proc/<pid>/stat utime + stime
        std::optional<long long> cpusBusyUsec;        // /proc/stat, the server's CPUs
        std::optional<long long> cpusStealUsec;
        std::optional<long long> totalForks;
        bool forkRunning = false;
        std::optional<long long> evictedKeys;
        std::optional<long long> foreignClients;
    };
    Edge read();
    void readServer(Edge &edge);

    NodeSessions &m_sessions;
    const qint64 m_serverPid;
    const std::vector<int> m_serverCpus;
    const int m_versusClients;
    QElapsedTimer m_wall;
    Edge m_start;
};
