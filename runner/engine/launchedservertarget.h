#pragma once
// A standalone server Versus launches (serverprocess.h), fresh for every repeat.

#include "launchedtarget.h"
#include <memory>

class ServerProcess;

class LaunchedServerTarget : public LaunchedTarget {
public:
    LaunchedServerTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks);
    ~LaunchedServerTarget() override;

    // The console output's and the server log's last 20 lines.
    QStringList logTail() const override;

private:
    ClusterNodes *cluster() override { return nullptr; }
    Status start(const QStringList &arguments) override;
    Status connect(NodeSessions &sessions) override;
    QStringList stopServer() override;

    std::unique_ptr<ServerProcess> m_process;
};
