#pragma once
// Everything one server goes through in a run, in its own thread: start (or reach) the server
// (or launch its cluster, clusternodes.h),
// run each repeat's passes (PassRunner), publish live figures (readLiveFigures), stop. Talks to
// the controller only through queued signals carrying values.

#include "keyrouting.h"
#include "liveprobe.h"
#include "passrunner.h"
#include "replayaccess.h"
#include "resultsbundle.h"
#include "runrequest.h"
#include "serverconfig.h"
#include "workerjob.h"
#include <QElapsedTimer>
#include <QObject>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class ClusterNodes;
class EndpointTarget;
class NodeSessions;
class ServerProcess;

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
    Status reachServer(NodeSessions &sessions);
    Status startLaunched();
    Status startCluster(const QStringList &arguments);
    Status connectSessions(NodeSessions &sessions);
    Status configureLaunched(NodeSessions &sessions);
    Status recordSettings(NodeSessions &sessions);
    void recordAllocator(NodeSessions &sessions);
    Status prepareClusterRouting(NodeSessions &sessions);
    void restoreEndpoint();
    QString accessDescription(const NodeSessions &sessions) const;
    Status runPasses(PassRunner &runner, RepeatResult &result);
    void onTick(NodeSessions &sessions, const RepeatResult &finished, const PassResult &soFar, const LivePass &pass);
    void publish(const RepeatResult &snapshot);
    void keepRepeat(RepeatResult result, const Status &status);
    void stopServer();
    void releaseAccess();
    // Waits until every server in the run reaches the next phase; false when cancelled.
    bool reachNextPhase();

    WorkerJob m_job;
    ServerRun m_run;
    ServerProgress m_progress;
    long long m_eventsBeforePass = 0;
    QString m_host;
    int m_port = 0;
    int m_phase = 0;
    std::unique_ptr<ServerProcess> m_process;
    // A cluster topology, or an endpoint that is a node of a cluster: the cluster of the repeat running.
    std::unique_ptr<ClusterNodes> m_cluster;
    bool m_clusterChecked = false;              // the workload was found routable, once per run
    bool m_warmed = false;                      // an endpoint's latency histograms allocated (PassRunner::warm)
    KeyRouting m_laneRouting;                   // a standalone server's lanes, with --clients above 1
    ServerSettings m_startSettings;   // --server-config settings the server takes only at start
    std::unique_ptr<EndpointTarget> m_endpoint;   // an endpoint's series: consent, its cluster, what to put back
    // How the replay connections log in, one per node (a launched server's: one); set by reachServer().
    std::vector<ReplayAccess> m_accesses;
    RepeatResult m_lastLive;            // the latest live figures of the repeat running
    bool m_hasLive = false;
    QElapsedTimer m_passClock;
    QElapsedTimer m_sinceProbe;
    QString m_probeError;
};
