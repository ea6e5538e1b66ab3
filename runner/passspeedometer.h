#pragma once
// How fast the machine ran while a timed pass was timed, and whether the pass must be timed
// again because the machine was too slow to be fair to the versions being compared.
//
// A check before the pass cannot catch a disturbance that begins during it: on the
// development machine whole repeats ran 1.6 times slower for every version while the CPU loop
// before them ran at its usual speed. So the machine is sampled throughout the pass, between
// batches, while the sampling replay thread holds the fair turn and no server executes a
// command: the fixed CPU loop and a memory walk, both on the servers' CPU.

#include "cpuspeedreference.h"
#include <QString>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

class MemoryChase;

struct MachineSpeed {
    double loopNs = 0;    // median of the samples of the fixed CPU loop on the servers' CPU
    double chaseNs = 0;   // median of the samples of the memory walk, ns per step
    int samples = 0;
};

struct PassVerdict {
    bool slow = false;    // slower than usual by more than the margins below
    QString reason;       // e.g. "memory 14% slower than usual (181 ns per step against 159 ns)"
};

// The margins catch a disturbed pass, not the machine's everyday drift. On the development
// machine the walk of undisturbed passes spread over about 10% (176–192 ns per step), and
// neither probe explains that drift well enough to filter it: keeping only the 40% of
// 10-second windows where both ran within 5% of usual still left µs/command with a CV of
// 8%. Disturbed passes stand out: one ran the loop 32% and the walk 16% slower than usual.
constexpr double kCpuSlowMargin = 1.25;
constexpr double kMemorySlowMargin = 1.15;

// Judges a pass's speed against the usual one; a usual figure of 0 is not judged.
PassVerdict judgePass(const MachineSpeed &speed, double usualLoopNs, double usualChaseNs);

// Shared by the workers of a run. Phases are the PhaseBarrier's: every server of a timed pass
// passes the same phase number.
class PassSpeedometer {
public:
    using Sampler = std::function<MachineSpeed(int serverCpu)>;   // one sample; samples = 1

    struct Options {
        int retimeLimit = 2;                          // times a slow pass may be timed again
        int settleLimitMs = 0;                        // how long a pass may wait for the usual speed
        std::chrono::milliseconds sampleInterval{1000};
        std::chrono::milliseconds retry{250};         // between samples while waiting
        Sampler sampler;                              // empty: the CPU loop and a 16 MB memory walk
    };

    struct Judgement {
        MachineSpeed speed;
        PassVerdict verdict;
        bool retime = false;   // slow and attempts remain
    };

    // `reference` (may be null: nothing is judged) holds the usual speed and learns from every pass.
    PassSpeedometer(std::shared_ptr<CpuSpeedReference> reference, Options options);
    ~PassSpeedometer();

    // The first caller of a phase waits, up to the settle limit, until a sample on `serverCpu`
    // is within the margins, then starts sampling; the others join it. Returns what the wait
    // was, for the log ("" when there was none), the same for every caller.
    QString begin(int phase, int serverCpu, const std::atomic<bool> *cancelled = nullptr);
    // From a replay thread holding the fair turn: takes a sample when the interval has passed.
    void tick();
    // The first caller of a phase stops sampling and judges it; every caller gets that answer.
    // `attempt` is 1 for a pass's first timing.
    Judgement finish(int phase, int attempt);

    int retimeLimit() const { return m_options.retimeLimit; }

private:
    MachineSpeed sampleNow(int serverCpu);
    PassVerdict judge(const MachineSpeed &speed) const;

    std::mutex m_mutex;
    const std::shared_ptr<CpuSpeedReference> m_reference;
    const Options m_options;
    std::unique_ptr<MemoryChase> m_chase;
    int m_phase = -1;
    int m_serverCpu = -1;
    QString m_waited;
    std::chrono::steady_clock::time_point m_lastSample;
    std::vector<MachineSpeed> m_samples;
    int m_judgedPhase = -1;
    Judgement m_judgement;
};
