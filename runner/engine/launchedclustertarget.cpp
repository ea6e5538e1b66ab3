#include "launchedclustertarget.h"

#include "presentation.h"
#include "runningexecutable.h"

namespace {
constexpr int nodeLogTailLines = 10;
}

LaunchedClusterTarget::LaunchedClusterTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks)
    : LaunchedTarget(job, run, std::move(hooks)), m_cluster(job.spec(), serverDisplayName(run))
{
}

Status LaunchedClusterTarget::start(const QStringList &arguments)
{
    report(ProgressState::Starting, QStringLiteral("forming the cluster"));
    if (Status started = m_cluster.start(arguments, m_job.request().commandTimeoutMs); !started)
        return started;
    log(QStringLiteral("cluster formed: %1").arg(m_cluster.describe()));
    recordExecutable(m_cluster.firstPid());
    m_accesses.clear();
    m_accesses.push_back(ReplayAccess::launched(m_cluster.nodes().front().replay));
    return Status::success();
}

Status LaunchedClusterTarget::connect(NodeSessions &sessions)
{
    return sessions.connect(m_cluster.nodes(), m_job.request().commandTimeoutMs);
}

QStringList LaunchedClusterTarget::logTail() const
{
    return m_cluster.started() ? m_cluster.logTail(nodeLogTailLines) : QStringList();
}

QStringList LaunchedClusterTarget::stopServer()
{
    if (!m_cluster.started())
        return {};
    const QStringList tail = m_cluster.logTail(nodeLogTailLines);
    m_cluster.stop();
    return tail;
}
