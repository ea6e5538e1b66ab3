#pragma once
// Runs a sweep: the same comparison at each value of one workload parameter, one point after
// the other, each an ordinary run (RunController) on freshly started servers. A sweep of N
// points costs N runs. The points end up in one bundle (ResultsBundle::sweep).

#include "resultsbundle.h"
#include "runcontroller.h"
#include "runrequest.h"
#include <QObject>
#include <memory>
#include <vector>

struct SweepRequest {
    RunRequest run;                     // servers, repeats, schedule…; its workload is not used
    QString parameter;                  // "value-size"
    QString defaultValue;               // the workload's own value of it: the point shown by default
    struct Point {
        QString value;                  // "64"
        std::shared_ptr<const Workload> workload;   // the workload with the parameter at this value
        int eventsPerBatch = 0;         // a batch sweep's depth at this point; 0: the run's own
    };
    std::vector<Point> points;
};

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject *parent = nullptr);

    // Starts the first point; any sweep or run still going is cancelled first.
    void start(const SweepRequest &request);
    // Cancels the point being run; the points after it are not started.
    void cancel();
    bool isRunning() const;
    // The controller that runs each point: its progress and log signals are the sweep's.
    RunController &runs() { return m_runs; }

Q_SIGNALS:
    // A point is about to start; `label` reads "value-size=64 (3 of 7)".
    void pointStarted(int index, int count, const QString &label);
    // The sweep so far, the shown point the last one finished (after each point).
    void resultsChanged(const ResultsBundle &results);
    // Exactly once per started sweep: every point, or those run before a cancel or a failure.
    void sweepFinished(const ResultsBundle &results);

private:
    void startPoint(int index);
    void pointFinished(const ResultsBundle &results);
    void finish();
    ResultsBundle assembled(bool finished) const;

    RunController m_runs;
    SweepRequest m_request;
    std::vector<ResultsBundle> m_done;
    int m_current = -1;
    bool m_cancelled = false;
    int m_generation = 0;
};
