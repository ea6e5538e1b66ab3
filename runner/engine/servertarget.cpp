#include "servertarget.h"

#include "allocatorfacts.h"
#include "clusternodes.h"
#include "endpointtarget.h"
#include "hostport.h"
#include "launchedclustertarget.h"
#include "launchedservertarget.h"
#include "serverconfig.h"

std::unique_ptr<ServerTarget> ServerTarget::create(const WorkerJob &job, ServerRun &run, TargetHooks hooks)
{
    if (job.spec().isEndpoint)
        return std::make_unique<EndpointTarget>(job, run, std::move(hooks));
    if (job.spec().topology.isCluster())
        return std::make_unique<LaunchedClusterTarget>(job, run, std::move(hooks));
    return std::make_unique<LaunchedServerTarget>(job, run, std::move(hooks));
}

ServerTarget::ServerTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks)
    : m_job(job), m_run(run), m_hooks(std::move(hooks))
{
}

ServerTarget::~ServerTarget() = default;

Status ServerTarget::reach(NodeSessions &sessions)
{
    if (Status opened = open(sessions); !opened)
        return opened;
    if (Status recorded = recordSettings(sessions); !recorded)
        return recorded;
    recordAllocator(sessions);
    if (Status routed = prepareRouting(sessions); !routed)
        return routed;
    if (Status prepared = prepareReplay(sessions); !prepared)
        return prepared;
    m_run.replayAccess = accessDescription(sessions);
    return Status::success();
}

ClusterRouting *ServerTarget::routing()
{
    ClusterNodes *nodes = cluster();
    return nodes ? nodes->routing() : m_laneRouting.routing();
}

void ServerTarget::finishRepeat(NodeSessions &) {}

Status ServerTarget::prepareReplay(NodeSessions &)
{
    return Status::success();
}

QStringList ServerTarget::stop()
{
    releaseAccess();
    return stopServer();
}

QStringList ServerTarget::restore()
{
    return {};
}

NodeAddress ServerTarget::standaloneNode(const QString &host, int port) const
{
    NodeAddress node;
    node.host = host;
    node.port = port;
    node.name = QStringLiteral("%1 (%2)").arg(m_run.id, hostPortText(host, port));
    return node;
}

// Every server's settings, once per run, for the bundle's configuration differences. An
// endpoint is read before Versus turns its latency tracking off, as its owner has it.
Status ServerTarget::recordSettings(NodeSessions &sessions)
{
    if (!m_run.config.empty())
        return Status::success();
    ServerSession &session = sessions.first();   // a cluster's nodes are of one version, started alike
    Outcome<ServerSession::SettingsReading> settings = recordedSettings(session);
    if (!settings)
        return Error{settings.error()};
    if (!settings->refusal.isEmpty() && settingsRefusalFails())
        return Error{QStringLiteral("%1: %2").arg(session.connection().name(), settings->refusal)};
    m_run.config = std::move(settings->settings);
    if (m_job.workload().commandGroups.empty() && !m_job.workload().commandNames.isEmpty()) {
        Outcome<std::map<QString, CommandKind>> kinds = commandKinds(session.connection(), m_job.workload().commandNames);
        if (!kinds)
            return Error{kinds.error()};
        m_run.commandKinds = std::move(kinds.value());
    }
    settingsRecorded();
    return Status::success();
}

// Once per run, before any pass: what each primary's allocator says. The jemalloc quantum tells
// a Debian package's build from an upstream one, which --version does not.
void ServerTarget::recordAllocator(NodeSessions &sessions)
{
    if (m_run.allocatorFacts != AllocatorFacts())
        return;
    std::vector<std::pair<QString, AllocatorFacts>> primaries;
    for (int node = 0; node < sessions.size(); ++node) {
        const NodeAddress &address = sessions.addresses()[size_t(node)];
        primaries.emplace_back(hostPortText(address.host, address.port), readAllocatorFacts(sessions.node(node).connection()));
    }
    m_run.allocatorFacts = combinedAllocatorFacts(primaries);
    const AllocatorFacts &facts = m_run.allocatorFacts;
    log(QStringLiteral("allocator: %1, %2")
            .arg(facts.memAllocator.isEmpty() ? QStringLiteral("unknown") : facts.memAllocator,
                 facts.quantumBytes > 0 ? QStringLiteral("quantum %1 B").arg(facts.quantumBytes)
                                        : QStringLiteral("quantum unknown (%1)").arg(facts.quantumProblem)));
}

// A cluster: each command to its slot's primary, the workload checked once per run. A standalone
// server with several lanes: each command to the lane of its keys' slot; without the keys
// (COMMAND INFO refused on an endpoint) it replays over one connection.
Status ServerTarget::prepareRouting(NodeSessions &sessions)
{
    const Workload &workload = *m_job.request().workload;
    if (ClusterNodes *nodes = cluster()) {
        const Status routed = nodes->prepareRouting(sessions.first().connection(), workload, !m_clusterChecked);
        m_clusterChecked = m_clusterChecked || routed;
        return routed;
    }
    if (m_job.request().clients <= 1)
        return Status::success();
    if (Status routed = m_laneRouting.prepare(sessions.first().connection(), workload, nullptr, false, m_run.id); !routed) {
        m_laneRouting.reset();
        log(QStringLiteral("one client instead of %1: %2").arg(m_job.request().clients).arg(routed.error()));
    }
    return Status::success();
}

void ServerTarget::releaseAccess()
{
    for (ReplayAccess &access : m_accesses) {
        const bool temporary = access.mode() == ReplayAccess::Mode::TemporaryUser;
        const Status released = access.release();
        if (!released)
            log(released.error());
        else if (temporary)
            log(QStringLiteral("temporary ACL user %1 deleted").arg(access.replayCredentials().user));
    }
    m_accesses.clear();
}

// How the replay connections logged in, for the bundle: a cluster's, primary by primary.
QString ServerTarget::accessDescription(const NodeSessions &sessions) const
{
    if (m_accesses.size() == 1)
        return m_accesses.front().description();
    QStringList parts;
    for (size_t index = 0; index < m_accesses.size() && index < sessions.addresses().size(); ++index) {
        const NodeAddress &node = sessions.addresses()[index];
        parts << QStringLiteral("%1: %2").arg(hostPortText(node.host, node.port), m_accesses[index].description());
    }
    return parts.join(QStringLiteral("; "));
}
