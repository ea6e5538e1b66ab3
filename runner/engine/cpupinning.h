#pragma once
// A CPU to itself for the server being timed. commandstats counts a command's wall time, so a
// replay thread sharing the server's CPU preempts it mid-command and that time lands in its
// usec (docs/MEASUREMENT.md, "Schedules", has the figures). Under the fair schedule only one
// server executes at a time, so one CPU for servers and the rest for Versus's replay threads
// is enough.

#include "outcome.h"
#include <QString>
#include <optional>
#include <vector>

// Restricts `thread` (0: the calling thread) to `cpus`; false when the kernel refuses.
bool pinToCpus(qint64 thread, const std::vector<int> &cpus);
// The CPUs the calling thread may run on; empty if they cannot be read.
std::vector<int> cpusOfThisThread();

struct CpuPlan {
    std::vector<int> serverCpus;   // the timed server's main thread runs here
    std::vector<int> replayCpus;   // the replay threads run here
    std::vector<int> allowedCpus;  // what the process was allowed before; restored afterwards

    // Server on the last allowed CPU; nullopt when this process may use fewer than two CPUs.
    static std::optional<CpuPlan> forThisMachine();
    // "server on CPU 1, replay on CPU 0".
    QString describe() const;
};

// Pins a server's main thread and the calling thread for the duration of a timed pass and
// restores both afterwards.
class CpuPinning {
public:
    CpuPinning(CpuPlan plan, qint64 serverPid, const QString &serverName);
    ~CpuPinning();
    CpuPinning(const CpuPinning &) = delete;
    CpuPinning &operator=(const CpuPinning &) = delete;

    const Status &status() const { return m_status; }

private:
    const CpuPlan m_plan;
    qint64 m_serverPid;
    Status m_status;
    bool m_serverPinned = false;
    bool m_selfPinned = false;
};
