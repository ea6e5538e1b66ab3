#include "endpointprobe.h"

#include "messagetext.h"

#include "clustermembership.h"
#include "clustertopology.h"
#include "hostport.h"
#include "infoparser.h"
#include "redisconnection.h"

#include <QRegularExpression>

namespace {

bool needsPassword(const QString &reply)
{
    return reply.startsWith(QLatin1String("NOAUTH")) || reply.contains(QLatin1String("Authentication required"));
}

// INFO keyspace lists every database holding keys: "db3:keys=12,expires=0,avg_ttl=0".
std::map<int, long long> keysByDatabase(const QString &keyspace)
{
    static const QRegularExpression line(QStringLiteral("^db(\\d+):keys=(\\d+)"), QRegularExpression::MultilineOption);
    std::map<int, long long> keys;
    auto it = line.globalMatch(keyspace);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        keys[match.captured(1).toInt()] = match.captured(2).toLongLong();
    }
    return keys;
}

} // namespace

long long EndpointProbe::totalKeys() const
{
    if (isCluster()) {
        long long total = 0;
        for (const EndpointProbe &primary : primaries) {
            if (primary.totalKeys() < 0)
                return -1;
            total += primary.totalKeys();
        }
        return total;
    }
    if (!keysKnown)
        return keys;
    long long total = 0;
    for (const auto &[database, count] : keysByDatabase)
        total += count;
    return total;
}

QStringList EndpointProbe::runIds() const
{
    QStringList ids;
    for (const EndpointProbe &primary : primaries)
        ids << primary.runIds();
    if (!runId.isEmpty() && !ids.contains(runId))
        ids << runId;
    return ids;
}

QString EndpointProbe::unmeasurableBecause(const QString &name) const
{
    if (!version.isEmpty())
        return QString();
    if (!infoRefusal.isEmpty())
        return QStringLiteral("%1 refuses INFO server (%2): Versus reads from INFO which server it measures and its memory; "
                              "log in as a user that may run INFO (--user)").arg(name, infoRefusal);
    return QStringLiteral("%1 is not a Valkey or Redis server (INFO server has no version)").arg(name);
}

namespace {

Outcome<EndpointProbe> probeServer(const ServerSpec &spec, int timeoutMs, const QString &howToGivePassword, bool findCluster);

// Every primary of the cluster `connection` reaches, each probed as a server of its own.
Status probeClusterPrimaries(RedisConnection &connection, const ServerSpec &spec, int timeoutMs, EndpointProbe &probe)
{
    const Outcome<bool> enabled = isClusterEnabled(connection);
    if (!enabled || !enabled.value())
        return Status::success();   // INFO cluster refused (ACL) or a standalone server
    const Outcome<ClusterTopology> topology = discoverCluster(connection, spec.host);
    if (!topology)
        return Error{topology.error()};
    if (topology->primaries.empty())
        return Error{QStringLiteral("%1 is a node of a cluster that serves no slot yet").arg(probe.where)};
    // Nothing but the proof goes to a primary before it proves it belongs to this cluster.
    const MembershipProof proof{probe.where, topology->askedId, spec.login(), spec.authOtherNodes, timeoutMs, spec.tls};
    if (Status members = proveClusterMembers(topology.value(), proof); !members)
        return Error{QStringLiteral("%1 is a node of a cluster, but %2").arg(probe.where, members.error())};
    for (const ClusterPrimary &primary : topology->primaries) {
        ServerSpec node = spec;
        node.host = primary.host;
        node.port = primary.port;
        node.label = hostPortText(primary.host, primary.port);
        const Credentials login = clusterNodeLogin(primary, proof);
        node.user = login.user;
        node.password = login.password;
        Outcome<EndpointProbe> nodeProbe = probeServer(node, timeoutMs, QString(), false);
        if (!nodeProbe)
            return Error{QStringLiteral("%1 is a node of a cluster, and its primary %2").arg(probe.where, nodeProbe.error())};
        nodeProbe->slotRanges = primary.rangesText(EndpointProbe::kSlotRangesNamed);
        nodeProbe->replicas = primary.replicas;
        nodeProbe->getsLogin = !login.empty();
        probe.primaries.push_back(nodeProbe.value());
    }
    return Status::success();
}

// A connection that failed before the first answer. Over TLS that is the TLS session's end (a
// client certificate refused), which the error says; without TLS the server may be no server.
QString noAnswer(const QString &name, const QString &error, const TlsSettings &tls)
{
    if (tls.enabled)
        return error;
    return QStringLiteral("%1 did not answer like a Valkey or Redis server (%2)").arg(name, error);
}

Outcome<EndpointProbe> probeServer(const ServerSpec &spec, int timeoutMs, const QString &howToGivePassword, bool findCluster)
{
    EndpointProbe probe;
    probe.where = hostPortText(spec.host, spec.port);
    probe.host = spec.host;
    probe.port = spec.port;
    const QString name = spec.label.isEmpty() ? probe.where : spec.label;
    RedisConnection connection;
    if (Status connected = connection.connectTcp(spec.host, spec.port, timeoutMs, name, spec.tls); !connected)
        return Error{connected.error()};
    if (!spec.password.isEmpty()) {
        std::vector<std::string> auth{"AUTH"};
        if (!spec.user.isEmpty())
            auth.push_back(spec.user.toStdString());
        const QByteArray utf8 = spec.password.toUtf8();
        auth.emplace_back(utf8.constData(), size_t(utf8.size()));
        Outcome<Reply> authed = connection.command(auth);
        if (!authed)
            return Error{noAnswer(name, authed.error(), spec.tls)};
        if (authed->isError())
            return Error{QStringLiteral("%1: the %2 was rejected: %3")
                             .arg(name, spec.user.isEmpty() ? QStringLiteral("password")
                                                            : QStringLiteral("user %1 or its password").arg(quotedForMessage(spec.user, 80)),
                                  QString::fromStdString(authed->text))};
    }
    Outcome<Reply> info = connection.command({"INFO", "server"});
    if (!info)
        return Error{noAnswer(name, info.error(), spec.tls)};
    const QString text = QString::fromStdString(info->text);
    if (info->isError() && needsPassword(text))
        return Error{howToGivePassword.isEmpty()
                         ? QStringLiteral("%1 needs a password (%2)").arg(name, text)
                         : QStringLiteral("%1 needs a password; give it with %2 (%3)").arg(name, howToGivePassword, text)};
    if (info->isError())
        probe.infoRefusal = quotedForMessage(text, 160);
    if (!info->isError()) {
        if (!text.contains(QLatin1String("redis_version:")))
            return Error{QStringLiteral("%1 is not a Valkey or Redis server (INFO server has no redis_version)").arg(name)};
        const InfoServer identity = parseInfoServer(text);
        probe.product = identity.product;
        probe.version = identity.version;
        probe.runId = parseInfoFields(text)[QStringLiteral("run_id")];
    }
    Outcome<Reply> size = connection.command({"DBSIZE"});
    if (size && size->kind == Reply::Kind::Integer)
        probe.keys = size->integer;
    Outcome<Reply> keyspace = connection.command({"INFO", "keyspace"});
    if (keyspace && keyspace->kind == Reply::Kind::String) {
        probe.keysByDatabase = keysByDatabase(QString::fromStdString(keyspace->text));
        probe.keysKnown = true;
    }
    // Read only: what the consent says the run does to the server depends on it.
    Outcome<Reply> config = connection.command({"CONFIG", "GET", "latency-tracking"});
    if (config && config->isError())
        probe.configRefusal = quotedForMessage(QString::fromStdString(config->text), 120);
    if (findCluster && !probe.version.isEmpty()) {
        if (Status cluster = probeClusterPrimaries(connection, spec, timeoutMs, probe); !cluster)
            return Error{cluster.error()};
    }
    return probe;
}

} // namespace

Outcome<EndpointProbe> probeEndpoint(const ServerSpec &spec, int timeoutMs, const QString &howToGivePassword)
{
    return probeServer(spec, timeoutMs, howToGivePassword, true);
}

void describeEndpoint(ServerSpec &spec, const EndpointProbe &probe)
{
    if (!probe.version.isEmpty()) {
        spec.identity.product = probe.product;
        spec.identity.version = probe.version;
    }
    spec.topology.primaries = int(probe.primaries.size());
    spec.consentedPrimaries.clear();
    for (const EndpointProbe &primary : probe.primaries)
        spec.consentedPrimaries << primary.where;
}
