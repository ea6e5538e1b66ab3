#pragma once
// Runs a comparison: one worker thread and connection per server, results back as values
// in queued signals. Lives in the GUI (or main) thread and never blocks it. Results that
// arrive from a cancelled or superseded run are dropped by run id.

#include "resultsbundle.h"
#include "runrequest.h"
#include <QObject>
#include <memory>

struct RunShared;

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;   // cancels and waits for the workers; no server outlives it

    // Starts a run and returns its id. Any previous run is cancelled first.
    int start(const RunRequest &request);
    // Stops every worker within about a second; servers are shut down and the partial
    // results are marked incomplete.
    void cancel();
    bool isRunning() const;
    // The results so far (live figures while running, final ones afterwards).
    const ResultsBundle &results() const { return m_results; }

Q_SIGNALS:
    void serverProgress(const ServerProgress &progress);
    void serverLog(const QString &serverId, const QString &line);
    // Live or final figures changed; coalesced, a few times a second at most.
    void resultsChanged(const ResultsBundle &results);
    // Exactly once per started run, complete or not.
    void runFinished(const ResultsBundle &results);

private:
    void flushCoalesced();
    void resetResults(const RunRequest &request, const WorkloadInfo &workload);
    std::shared_ptr<RunShared> sharedStateFor(const RunRequest &request) const;
    void launchWorker(int runId, int index);
    void workerFinished(int index, const ServerRun &run);

    struct Private;
    std::unique_ptr<Private> d;
    int m_runId = 0;
    ResultsBundle m_results;
};
