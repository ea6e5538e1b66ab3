#pragma once
// One pass on one server, in three steps:
// - baseline: CONFIG RESETSTAT before a timed pass, FLUSHALL SYNC with lazyfree drained, and
//   a settled used_memory with only the measuring connection open;
// - replay: the workload's commands (or one type's) over a connection of their own, every
//   reply checked; a timed pass starts and ends together with the other servers, takes turns
//   under the fair schedule and runs its server on a CPU of its own;
// - measure: the settled used_memory again, DBSIZE, commandstats after a timed pass and, for
//   a type's own pass, every key's encoding.
// Runs in the worker's thread; it reports through the hooks the worker gives it.

#include "liveprobe.h"
#include "outcome.h"
#include "passreplayer.h"
#include "runrequest.h"
#include "serversession.h"
#include "workerjob.h"
#include <functional>

struct PassPlan {
    QString type;          // empty: every command (the combined timed pass)
    bool timed = false;
    QString label;         // "timed pass", "memory: counter", "timed: hsetex"
};

struct PassMeasurement {
    PassResult pass;
    std::map<QString, CommandStat> stats;   // timed passes only
    long long usedMemoryDelta = 0;
    long long keys = 0;
    ServerSession::KeySurvey survey;
};

struct PassHooks {
    std::function<void(ProgressState, const QString &phase)> report;
    std::function<void(const QString &line)> log;
    std::function<bool()> reachNextPhase;                                  // false when cancelled
    std::function<void(const PassResult &soFar, const LivePass &pass)> ticked;   // progress, live figures
};

class PassRunner {
public:
    // `serverPid` is 0 for a server Versus did not launch: it is never pinned.
    PassRunner(const WorkerJob &job, ServerSession &session, QString host, int port, qint64 serverPid, PassHooks hooks);

    // A cancelled pass is not an error: its measurement has pass.cancelled set.
    Outcome<PassMeasurement> run(const PassPlan &plan);

private:
    Outcome<long long> takeBaseline(bool timed);
    Outcome<PassResult> replay(const PassPlan &plan, long long baselineBytes);
    Status measure(const PassPlan &plan, long long baselineBytes, PassMeasurement &out);
    QString connectionName() const;

    const WorkerJob &m_job;
    ServerSession &m_session;
    QString m_host;
    int m_port = 0;
    qint64 m_serverPid = 0;
    PassHooks m_hooks;
};
