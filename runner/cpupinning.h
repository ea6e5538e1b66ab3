#pragma once
// A CPU to itself for the server being timed. commandstats counts a command's wall time, so
// a replay thread sharing the server's CPU preempts it mid-command and that time lands in
// its usec: measured on two cores, µs/command was 0.26–0.30 with the client on the other
// CPU and 0.47–0.63 on the same one. Under the fair schedule only one server executes at a
// time, so one CPU for servers and the rest for Versus's replay threads is enough.
//
// On a shared virtual machine one virtual CPU can run half as fast as another for minutes
// (a fixed loop took 0.28 s on one and 0.185 s on the other), and every server timed there
// slows with it. So before each timed pass the CPUs race a short fixed loop and the
// servers get the fastest. Waiting for the machine's usual speed is PassSpeedometer's job.

#include "outcome.h"
#include <QString>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

struct CpuPlan {
    std::vector<int> serverCpus;   // the timed server's main thread runs here
    std::vector<int> replayCpus;   // the replay threads run here
    std::vector<int> allowedCpus;  // what the process was allowed before; restored afterwards
    std::vector<double> loopNanoseconds;   // per allowed CPU, when the CPUs were raced

    // Server on the last allowed CPU; nullopt when this process may use fewer than two CPUs.
    static std::optional<CpuPlan> forThisMachine();
    // The same CPUs with the servers on `serverCpu`.
    CpuPlan withServerOn(int serverCpu) const;
    // "server on CPU 1, replay on CPU 0", plus "(fixed loop: CPU 0 1.45 ms, CPU 1 1.02 ms)" once raced.
    QString describe() const;
    // The loop time on the server's CPU; 0 when the CPUs were not raced.
    double serverLoopMilliseconds() const;
    bool operator==(const CpuPlan &other) const
    {
        return serverCpus == other.serverCpus && replayCpus == other.replayCpus;
    }
};

// Nanoseconds the fixed loop takes on the calling thread's CPU, once.
double fixedLoopNanoseconds();

// Runs `work` on `cpu` in the calling thread and gives the thread its CPUs back afterwards;
// false, without running `work`, when the thread cannot be moved there.
bool runOnCpu(int cpu, const std::function<void()> &work);

// Nanoseconds a fixed loop takes on each CPU (best of a few tries); 0 where the calling
// thread could not be moved there. The calling thread's affinity is restored afterwards.
std::vector<double> timeFixedLoopOn(const std::vector<int> &cpus);

// Shared by the workers of a run: the first worker to ask for a phase's plan races the CPUs,
// the others get the same answer, so every server of a repeat is timed on the same CPU.
class ServerCpuChooser {
public:
    using Race = std::function<std::vector<double>(const std::vector<int> &cpus)>;

    explicit ServerCpuChooser(CpuPlan allowed, Race race = timeFixedLoopOn);
    CpuPlan planFor(int phase);

private:
    CpuPlan choose(const std::vector<double> &times) const;

    std::mutex m_mutex;
    const CpuPlan m_allowed;
    const Race m_race;
    int m_phase = -1;
    CpuPlan m_current;
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
