#pragma once
// A series on an endpoint, a server Versus did not launch, as a run uses it: the consent to
// flush it, checked again in the worker; when it is a node of a cluster, its whole cluster
// (its primaries discovered, each measured and replayed into); on every node, the settings
// captured and changed for measuring (endpointstate.h) and a replay login of its own
// (replayaccess.h); at the end of each repeat, flushed again; and at the end of the run, every
// node put back. Blocks: lives in the worker's thread.

#include "measurementlimits.h"
#include "servertarget.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

class ClusterNodes;
struct ClusterTopology;
class EndpointState;

class EndpointTarget : public ServerTarget {
public:
    // `run` is the worker's series: its product and version are filled from the endpoint, its
    // topology from its cluster.
    EndpointTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks);
    ~EndpointTarget() override;

    // The endpoint's own (tlssettings.h): how its certificate is checked, or not.
    QString tlsNote() const override;
    // The consent was to flush it: it is left as empty as it was asked to be.
    void finishRepeat(NodeSessions &sessions) override;
    // Versus has no endpoint's log.
    QStringList logTail() const override { return {}; }
    // Every node prepared, put back, whatever another one answered.
    QStringList restore() override;

private:
    ClusterNodes *cluster() override { return m_cluster.get(); }
    Status open(NodeSessions &sessions) override;
    Status prepareReplay(NodeSessions &sessions) override;
    // The access is released by stop(); the endpoint goes on running.
    QStringList stopServer() override { return {}; }
    bool settingsRefusalFails() const override { return false; }
    void settingsRecorded() override;

    // Who the endpoint is (INFO server) and whether the run may flush it (--allow-flush).
    Status checkConsent();
    // Its node, or its cluster's primaries once adopted.
    Status connect(NodeSessions &sessions);
    // `sessions` reach the endpoint: when it is a node of a cluster, that cluster is adopted
    // (discovered again each repeat, so a slot moved between repeats is routed right from the
    // start) and `sessions` reach every primary instead.
    Status adoptCluster(NodeSessions &sessions);
    // The primaries found now are the ones the consent named (when it named any).
    Status sameAsConsented(const ClusterTopology &topology) const;
    // Once per node and run, before the first baseline: what restore() puts back is read, then
    // latency tracking goes off and CONFIG RESETSTAT frees the histograms it had allocated (the
    // same reason launched servers start with --latency-tracking no). Where a node refuses
    // these (m_limits), every repeat's `sessions` read its statistics by difference instead.
    Status prepareNodes(NodeSessions &sessions);
    // A replay login on every node (ACL users are a node's own), in the sessions' order, and
    // each node's replay credentials set.
    Status prepareAccess(NodeSessions &sessions);

    std::unique_ptr<ClusterNodes> m_cluster;   // when the endpoint is a node of a cluster
    std::map<QString, std::unique_ptr<EndpointState>> m_states;   // by node, "127.0.0.1:7001"
    // The code of each function library the workload loads, read once: the only libraries the
    // end of the run deletes or puts back (endpointstate.h).
    std::optional<std::set<std::string>> m_workloadLibraries;
    MeasurementLimits m_limits;   // what the nodes refused of prepareNodes(), together (measurementlimits.h)
};
