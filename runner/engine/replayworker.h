#pragma once
// Everything one server goes through in a run, in its own thread: each repeat reaches the
// server (servertarget.h: a launched server, a launched cluster or an endpoint), runs its passes
// (PassRunner), adds each pass to the repeat's result (repeatassembly.h), publishes live figures
// (readLiveFigures) and stops the server; at the end the target restores what it changed. Talks
// to the controller only through queued signals carrying values.

#include "liveprobe.h"
#include "passrunner.h"
#include "resultsbundle.h"
#include "runrequest.h"
#include "workerjob.h"
#include <QElapsedTimer>
#include <QObject>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class NodeSessions;
class ServerTarget;

class ReplayWorker : public QObject {
    Q_OBJECT
public:
    explicit ReplayWorker(WorkerJob job);
    ~ReplayWorker() override;

public Q_SLOTS:
    void run();

Q_SIGNALS:
    void progress(int runId, int index, const ServerProgress &progress);
    void live(int runId, int index, const RepeatResult &partial);
    void log(int runId, const QString &serverId, const QString &line);
    void finished(int runId, int index, const ServerRun &result);

private:
    bool cancelled() const { return m_job.cancelled(); }
    void report(ProgressState state, const QString &phase, const QString &message = {});
    void logLine(const QString &line);
    Status runRepeat(RepeatResult &result);
    Status runPasses(PassRunner &runner, RepeatResult &result);
    // --profile, in the last repeat: behind the phase barrier, so after every server's timed
    // passes, one untimed pass under perf (profilepass.h) into m_run.profile.
    void profileServer(NodeSessions &sessions);
    ServerProfile profileOf(NodeSessions &sessions);
    void onTick(NodeSessions &sessions, const RepeatResult &finished, const PassResult &soFar, const LivePass &pass);
    void publish(const RepeatResult &snapshot);
    void keepRepeat(RepeatResult result, const Status &status);
    void stopServer();
    void restoreServer();
    // Waits until every server in the run reaches the next phase; false when cancelled.
    bool reachNextPhase();

    WorkerJob m_job;
    ServerRun m_run;
    ServerProgress m_progress;
    long long m_eventsBeforePass = 0;
    int m_phase = 0;
    std::unique_ptr<ServerTarget> m_target;
    bool m_warmed = false;              // an endpoint's latency histograms allocated (PassRunner::warm)
    RepeatResult m_lastLive;            // the latest live figures of the repeat running
    bool m_hasLive = false;
    QElapsedTimer m_passClock;
    QElapsedTimer m_sinceProbe;
    QString m_probeError;
};
