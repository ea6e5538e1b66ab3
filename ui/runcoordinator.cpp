#include "runcoordinator.h"

#include "backgroundtasks.h"
#include "endpointconsent.h"
#include <QWidget>

RunCoordinator::RunCoordinator(QWidget *dialogParent)
    : QObject(dialogParent), m_dialogParent(dialogParent), m_sweep(new SweepController(this)),
      m_controller(&m_sweep->runs()), m_tasks(new BackgroundTasks(this))
{
    connect(m_controller, &RunController::runFinished, this, [this](const ResultsBundle &results) {
        if (!m_sweeping)
            Q_EMIT finished(results);
    });
    connect(m_sweep, &SweepController::pointStarted, this, [this](int, int, const QString &label) {
        Q_EMIT sweepPointStarted(label);
    });
    // The sweep's last point finishes before the sweep does; m_sweeping stays set until the next
    // launch, so that point's own runFinished, heard after the sweep's, is not taken for the end.
    connect(m_sweep, &SweepController::sweepFinished, this, [this](const ResultsBundle &results) {
        Q_EMIT finished(results);
    });
}

RunCoordinator::~RunCoordinator() = default;

void RunCoordinator::start(RunRequest request, std::optional<SweepRequest> sweep)
{
    if (isBusy()) {
        Q_EMIT notStarted(tr("A run is already in progress."));
        return;
    }
    if (request.servers.empty()) {
        Q_EMIT notStarted(tr("Select at least one server."));
        return;
    }
    if (!request.workload) {
        Q_EMIT notStarted(tr("The workload is not ready."));
        return;
    }
    std::vector<ServerSpec> endpoints;
    for (const ServerSpec &spec : request.servers)
        if (spec.isEndpoint)
            endpoints.push_back(spec);
    request.allowFlush = false;   // the default is to refuse
    if (endpoints.empty()) {
        launch(request, sweep);
        return;
    }
    m_checking = true;
    m_cancelWhileChecking = false;
    m_tasks->run<std::vector<EndpointSize>>([endpoints] { return queryEndpointSizes(endpoints); },
                                            [this, request, sweep](const std::vector<EndpointSize> &sizes) mutable {
        m_checking = false;
        if (m_cancelWhileChecking) {
            Q_EMIT notStarted(tr("Cancelled."));
            return;
        }
        std::vector<NamedProbe> probes;
        for (const EndpointSize &size : sizes)
            if (size.probe)
                probes.push_back({size.label, *size.probe});
        if (Status distinct = refuseSameServerTwice(probes); !distinct) {
            Q_EMIT notStarted(tr("Not started: %1.").arg(distinct.error()));
            return;
        }
        const FlushDecision decision = m_consent ? m_consent(sizes) : askFlushConsent(m_dialogParent, sizes, m_hideHosts);
        if (decision == FlushDecision::CancelRun) {
            Q_EMIT notStarted(tr("Cancelled: endpoints were not flushed."));
            return;
        }
        request.allowFlush = decision == FlushDecision::Allow;
        for (ServerSpec &spec : request.servers)
            for (const EndpointSize &size : sizes)
                if (spec.isEndpoint && spec.label == size.label && size.probe)
                    describeEndpoint(spec, *size.probe);
        launch(request, sweep);
    });
}

void RunCoordinator::launch(const RunRequest &request, const std::optional<SweepRequest> &sweep)
{
    QStringList ids;
    for (const ServerSpec &spec : request.servers)
        ids << (spec.label.isEmpty() ? spec.identity.label() : spec.label);
    m_sweeping = sweep.has_value();
    if (!sweep) {
        const int runId = m_controller->start(request);
        Q_EMIT started(runId, ids);
        return;
    }
    SweepRequest points = *sweep;
    points.run = request;
    Q_EMIT started(0, ids);
    m_sweep->start(points);
}

void RunCoordinator::cancel()
{
    if (m_checking)
        m_cancelWhileChecking = true;
    if (m_sweeping)
        m_sweep->cancel();
    else
        m_controller->cancel();
}
