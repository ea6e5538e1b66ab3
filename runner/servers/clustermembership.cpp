#include "clustermembership.h"

#include "hostport.h"
#include "infoparser.h"
#include "redisconnection.h"

#include <QRegularExpression>

namespace {

bool asksForPassword(const Reply &reply)
{
    return reply.isError() && (reply.text.rfind("NOAUTH", 0) == 0 || reply.text.find("Authentication required") != std::string::npos);
}

// INFO cluster, with AUTH first only when the server refuses to answer without it. An error
// completes "<server>, named by <node> as a primary of its cluster, …".
Outcome<Reply> clusterInfo(RedisConnection &connection, const ClusterPrimary &primary, const MembershipProof &proof)
{
    Outcome<Reply> info = connection.command({"INFO", "cluster"});
    if (!info || !asksForPassword(info.value()))
        return info;
    if (proof.login.empty())
        return Error{QStringLiteral("needs a password, and the endpoint was given none")};
    const Credentials login = clusterNodeLogin(primary, proof);
    if (login.empty())
        return Error{QStringLiteral("needs a password, and Versus sends the endpoint's only to the server named unless the "
                                    "user allows it for the other primaries of its cluster (%1)")
                         .arg(howToAllowClusterAuth())};
    if (Status authed = connection.auth(login); !authed)
        return Error{QStringLiteral("does not take the endpoint's password (%1): it is not a member of the same cluster")
                         .arg(authed.error())};
    return connection.command({"INFO", "cluster"});
}

// CLUSTER NODES: one line per node, its id first.
bool listsNode(const QString &nodes, const QString &id)
{
    for (const QString &line : nodes.split(QLatin1Char('\n'))) {
        if (line.section(QLatin1Char(' '), 0, 0) == id)
            return true;
    }
    return false;
}

bool isNodeId(const QString &id)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{40}$"));
    return hex.match(id).hasMatch();
}

} // namespace

Credentials clusterNodeLogin(const ClusterPrimary &primary, const MembershipProof &proof)
{
    // The node the user named is the one asked, at the address typed: a node that announces
    // its own entry at another address (a wrong cluster-announce-port) names someone else.
    const bool named = isNodeId(primary.id) && primary.id == proof.askedId
                       && hostPortText(primary.host, primary.port) == proof.askedWhere;
    return named || proof.loginToOthers ? proof.login : Credentials();
}

QString howToAllowClusterAuth()
{
    return QStringLiteral("--allow-cluster-auth, or \"Send the login to the other primaries of its cluster\" in Add endpoint");
}

Status proveClusterMember(const ClusterPrimary &primary, const MembershipProof &proof)
{
    const QString where = hostPortText(primary.host, primary.port);
    const QString named = QStringLiteral("%1, named by %2 as a primary of its cluster,").arg(where, proof.askedWhere);
    const QString nothingSent = QStringLiteral("; nothing else is sent to it");
    RedisConnection connection;
    if (Status connected = connection.connectTcp(primary.host, primary.port, proof.timeoutMs, where, proof.tls); !connected)
        return Error{QStringLiteral("%1 cannot be reached: %2").arg(named, connected.error())};
    const Outcome<Reply> info = clusterInfo(connection, primary, proof);
    if (!info)
        return Error{QStringLiteral("%1 %2%3").arg(named, info.error(), nothingSent)};
    const std::map<QString, QString> fields = parseInfoFields(QString::fromStdString(info->text));
    const auto enabled = fields.find(QStringLiteral("cluster_enabled"));
    if (info->isError() || enabled == fields.end() || enabled->second != QLatin1String("1"))
        return Error{QStringLiteral("%1 is not in cluster mode (INFO cluster): it is not a member of that cluster%2")
                         .arg(named, nothingSent)};
    const Outcome<Reply> myId = connection.command({"CLUSTER", "MYID"});
    if (!myId || myId->isError())
        return Error{QStringLiteral("%1 did not say its node id (CLUSTER MYID: %2)%3")
                         .arg(named, myId ? QString::fromStdString(myId->text) : myId.error(), nothingSent)};
    const QString id = QString::fromStdString(myId->text);
    if (isNodeId(primary.id) && id != primary.id)
        return Error{QStringLiteral("%1 is node %2, not node %3: it is not the member that was named%4")
                         .arg(named, id, primary.id, nothingSent)};
    const Outcome<Reply> nodes = connection.command({"CLUSTER", "NODES"});
    if (!nodes || nodes->isError())
        return Error{QStringLiteral("%1 did not list its cluster's nodes (CLUSTER NODES: %2)%3")
                         .arg(named, nodes ? QString::fromStdString(nodes->text) : nodes.error(), nothingSent)};
    if (!listsNode(QString::fromStdString(nodes->text), proof.askedId))
        return Error{QStringLiteral("%1 does not know node %2 (%3): it belongs to another cluster%4")
                         .arg(named, proof.askedId, proof.askedWhere, nothingSent)};
    return Status::success();
}

Status proveClusterMembers(const ClusterTopology &topology, const MembershipProof &proof)
{
    for (const ClusterPrimary &primary : topology.primaries) {
        if (Status proven = proveClusterMember(primary, proof); !proven)
            return proven;
    }
    return Status::success();
}
