// versus servers --endpoint HOST:PORT [--put-back]: what a killed run of Versus left on an
// endpoint (endpointleftovers.h), on the named server or, for a node of a cluster, on every
// primary of its cluster (a run on a cluster endpoint changes each primary).

#include "commands.h"

#include "clustermembership.h"
#include "clustertopology.h"
#include "endpointleftovers.h"
#include "endpointpassword.h"
#include "hostport.h"
#include "redisconnection.h"
#include "servercatalog.h"

#include <cstdio>

namespace {

constexpr int kTimeoutMs = 5000;

struct NodeAddress {
    QString host;
    int port = 0;
};

// The named server, or every primary of its cluster once each has proved it is a member.
Outcome<std::vector<NodeAddress>> serversToCheck(const ServerSpec &endpoint, const QString &password)
{
    const QString where = hostPortText(endpoint.host, endpoint.port);
    RedisConnection connection;
    if (Status connected = connection.connectTcp(endpoint.host, endpoint.port, kTimeoutMs, where); !connected)
        return Error{connected.error()};
    if (!password.isEmpty()) {
        if (Status authenticated = connection.auth(password); !authenticated)
            return Error{authenticated.error()};
    }
    const Outcome<bool> cluster = isClusterEnabled(connection);
    if (!cluster || !cluster.value())
        return std::vector<NodeAddress>{{endpoint.host, endpoint.port}};
    const Outcome<ClusterTopology> topology = discoverCluster(connection, endpoint.host);
    if (!topology)
        return Error{topology.error()};
    if (Status members = proveClusterMembers(topology.value(), {where, topology->askedId, password, kTimeoutMs}); !members)
        return Error{QStringLiteral("%1 is a node of a cluster, but %2").arg(where, members.error())};
    std::vector<NodeAddress> primaries;
    for (const ClusterPrimary &primary : topology->primaries)
        primaries.push_back({primary.host, primary.port});
    return primaries;
}

// Finds, and with --put-back removes, what is left on each server; false when something failed.
bool checkServers(const std::vector<NodeAddress> &servers, const QString &password, bool putBack, const QString &named)
{
    bool ok = true;
    bool anyLeft = false;
    for (const NodeAddress &server : servers) {
        Outcome<EndpointLeftovers> found = findEndpointLeftovers(server.host, server.port, password, kTimeoutMs);
        if (!found) {
            std::fprintf(stderr, "versus servers: %s\n", qPrintable(found.error()));
            ok = false;
            continue;
        }
        for (const QString &line : describeEndpointLeftovers(found.value()))
            std::printf("%s\n", qPrintable(line));
        anyLeft = anyLeft || !found->empty();
        if (!putBack || found->empty())
            continue;
        const Outcome<QStringList> done = putBackEndpointLeftovers(found.value(), password, kTimeoutMs);
        if (!done) {
            std::fprintf(stderr, "versus servers: %s\n", qPrintable(done.error()));
            ok = false;
            continue;
        }
        for (const QString &line : done.value())
            std::printf("%s\n", qPrintable(line));
    }
    if (anyLeft && !putBack)
        std::printf("\nversus servers --endpoint %s --put-back deletes these users and puts the settings back to the owner's "
                    "values. A user of a run going on now from another machine is deleted too, and that run fails.\n",
                    qPrintable(named));
    return ok;
}

} // namespace

int runEndpointLeftovers(const QCommandLineParser &parser)
{
    const QString named = parser.value(QStringLiteral("endpoint"));
    const Outcome<ServerSpec> endpoint = ServerCatalog::parseEndpoint(named);
    if (!endpoint) {
        std::fprintf(stderr, "versus servers: --endpoint: %s\n", qPrintable(endpoint.error()));
        return 2;
    }
    if (Status options = checkPasswordOptions(parser); !options) {
        std::fprintf(stderr, "versus servers: %s\n", qPrintable(options.error()));
        return 2;
    }
    const Outcome<EndpointPassword> password = readEndpointPassword(parser);
    if (!password) {
        std::fprintf(stderr, "versus servers: %s\n", qPrintable(password.error()));
        return 2;
    }
    for (const QString &notice : password->notices)
        std::fprintf(stderr, "versus servers: %s\n", qPrintable(notice));
    const Outcome<std::vector<NodeAddress>> servers = serversToCheck(endpoint.value(), password->password);
    if (!servers) {
        std::fprintf(stderr, "versus servers: --endpoint: %s\n", qPrintable(servers.error()));
        return 2;
    }
    return checkServers(servers.value(), password->password, parser.isSet(QStringLiteral("put-back")), named) ? 0 : 1;
}
