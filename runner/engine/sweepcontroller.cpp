#include "sweepcontroller.h"

#include "sweepbundle.h"

#include <QTimer>

SweepController::SweepController(QObject *parent) : QObject(parent)
{
    connect(&m_runs, &RunController::runFinished, this, &SweepController::pointFinished);
}

bool SweepController::isRunning() const
{
    return m_current >= 0;
}

void SweepController::cancel()
{
    m_cancelled = true;
    m_runs.cancel();
}

void SweepController::start(const SweepRequest &request)
{
    m_runs.cancel();
    ++m_generation;
    m_request = request;
    m_done.clear();
    m_cancelled = false;
    m_current = -1;
    if (m_request.points.empty()) {
        const ResultsBundle empty = assembled(true);
        QTimer::singleShot(0, this, [this, empty, generation = m_generation] {
            if (generation == m_generation)
                Q_EMIT sweepFinished(empty);
        });
        return;
    }
    startPoint(0);
}

void SweepController::startPoint(int index)
{
    m_current = index;
    const SweepRequest::Point &point = m_request.points[size_t(index)];
    Q_EMIT pointStarted(index, int(m_request.points.size()),
                        sweepPointLabel(m_request.parameter, point.value, index, int(m_request.points.size())));
    RunRequest run = m_request.run;
    run.workload = point.workload;
    if (point.eventsPerBatch > 0)
        run.eventsPerBatch = point.eventsPerBatch;
    m_runs.start(run);
}

void SweepController::pointFinished(const ResultsBundle &results)
{
    if (m_current < 0)
        return;
    m_done.push_back(results);
    const int next = m_current + 1;
    // A point that did not finish (cancelled, Ctrl-C) ends the sweep; a failed server does not:
    // the other servers' figures at the next values are still worth having.
    if (m_cancelled || !results.complete || next >= int(m_request.points.size())) {
        finish();
        return;
    }
    Q_EMIT resultsChanged(assembled(false));
    // The next run starts once this one's signal has returned.
    QTimer::singleShot(0, this, [this, next, generation = m_generation] {
        if (generation != m_generation)
            return;
        if (m_cancelled)
            finish();
        else
            startPoint(next);
    });
}

void SweepController::finish()
{
    m_current = -1;
    const ResultsBundle bundle = assembled(true);
    Q_EMIT resultsChanged(bundle);
    Q_EMIT sweepFinished(bundle);
}

// The points run so far in one bundle; the top level shows the default point once every point
// ran, else the last one finished.
ResultsBundle SweepController::assembled(bool finished) const
{
    ResultsBundle bundle = m_done.empty() ? ResultsBundle() : m_done.front();
    bundle.sweep.parameter = m_request.parameter;
    bool complete = m_done.size() == m_request.points.size();
    for (size_t i = 0; i < m_done.size(); ++i) {
        SweepPoint point;
        point.value = m_request.points[i].value;
        point.workload = m_done[i].workload;
        point.eventsPerBatch = m_done[i].eventsPerBatch;
        point.complete = m_done[i].complete;
        point.servers = m_done[i].servers;
        complete = complete && point.complete;
        bundle.sweep.points.push_back(point);
    }
    const bool everyPoint = m_done.size() == m_request.points.size();
    const int shown = everyPoint ? defaultSweepPoint(bundle.sweep, m_request.defaultValue) : int(m_done.size()) - 1;
    bundle = showingSweepPoint(bundle, shown);
    bundle.complete = complete;
    bundle.running = !finished;
    return bundle;
}
