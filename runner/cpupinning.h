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
// servers get the fastest.

#include "cpuspeedreference.h"
#include "outcome.h"
#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

struct CpuPlan {
    std::vector<int> serverCpus;   // the timed server's main thread runs here
    std::vector<int> replayCpus;   // the replay threads run here
    std::vector<int> allowedCpus;  // what the process was allowed before; restored afterwards
    std::vector<double> loopNanoseconds;   // per allowed CPU, when the CPUs were raced
    double waitedSeconds = 0;              // waited for the machine's usual speed
    double slowerThanUsual = 0;            // > 0: the fastest CPU's loop time / the usual one, when still slow

    // Server on the last allowed CPU; nullopt when this process may use fewer than two CPUs.
    static std::optional<CpuPlan> forThisMachine();
    // The same CPUs with the servers on `serverCpu`.
    CpuPlan withServerOn(int serverCpu) const;
    // "server on CPU 1, replay on CPU 0", plus "(fixed loop: CPU 0 1.45 ms, CPU 1 1.02 ms)" once
    // raced, and how long it waited for the usual speed.
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

// When a timed pass may wait for the machine's usual speed, and for how long.
struct CpuSettling {
    std::shared_ptr<CpuSpeedReference> reference;   // null: never wait
    int limitMs = 0;
    std::chrono::milliseconds retry{250};
};

// Shared by the workers of a run: the first worker to ask for a phase's plan races the CPUs,
// the others get the same answer, so every server of a repeat is timed on the same CPU.
//
// With a reference and a wait limit, a pass does not start while every CPU runs the loop
// more than 25% slower than the machine's usual speed: on the development machine whole
// stretches of 40 s ran the loop 1.3 times slower and µs/command about 1.9 times higher.
// The chooser races again every 250 ms until one CPU is back, or the limit passes.
class ServerCpuChooser {
public:
    using Race = std::function<std::vector<double>(const std::vector<int> &cpus)>;
    using Settling = CpuSettling;

    explicit ServerCpuChooser(CpuPlan allowed, Settling settling = Settling(), Race race = timeFixedLoopOn);
    // Blocks the first caller of a phase while it waits for the usual speed; `cancelled` ends the wait.
    CpuPlan planFor(int phase, const std::atomic<bool> *cancelled = nullptr);

private:
    CpuPlan choose(const std::vector<double> &times) const;

    std::mutex m_mutex;
    const CpuPlan m_allowed;
    const Settling m_settling;
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
