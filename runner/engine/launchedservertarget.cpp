#include "launchedservertarget.h"

#include "runningexecutable.h"
#include "serverprocess.h"

namespace {
constexpr int logTailLines = 20;
}

LaunchedServerTarget::LaunchedServerTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks)
    : LaunchedTarget(job, run, std::move(hooks))
{
}

LaunchedServerTarget::~LaunchedServerTarget() = default;

Status LaunchedServerTarget::start(const QStringList &arguments)
{
    const ServerSpec &spec = m_job.spec();
    m_process = std::make_unique<ServerProcess>(spec);
    m_process->setExtraArguments(arguments);
    if (Status started = m_process->start(std::max(10000, m_job.request().commandTimeoutMs)); !started)
        return started;
    const qint64 pid = m_process->pid() > 0 ? m_process->pid() : m_process->launchedPid();
    log(QStringLiteral("started on %1:%2 (pid %3)").arg(m_process->host()).arg(m_process->port()).arg(pid));
    if (!m_process->pidNote().isEmpty())
        log(m_process->pidNote());
    const RunningExecutable running = recordExecutable(pid);
    if (const QString note = runningExecutableNote(running, spec.binarySha256); !note.isEmpty())
        log(note);
    m_accesses.clear();
    m_accesses.push_back(ReplayAccess::launched(m_process->replayCredentials()));
    return Status::success();
}

Status LaunchedServerTarget::connect(NodeSessions &sessions)
{
    NodeAddress node = standaloneNode(m_process->host(), m_process->port());
    node.control = m_process->controlCredentials();
    node.replay = m_process->replayCredentials();
    node.pid = m_process->pid();
    node.tls = m_process->tls();
    return sessions.connect({node}, m_job.request().commandTimeoutMs);
}

QStringList LaunchedServerTarget::logTail() const
{
    return m_process ? m_process->logTail(logTailLines) : QStringList();
}

QStringList LaunchedServerTarget::stopServer()
{
    if (!m_process)
        return {};
    const QStringList tail = m_process->logTail(logTailLines);
    m_process->stop();
    m_process.reset();
    return tail;
}
