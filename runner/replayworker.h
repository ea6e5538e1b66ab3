#pragma once
// Everything one server goes through in a run, in its own thread: start (or reach) the
// server, replay each repeat's passes, measure, stop. Talks to the controller only through
// queued signals carrying values.

#include "cpupinning.h"
#include "resultsbundle.h"
#include "runrequest.h"
#include <QObject>
#include <atomic>
#include <memory>

class FairScheduler;
class PassSpeedometer;
class PhaseBarrier;
class RedisConnection;
class ServerProcess;
class ServerSession;

struct WorkerJob {
    int runId = 0;
    int index = 0;                        // position in the request's server list
    ServerSpec spec;
    std::shared_ptr<const Workload> workload;
    WorkloadDescription description;
    int repeats = 1;
    int eventsPerBatch = 1;
    bool allowFlush = false;
    int commandTimeoutMs = 10000;
    int probeIntervalMs = 250;
    std::shared_ptr<FairScheduler> fair;  // null for the concurrent schedule
    std::shared_ptr<PhaseBarrier> phases; // shared by the run's workers; null runs unsynchronised
    std::shared_ptr<ServerCpuChooser> cpus; // pins launched servers during timed passes; fair schedule only
    std::shared_ptr<PassSpeedometer> speedometer; // samples the machine during pinned timed passes; may be null
    std::shared_ptr<std::atomic<bool>> cancelled;
};

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
    struct PassMeasurement;
    bool cancelled() const { return m_job.cancelled->load(); }
    void report(const QString &state, const QString &phase, const QString &message = {});
    void logLine(const QString &line);
    Status runRepeat(int repeat, RepeatResult &result);
    Status checkEndpointConsent(ServerSession &session);
    Status runPass(ServerSession &session, const QString &name, const QString &type, bool timed,
                   RepeatResult &totals, PassMeasurement &out);
    Status publishLive(ServerSession &session, const QString &type, bool timed, long long baselineBytes,
                       const RepeatResult &totals, long long eventsDone, long long commandsDone);
    void stopServer();
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
};
