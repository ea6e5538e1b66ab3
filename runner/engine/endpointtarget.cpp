#include "endpointtarget.h"

#include "clusternodes.h"
#include "clustermembership.h"
#include "clustertopology.h"
#include "endpointprobe.h"
#include "endpointstate.h"
#include "hostport.h"
#include "nodesessions.h"
#include "presentation.h"
#include "workloadlibraries.h"

EndpointTarget::EndpointTarget(const WorkerJob &job, ServerRun &run, TargetHooks hooks)
    : ServerTarget(job, run, std::move(hooks))
{
    m_run.origin.kind = BuildKind::Endpoint;
    m_run.endpoint = true;
}

EndpointTarget::~EndpointTarget() = default;

QString EndpointTarget::tlsNote() const
{
    return tlsDescription(m_job.spec().tls);
}

Status EndpointTarget::open(NodeSessions &sessions)
{
    if (Status consent = checkConsent(); !consent)
        return consent;
    if (Status connected = connect(sessions); !connected)
        return connected;
    return adoptCluster(sessions);
}

Status EndpointTarget::connect(NodeSessions &sessions)
{
    if (m_cluster)
        return sessions.connect(m_cluster->nodes(), m_job.request().commandTimeoutMs);
    const ServerSpec &spec = m_job.spec();
    NodeAddress node = standaloneNode(spec.host, spec.port);
    node.control = spec.login();   // the replay login: once access is prepared
    node.tls = spec.tls;
    return sessions.connect({node}, m_job.request().commandTimeoutMs);
}

void EndpointTarget::settingsRecorded()
{
    if (!m_job.request().serverConfig.empty())
        log(QStringLiteral("server config: not applied to an endpoint (Versus changes only what it must there)"));
}

Status EndpointTarget::prepareReplay(NodeSessions &sessions)
{
    if (Status prepared = prepareNodes(sessions); !prepared)
        return prepared;
    m_run.limits = m_limits;
    // A launched server has no client but ours; an endpoint may have its own.
    if (Status noted = sessions.noteIdleClients(); !noted)
        return noted;
    // Latency tracking was turned off by prepareNodes(), and is put back by restore().
    return prepareAccess(sessions);
}

void EndpointTarget::finishRepeat(NodeSessions &sessions)
{
    sessions.flushSync(m_job.request().commandTimeoutMs);
}

Status EndpointTarget::checkConsent()
{
    const Outcome<EndpointProbe> probe = probeEndpoint(m_job.spec(), m_job.request().commandTimeoutMs);
    if (!probe)
        return Error{probe.error()};
    if (const QString why = probe->unmeasurableBecause(m_run.id); !why.isEmpty())
        return Error{why};
    if (m_run.version.isEmpty()) {
        m_run.product = probe->product;
        m_run.version = probe->version;
    }
    if (!m_job.request().allowFlush)
        return Error{QStringLiteral("refusing to flush endpoint %1 (%2 keys): Versus did not launch it; "
                                    "allow flushing it explicitly to use it")
                         .arg(probe->where).arg(probe->totalKeys())};
    return Status::success();
}

Status EndpointTarget::adoptCluster(NodeSessions &sessions)
{
    RedisConnection &connection = sessions.first().connection();
    const Outcome<bool> enabled = isClusterEnabled(connection);
    if (!enabled)
        return Error{enabled.error()};
    if (!enabled.value())
        return Status::success();
    const ServerSpec &spec = m_job.spec();
    const Outcome<ClusterTopology> topology = discoverCluster(connection, spec.host);
    if (!topology)
        return Error{topology.error()};
    if (!topology->coversEverySlot())
        return Error{QStringLiteral("%1 is a node of a cluster whose primaries do not serve every slot once (CLUSTER SHARDS); "
                                    "a run needs every slot served")
                         .arg(hostPortText(spec.host, spec.port))};
    if (Status consented = sameAsConsented(topology.value()); !consented)
        return consented;
    // Discovered again each repeat: each primary proves again that it is a member before the
    // sessions log in to it and flush it.
    const MembershipProof proof{hostPortText(spec.host, spec.port), topology->askedId, spec.login(), spec.authOtherNodes,
                                m_job.request().commandTimeoutMs, spec.tls};
    if (Status members = proveClusterMembers(topology.value(), proof); !members)
        return members;
    m_run.topology.primaries = int(topology->primaries.size());
    if (!m_cluster) {
        ServerRun named = m_run;   // its nodes are named "Valkey 9.1.2 · cluster ×3 (<node>)", as launched ones are
        named.endpoint = false;
        m_cluster = std::make_unique<ClusterNodes>(spec, serverDisplayName(named));
    }
    m_cluster->adopt(topology.value(), proof);
    log(QStringLiteral("a cluster endpoint: %1").arg(m_cluster->describe()));
    return sessions.connect(m_cluster->nodes(), m_job.request().commandTimeoutMs);
}

Status EndpointTarget::sameAsConsented(const ClusterTopology &topology) const
{
    QStringList consented = m_job.spec().consentedPrimaries;
    if (consented.isEmpty())
        return Status::success();
    QStringList found;
    for (const ClusterPrimary &primary : topology.primaries)
        found << hostPortText(primary.host, primary.port);
    consented.sort();
    found.sort();
    if (found == consented)
        return Status::success();
    return Error{QStringLiteral("the cluster's primaries are no longer those the consent to flush named (%1; now %2): "
                                "the run stops before flushing them; run again to see what it would delete")
                     .arg(consented.join(QStringLiteral(", ")), found.join(QStringLiteral(", ")))};
}

Status EndpointTarget::prepareNodes(NodeSessions &sessions)
{
    const bool cluster = m_cluster != nullptr;
    if (!m_workloadLibraries) {
        Outcome<std::set<std::string>> libraries = librariesLoadedBy(*m_job.request().workload, m_job.workload().commandNames);
        if (!libraries)
            return Error{libraries.error()};
        m_workloadLibraries = std::move(libraries.value());
    }
    for (const NodeAddress &node : sessions.addresses()) {
        const QString where = hostPortText(node.host, node.port);
        if (m_states.count(where))
            continue;
        ServerSpec spec = m_job.spec();
        spec.host = node.host;
        spec.port = node.port;
        spec.user = node.control.user;   // the node's own login (clustermembership.h)
        spec.password = node.control.password;
        const QString name = cluster ? QStringLiteral("primary %1").arg(where) : m_run.id;
        auto state = std::make_unique<EndpointState>(spec, m_job.request().commandTimeoutMs, name);
        state->setWorkloadLibraries(*m_workloadLibraries);
        if (Status captured = state->capture(); !captured)
            return captured;
        for (const QString &note : state->takeNotes())
            log(note);
        // Kept before it changes anything, so that whatever follows, restore() puts it back.
        EndpointState &kept = *(m_states[where] = std::move(state));
        const Status prepared = kept.prepareForMeasuring();
        for (const QString &note : kept.takeNotes())
            log(note);
        if (!prepared)
            return prepared;
        if (kept.limits().any())
            log(QStringLiteral("%1 refuses what Versus changes for measuring; measured around it: %2")
                    .arg(cluster ? name : QStringLiteral("the endpoint"), kept.limits().describe().join(QStringLiteral("; "))));
        m_limits.add(kept.limits());
    }
    sessions.setResetByDifference(m_limits.statsByDifference());
    return Status::success();
}

Status EndpointTarget::prepareAccess(NodeSessions &sessions)
{
    const bool cluster = m_cluster != nullptr;
    for (int index = 0; index < sessions.size(); ++index) {
        const NodeAddress &node = sessions.addresses()[size_t(index)];
        EndpointLogin login;
        login.host = node.host;
        login.port = node.port;
        login.name = QStringLiteral("%1 (%2)").arg(m_run.id, hostPortText(node.host, node.port));
        login.owner = node.control;
        login.tls = m_job.spec().tls;
        login.timeoutMs = m_job.request().commandTimeoutMs;
        Outcome<ReplayAccess> access = ReplayAccess::forEndpoint(login, m_job.workload().commandNames);
        if (!access)
            return Error{access.error()};
        m_accesses.push_back(std::move(access.value()));
        sessions.setReplayCredentials(index, m_accesses.back().replayCredentials());
        const QString where = cluster ? QStringLiteral("primary %1: ").arg(hostPortText(node.host, node.port)) : QString();
        log(QStringLiteral("%1replay connections: %2").arg(where, m_accesses.back().description()));
        if (const QStringList &left = m_accesses.back().leftoverUsers(); !left.isEmpty())
            log(QStringLiteral("%1: ACL users left by an earlier run of Versus that was stopped before deleting them (or "
                               "in use by a run going on now): %2; each has a password no one knows any more; "
                               "versus servers --endpoint %1 --put-back removes them")
                    .arg(hostPortText(node.host, node.port), left.join(QStringLiteral(", "))));
    }
    if (!m_accesses.empty() && !m_accesses.front().filter().empty())
        log(QStringLiteral("refused before sending, not data commands or scripts: %1")
                .arg(m_accesses.front().filter().labels().join(QStringLiteral(", "))));
    return Status::success();
}

QStringList EndpointTarget::restore()
{
    if (m_states.empty())
        return {};
    report(ProgressState::Measuring, QStringLiteral("restoring the endpoint"));
    QStringList failures;
    for (auto &[where, state] : m_states) {
        const Outcome<QStringList> restored = state->restore();
        if (!restored) {
            log(QStringLiteral("could not restore the endpoint: %1").arg(restored.error()));
            failures << restored.error();
            continue;
        }
        for (const QString &line : restored.value())
            log(line);
    }
    m_states.clear();
    return failures;
}
