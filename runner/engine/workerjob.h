#pragma once
// What the workers of one run share, and what one worker is given: the request itself (never
// a copy of its fields), the workload's description and the run's coordination objects.

#include "cpupinning.h"
#include "profilepass.h"
#include "runrequest.h"
#include <atomic>
#include <memory>
#include <optional>

class FairScheduler;
class PhaseBarrier;

struct RunShared {
    RunRequest request;
    WorkloadInfo workload;
    std::shared_ptr<FairScheduler> fair;   // null for the concurrent schedule
    std::shared_ptr<PhaseBarrier> phases;  // keeps the servers in step under both schedules
    std::optional<CpuPlan> cpus;           // fair schedule: where the timed server and the replay threads run
    std::optional<PerfAccess> perf;        // --profile: whether and how perf may sample the servers
    std::atomic<bool> cancelled{false};
};

struct WorkerJob {
    int runId = 0;
    int index = 0;                         // position in the request's server list
    std::shared_ptr<RunShared> run;

    const RunRequest &request() const { return run->request; }
    const ServerSpec &spec() const { return run->request.servers[size_t(index)]; }
    const WorkloadInfo &workload() const { return run->workload; }
    bool cancelled() const { return run->cancelled.load(); }
};
