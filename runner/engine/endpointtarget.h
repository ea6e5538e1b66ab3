#pragma once
// A series on an endpoint, a server Versus did not launch, as a run uses it: the consent to
// flush it, checked again in the worker; when it is a node of a cluster, its whole cluster
// (its primaries discovered, each measured and replayed into); on every node, the settings
// captured and changed for measuring (endpointstate.h) and a replay login of its own
// (replayaccess.h); and at the end, every node put back. Blocks: lives in the worker's thread.

#include "measurementlimits.h"
#include "outcome.h"
#include "replayaccess.h"
#include "resultsbundle.h"
#include "workerjob.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <vector>

class ClusterNodes;
struct ClusterTopology;
class EndpointState;
class NodeSessions;

class EndpointTarget {
public:
    // `run` is the worker's series: its product and version are filled from the endpoint, its
    // topology from its cluster. `log` takes the lines for the worker's log.
    EndpointTarget(const WorkerJob &job, ServerRun &run, std::function<void(const QString &)> log);
    ~EndpointTarget();

    // Who the endpoint is (INFO server) and whether the run may flush it (--allow-flush).
    Status checkConsent();
    // `sessions` reach the endpoint: when it is a node of a cluster, `cluster` becomes its
    // cluster (discovered again each repeat, so a slot moved between repeats is routed right
    // from the start) and `sessions` reach every primary instead.
    Status adoptCluster(NodeSessions &sessions, std::unique_ptr<ClusterNodes> &cluster);
    // Once per node and run, before the first baseline: what restore() puts back is read, then
    // latency tracking goes off and CONFIG RESETSTAT frees the histograms it had allocated (the
    // same reason launched servers start with --latency-tracking no). Where a node refuses
    // these (limits()), every repeat's `sessions` read its statistics by difference instead.
    Status prepare(NodeSessions &sessions, bool cluster);
    // What the nodes refused of the above, together (measurementlimits.h).
    const MeasurementLimits &limits() const { return m_limits; }
    // A replay login on every node (ACL users are a node's own), appended to `accesses` in the
    // sessions' order, and each node's replay credentials set.
    Status prepareAccess(NodeSessions &sessions, bool cluster, std::vector<ReplayAccess> &accesses);
    // Every node prepared, put back, whatever another one answered; the failures, worded.
    QStringList restore();
    bool prepared() const { return !m_states.empty(); }

private:
    // The primaries found now are the ones the consent named (when it named any).
    Status sameAsConsented(const ClusterTopology &topology) const;

    const WorkerJob &m_job;
    ServerRun &m_run;
    std::function<void(const QString &)> m_log;
    std::map<QString, std::unique_ptr<EndpointState>> m_states;   // by node, "127.0.0.1:7001"
    MeasurementLimits m_limits;
};
