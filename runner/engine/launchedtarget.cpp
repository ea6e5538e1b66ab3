#include "launchedtarget.h"

#include "presentation.h"
#include "runningexecutable.h"

QString LaunchedTarget::tlsNote() const
{
    return QStringLiteral("TLS, a throwaway CA of this run");
}

Status LaunchedTarget::open(NodeSessions &sessions)
{
    if (Status started = startWithSettings(); !started)
        return started;
    if (Status connected = connect(sessions); !connected)
        return connected;
    if (m_job.request().serverConfig.empty())
        return Status::success();
    return configure(sessions);
}

Status LaunchedTarget::startWithSettings()
{
    return start(QStringList{QStringLiteral("--latency-tracking"), QStringLiteral("no")} + startArguments(m_startSettings));
}

RunningExecutable LaunchedTarget::recordExecutable(qint64 pid)
{
    RunningExecutable running = runningExecutableOf(pid);
    m_run.executablePath = running.path;
    m_run.executableSha256 = running.sha256;
    return running;
}

ServerConfigOutcome LaunchedTarget::applyEverywhere(NodeSessions &sessions) const
{
    const ServerSettings &requested = m_job.request().serverConfig;
    ServerConfigOutcome first = applyServerConfig(sessions.first(), requested, m_startSettings, serverDisplayName(m_run));
    for (int node = 1; node < sessions.size(); ++node)
        applyServerConfig(sessions.node(node), requested, m_startSettings, serverDisplayName(m_run));
    return first;
}

Status LaunchedTarget::configure(NodeSessions &sessions)
{
    ServerConfigOutcome outcome = applyEverywhere(sessions);
    if (!outcome.startOnly.empty()) {
        m_startSettings.insert(m_startSettings.end(), outcome.startOnly.begin(), outcome.startOnly.end());
        log(QStringLiteral("starting again with %1: not settable while running")
                .arg(startArguments(outcome.startOnly).join(QLatin1Char(' '))));
        stop();
        if (Status started = startWithSettings(); !started)
            return Error{QStringLiteral("%1 (started with %2)").arg(started.error(), startArguments(m_startSettings).join(QLatin1Char(' ')))};
        if (Status connected = connect(sessions); !connected)
            return connected;
        outcome = applyEverywhere(sessions);
    }
    if (m_run.configApplied.empty() && m_run.configRefused.empty()) {
        for (const auto &[name, value] : outcome.applied)
            log(QStringLiteral("server config: %1 %2").arg(name, value));
        for (const auto &[name, why] : outcome.refused)
            log(QStringLiteral("server config: %1 not applied: %2").arg(name, why));
    }
    m_run.configApplied = outcome.applied;
    m_run.configRefused = outcome.refused;
    return Status::success();
}
