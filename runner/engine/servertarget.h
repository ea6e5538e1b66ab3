#pragma once
// The server one worker measures, whatever it is: a server Versus launches (launchedtarget.h:
// a standalone one, or a cluster of its version), or an endpoint it did not launch, which may
// turn out to be a node of a cluster (endpointtarget.h). A worker reaches it at the start of
// every repeat, replays into it, stops it at the end of every repeat and restores it at the end
// of the run; what it is decides what each step does, and what the series records of it.
//
// reach() runs the same steps for every kind, in this order, so that what is recorded never
// depends on what was changed:
//   open      started, or the consent to flush it checked; connected; an endpoint's cluster
//             adopted; a launched server given --server-config (started again for settings it
//             takes only at start)
//   settings  CONFIG GET * and the commands' kinds, once per run, before anything is changed
//             on an endpoint (its latency tracking is turned off only by prepareReplay)
//   allocator what each primary's allocator says, once per run
//   routing   a cluster's slot map (the workload checked once per run), or a standalone
//             server's lanes with --clients above 1
//   replay    how the replay connections log in (an endpoint's settings changed for measuring
//             and its replay logins made here)
// Blocks: lives in the worker's thread.

#include "keyrouting.h"
#include "nodesessions.h"
#include "outcome.h"
#include "replayaccess.h"
#include "resultsbundle.h"
#include "workerjob.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

class ClusterNodes;

struct TargetHooks {
    std::function<void(const QString &line)> log;
    std::function<void(ProgressState state, const QString &phase)> report;
};

class ServerTarget {
public:
    // The target `job`'s server needs; `run` is the worker's series, which the target fills
    // with what it learns of the server (executable, settings, allocator, limits, access).
    static std::unique_ptr<ServerTarget> create(const WorkerJob &job, ServerRun &run, TargetHooks hooks);
    virtual ~ServerTarget();
    ServerTarget(const ServerTarget &) = delete;
    ServerTarget &operator=(const ServerTarget &) = delete;

    // How TLS connections to it are trusted, for the run's first log line.
    virtual QString tlsNote() const = 0;
    // At the start of every repeat: the server ready for its passes, `sessions` connected to
    // its node or its cluster's primaries (the steps above).
    Status reach(NodeSessions &sessions);
    // Set by reach(): how the replay connections log in (every node's login is in `sessions`).
    const ReplayAccess &replayAccess() const { return m_accesses.front(); }
    // Set by reach(): a cluster's routing by slot, a standalone server's lanes, or null.
    ClusterRouting *routing();
    // After a repeat's last pass.
    virtual void finishRepeat(NodeSessions &sessions);
    // The last lines of its log for a failed repeat's record: empty where Versus has no log.
    virtual QStringList logTail() const = 0;
    // At the end of every repeat: the replay logins released, a launched server stopped. Returns
    // the log's last lines as they were before it stopped.
    QStringList stop();
    // At the end of the run, completed, failed or cancelled: what the run changed on a server
    // it did not launch put back. The failures, worded.
    virtual QStringList restore();

protected:
    ServerTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks);

    void log(const QString &line) const { m_hooks.log(line); }
    void report(ProgressState state, const QString &phase) const { m_hooks.report(state, phase); }
    // The cluster reached, or null for a standalone server.
    virtual ClusterNodes *cluster() = 0;
    virtual Status open(NodeSessions &sessions) = 0;
    virtual Status prepareReplay(NodeSessions &sessions);
    virtual QStringList stopServer() = 0;
    // A launched server that refuses CONFIG GET fails the run; an endpoint that does is
    // measured around it (one of its limits, measurementlimits.h).
    virtual bool settingsRefusalFails() const { return true; }
    virtual void settingsRecorded() {}
    // A standalone server's one node, named after the series.
    NodeAddress standaloneNode(const QString &host, int port) const;

    const WorkerJob &m_job;
    ServerRun &m_run;
    // How the replay connections log in, one per node in the sessions' order (a launched server's: one).
    std::vector<ReplayAccess> m_accesses;

private:
    Status recordSettings(NodeSessions &sessions);
    void recordAllocator(NodeSessions &sessions);
    Status prepareRouting(NodeSessions &sessions);
    void releaseAccess();
    QString accessDescription(const NodeSessions &sessions) const;

    TargetHooks m_hooks;
    bool m_clusterChecked = false;   // the workload was found routable to the cluster, once per run
    KeyRouting m_laneRouting;        // a standalone server's lanes, with --clients above 1
};
