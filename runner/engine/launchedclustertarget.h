#pragma once
// A cluster of one version Versus launches (clusternodes.h, localcluster.h), every node
// started with the same arguments, formed and its slot map checked before anything is
// measured; a fresh one for every repeat.

#include "clusternodes.h"
#include "launchedtarget.h"

class LaunchedClusterTarget : public LaunchedTarget {
public:
    LaunchedClusterTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks);

    // Every node's last 10 lines, each headed by its node.
    QStringList logTail() const override;

private:
    ClusterNodes *cluster() override { return &m_cluster; }
    Status start(const QStringList &arguments) override;
    Status connect(NodeSessions &sessions) override;
    QStringList stopServer() override;

    ClusterNodes m_cluster;
};
