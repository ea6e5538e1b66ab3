#pragma once
// --profile: one untimed replay of the workload into a launched server under `perf record`,
// after every server's timed passes (ReplayWorker holds it behind the phase barrier), its
// samples folded into categories (serverprofile.h). Never during a timed pass: no memory or
// time figure can see perf or this pass. Where perf is missing or the kernel refuses it, the
// reason is the profile, and the run goes on.
//
// Sampling is cpu-clock (a software event: a VM without hardware counters has it) at a low rate,
// without call graphs: each sample is folded by the function it landed in. The categories are
// what a function does itself (a lookup, an allocation, a write), which the leaf says; Debian's
// builds have no frame pointers, so their call chains would be guesses, and chains multiply what
// perf writes and reads back.

#include "outcome.h"
#include "serverprofile.h"
#include <QString>
#include <memory>
#include <vector>

class QProcess;

// Whether this machine lets Versus profile its servers, and how.
struct PerfAccess {
    QString program;        // perf's path; empty when not found
    bool userOnly = false;  // perf_event_paranoid 2 and not root: cpu-clock:u, no kernel samples
    QString refused;        // one line: why there is no profile ("--profile: perf is not installed …")
    bool allowed() const { return refused.isEmpty(); }
};
// perf on PATH, and /proc/sys/kernel/perf_event_paranoid for a process that is not root.
PerfAccess perfAccess();
constexpr int kProfileRateHz = 499;   // low and prime: no beat with the server's 10 Hz cron

// One `perf record` of a set of processes, into a folder of its own that goes when it does.
class PerfRecording {
public:
    explicit PerfRecording(PerfAccess access);
    ~PerfRecording();
    PerfRecording(const PerfRecording &) = delete;
    PerfRecording &operator=(const PerfRecording &) = delete;

    // Starts sampling `pids`; an error names what perf said when it would not.
    Status start(const std::vector<qint64> &pids);
    // Stops perf with SIGINT (it writes its file then), and folds what it recorded;
    // `binaryName` is the server executable's file name ("valkey-server").
    Outcome<ServerProfile> stopAndFold(const QString &binaryName);

private:
    struct Private;
    std::unique_ptr<Private> d;
};
