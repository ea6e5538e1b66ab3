#pragma once
// What a server Versus launches does the same way standalone or as a cluster: started with
// latency tracking off (per-command histograms are allocated on a command's first call and
// freed by CONFIG RESETSTAT, so they would land in whichever pass runs first), and given
// --server-config: each setting set once it is up, every node alike; what CONFIG SET cannot
// change is given at start instead, so the server is started again with it, once per run
// (later repeats start with it). Every repeat starts a fresh server.

#include "serverconfig.h"
#include "servertarget.h"

struct RunningExecutable;

class LaunchedTarget : public ServerTarget {
public:
    QString tlsNote() const override;

protected:
    using ServerTarget::ServerTarget;

    // Started with `arguments` after Versus's own; the replay access set.
    virtual Status start(const QStringList &arguments) = 0;
    virtual Status connect(NodeSessions &sessions) = 0;
    // The binary the server's process runs, recorded in the series.
    RunningExecutable recordExecutable(qint64 pid);

private:
    Status open(NodeSessions &sessions) final;
    Status startWithSettings();
    Status configure(NodeSessions &sessions);
    ServerConfigOutcome applyEverywhere(NodeSessions &sessions) const;

    ServerSettings m_startSettings;   // --server-config settings the server takes only at start
};
