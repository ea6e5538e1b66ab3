#pragma once
// One pass on one server (a standalone node, or a cluster's primaries together), in three steps:
// - baseline: CONFIG RESETSTAT before a timed pass, FLUSHALL SYNC with lazyfree drained, and
//   a settled used_memory with only the measuring connection open;
// - replay: the workload's commands (or one type's) over a connection of their own, every
//   reply checked; a timed pass starts and ends together with the other servers, takes turns
//   under the fair schedule and runs its server on a CPU of its own;
// - measure: commandstats first after a timed pass (cleared of Versus's own commands, and what
//   the server counted beyond what Versus sent reported, commandtally.h), then the settled
//   used_memory again, DBSIZE, the keys evicted and the writes refused as out of memory since
//   the baseline and, for a type's own pass, every key's encoding. A timed pass's server time
//   beside commandstats (main-thread CPU, the event loop) is the change of INFO stats and cpu
//   between its first batch and that commandstats reading.
// On an endpoint, another client's FLUSHALL, CONFIG RESETSTAT or fewer calls counted than sent
// fail the pass (interference.h); its other passes read commandstats before and after for it.
// A cluster's readings are the sums over its primaries (nodesessions.h), each node's memory kept
// as well; its replay has one connection per primary and routes by slot (passreplayer.h).
// Runs in the worker's thread; it reports through the hooks the worker gives it.

#include "liveprobe.h"
#include "nodesessions.h"
#include "outcome.h"
#include "passloadmeter.h"
#include "passreplayer.h"
#include "passtails.h"
#include "replayaccess.h"
#include "runrequest.h"
#include "workerjob.h"
#include <functional>
#include <vector>

struct PassPlan {
    QString type;          // empty: every command (the combined timed pass)
    bool timed = false;
    QString label;         // "timed pass", "memory: counter", "timed: hsetex"
    bool warming = false;  // PassRunner::warm(): no live figures, nothing kept
    // The pass as a sentence names it: "the timed pass", "the timed pass of hsetex".
    QString noun() const;
};

struct PassMeasurement {
    PassResult pass;
    std::map<QString, CommandStat> stats;   // timed passes only: the workload's commands
    std::map<QString, long long> countedNotSent;   // timed passes only: what the server counted beyond them
    long long usedMemoryDelta = 0;
    long long keys = 0;
    std::vector<NodeMemory> nodes;          // a cluster's primaries, each one's share; empty standalone
    ServerSession::KeySurvey survey;
    // Keys evicted and commands refused as out of memory between the baseline and the end:
    // a pass with any has no memory figure (docs/MEASUREMENT.md).
    DataLoss loss;
    // What the server's own accounting says changed (memoryreport.h): read after the memory
    // figure at the baseline and at the end, so it cannot change that figure.
    MemoryAccounting accounting;
    // Timed passes only: the server's own clock over the pass (serverclock.h), Versus's own
    // reads taken off; absent when it could not be read.
    std::optional<ServerClock> serverTime;
    // Timed passes only: what else used the machine and the server meanwhile (passload.h).
    std::optional<PassLoad> load;
    // Timed passes only: the server-side latency per command, or why there is none (passtails.h).
    ServerTails tails;
};

struct PassHooks {
    std::function<void(ProgressState, const QString &phase)> report;
    std::function<void(const QString &line)> log;
    std::function<bool()> reachNextPhase;                                  // false when cancelled
    std::function<void(const PassResult &soFar, const LivePass &pass)> ticked;   // progress, live figures
    // Around the replay of an untimed pass, after its baseline and before its measuring: the
    // profile pass's perf (profilepass.h). Null: nothing.
    std::function<Status()> replayStarting;
    std::function<Status()> replayEnded;
};

class PassRunner {
public:
    // The replay connections go to the sessions' nodes (a node's pid is 0 for a server Versus
    // did not launch: it is never pinned, nor are a cluster's nodes), --clients of them per
    // node, log in as each node's address says and are filtered as `access` says; `routing` is
    // set for a cluster, and for a standalone server's lanes when there are several.
    PassRunner(const WorkerJob &job, NodeSessions &sessions, const ReplayAccess &access, ClusterRouting *routing,
               PassHooks hooks);

    // A cancelled pass is not an error: its measurement has pass.cancelled set.
    Outcome<PassMeasurement> run(const PassPlan &plan);
    // On an endpoint whose latency tracking stays on (measurementlimits.h): every command the
    // workload and the measuring send, once, before the first baseline, its figures dropped.
    // A command's first call allocates its latency histogram, which would otherwise land in
    // whichever pass sends it first.
    Status warm();
    // An endpoint whose latency tracking stays as its owner has it (CONFIG refused): its tails
    // are read by difference; an endpoint otherwise has tracking off and no tails (passtails.h).
    void setTrackingLeftOn(bool leftOn);

private:
    Outcome<std::vector<long long>> takeBaseline(bool timed);
    Status forgetNonData();
    Outcome<PassResult> replay(const PassPlan &plan, long long baselineBytes);
    // The replay connections, `lanes` per node in the nodes' order, each logged in; `owned` keeps them.
    Outcome<std::vector<RedisConnection *>> openLanes(int lanes, std::vector<std::unique_ptr<RedisConnection>> &owned) const;
    // The server's clock at a timed pass's edges, and its change over the pass.
    Status startServerClock();
    Outcome<ServerClock> passServerTime();
    Status measure(const PassPlan &plan, const std::vector<long long> &baselineBytes, PassMeasurement &out);
    // The pinning of a timed pass's server to a CPU of its own: a standalone server Versus launched.
    qint64 pinnablePid() const;
    // The commands of a timed pass's workload that the live probe sends too (INFO, DBSIZE):
    // the probe's µs could not be told from the workload's, so when there are any the probe
    // waits for the pass's end.
    QStringList probeCommandsOfWorkload(const PassPlan &plan) const;
    // An endpoint's pass: an error naming what another client did, if it did anything.
    Status checkInterference(const PassPlan &plan, const std::map<QString, CommandStat> &counted,
                             const CommandTally &own, const PassMeasurement &out);

    const WorkerJob &m_job;
    NodeSessions &m_sessions;
    const ReplayAccess &m_access;
    ClusterRouting *m_routing;   // a MOVED reply moves a slot in it (clusterredirects.h)
    CommandTally m_replayOwn;   // what the replay connections sent besides the workload (AUTH, ASKING)
    // An endpoint's pass that is not timed: commandstats and Versus's own commands after the baseline.
    std::map<QString, CommandStat> m_statsBefore;
    CommandTally m_ownBefore;
    MemoryAccounting m_accountingBefore;   // read right after the baseline's memory figure
    ServerSession::LossCounters m_lossBefore;   // read right after the baseline's flush
    ServerClock m_clockAtStart;            // startServerClock()
    long long m_ownAtStart = 0;            // Versus's own commands sent before it
    std::optional<PassLoadMeter> m_loadMeter;   // a timed pass's load, from before its clock to after its commandstats
    PassHooks m_hooks;
    PassTails m_tails;
};
