#include "runcoordinator.h"

#include "backgroundtasks.h"
#include "endpointconsent.h"
#include <QWidget>

RunCoordinator::RunCoordinator(QWidget *dialogParent)
    : QObject(dialogParent), m_dialogParent(dialogParent), m_controller(new RunController(this)),
      m_tasks(new BackgroundTasks(this))
{
}

RunCoordinator::~RunCoordinator() = default;

void RunCoordinator::start(RunRequest request)
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
        launch(request);
        return;
    }
    m_checking = true;
    m_cancelWhileChecking = false;
    m_tasks->run<std::vector<EndpointSize>>([endpoints] { return queryEndpointSizes(endpoints); },
                                            [this, request](const std::vector<EndpointSize> &sizes) mutable {
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
        launch(request);
    });
}

void RunCoordinator::launch(const RunRequest &request)
{
    QStringList ids;
    for (const ServerSpec &spec : request.servers)
        ids << (spec.label.isEmpty() ? spec.identity.label() : spec.label);
    const int runId = m_controller->start(request);
    Q_EMIT started(runId, ids);
}

void RunCoordinator::cancel()
{
    if (m_checking)
        m_cancelWhileChecking = true;
    m_controller->cancel();
}
