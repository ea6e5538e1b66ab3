#pragma once
// Runs a comparison: one worker thread and connection per server, results back as values
// in queued signals. Lives in the GUI (or main) thread and never blocks it. Results that
// arrive from a cancelled or superseded run are dropped by run id.

#include "figures.h"
#include "resultsbundle.h"
#include "runrequest.h"
#include <QObject>
#include <memory>

struct RunShared;

// What a run records of `spec` before its worker reports (id, identity, origin, topology): its
// place in the bundle meanwhile, and what the window names a listed server by
// (serverDisplayName), so a list, a progress row and a chart name a server alike.
ServerRun placeholderRun(const ServerSpec &spec);

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
    // The results as last announced by resultsChanged(), shared and never changed.
    const BundleSnapshot &snapshot() const { return m_snapshot; }

Q_SIGNALS:
    void serverProgress(const ServerProgress &progress);
    void serverLog(const QString &serverId, const QString &line);
    // Live or final figures changed; coalesced, a few times a second at most. Each update is
    // one snapshot, copied once from the controller's results and shared by every receiver.
    void resultsChanged(const BundleSnapshot &results);
    // Exactly once per started run, complete or not: the last snapshot's bundle.
    void runFinished(const ResultsBundle &results);

private:
    void flushCoalesced();
    void announceResults();
    void resetResults(const RunRequest &request, const WorkloadInfo &workload);
    std::shared_ptr<RunShared> sharedStateFor(const RunRequest &request) const;
    void launchWorker(int runId, int index);
    void workerFinished(int index, const ServerRun &run);

    struct Private;
    std::unique_ptr<Private> d;
    int m_runId = 0;
    ResultsBundle m_results;
    BundleSnapshot m_snapshot = std::make_shared<const ResultsBundle>();
};
