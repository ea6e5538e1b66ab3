#pragma once
// Starts runs for the window: asks endpoints for their size and the user for consent to
// flush them (off the GUI thread, then one confirmation), then hands the request to the
// RunController. The controller's signals are the window's source of progress and results.

#include "flushconsent.h"
#include "runcontroller.h"
#include "sweepcontroller.h"
#include <optional>
#include <QObject>

class BackgroundTasks;
class QWidget;

class RunCoordinator : public QObject {
    Q_OBJECT
public:
    explicit RunCoordinator(QWidget *dialogParent);
    ~RunCoordinator() override;

    // Asynchronous: emits started() or notStarted(). Endpoints are flushed only with consent.
    // With `sweep`, its points run one after the other with the request's servers and settings.
    void start(RunRequest request, std::optional<SweepRequest> sweep = std::nullopt);
    void cancel();
    // True from start() until the run finished (or did not start).
    bool isBusy() const { return m_checking || m_controller->isRunning() || m_sweep->isRunning(); }
    RunController *controller() const { return m_controller; }
    void setHideHosts(bool hide) { m_hideHosts = hide; }
    // Replaces the confirmation dialog (tests, scripted runs); returns the decision.
    void setConsentHandler(std::function<FlushDecision(const std::vector<EndpointSize> &)> handler)
    {
        m_consent = std::move(handler);
    }

Q_SIGNALS:
    void started(int runId, const QStringList &serverIds);
    void notStarted(const QString &reason);
    // Exactly once per started run or sweep, with its results (a sweep's: every point).
    void finished(const ResultsBundle &results);
    // A sweep's next point is about to run: "value-size=64 (2 of 3)".
    void sweepPointStarted(const QString &label);

private:
    void launch(const RunRequest &request, const std::optional<SweepRequest> &sweep);

    QWidget *m_dialogParent = nullptr;
    SweepController *m_sweep = nullptr;
    RunController *m_controller = nullptr;   // the sweep's: a run is a sweep's only point
    bool m_sweeping = false;
    BackgroundTasks *m_tasks = nullptr;
    std::function<FlushDecision(const std::vector<EndpointSize> &)> m_consent;
    bool m_checking = false;
    bool m_cancelWhileChecking = false;
    bool m_hideHosts = false;
};
