// versus servers --endpoint HOST:PORT [--put-back]: what a killed run of Versus left on an
// endpoint (endpointleftovers.h), on the named server or, for a node of a cluster, on every
// primary of its cluster (a run on a cluster endpoint changes each primary).

#include "commands.h"

#include "endpointleftovers.h"
#include "endpointpassword.h"
#include "endpointprobe.h"
#include "servercatalog.h"
#include "tlsoptions.h"
#include "messagetext.h"
#include "terminalwrite.h"

#include <cstdio>

namespace {

constexpr int kTimeoutMs = 5000;

// One server a run on the endpoint changes, and the login it is sent.
struct ServerToCheck {
    QString host;
    int port = 0;
    Credentials login;
};

// The named server, or every primary of its cluster once each has proved it is a member: the
// servers a run there changes, found as the run finds them (endpointprobe.h), each with the
// login it may be sent (clustermembership.h).
Outcome<std::vector<ServerToCheck>> serversToCheck(ServerSpec endpoint, const EndpointPassword &login, bool authOthers,
                                                    const TlsSettings &tls)
{
    endpoint.user = login.user;
    endpoint.password = login.password;
    endpoint.authOtherNodes = authOthers;
    endpoint.tls = tls;
    const Outcome<EndpointProbe> probe = probeEndpoint(endpoint, kTimeoutMs, howToGivePassword());
    if (!probe)
        return Error{probe.error()};
    if (!probe->isCluster())
        return std::vector<ServerToCheck>{{probe->host, probe->port, endpoint.login()}};
    std::vector<ServerToCheck> primaries;
    for (const EndpointProbe &primary : probe->primaries)
        primaries.push_back({primary.host, primary.port, primary.getsLogin ? endpoint.login() : Credentials()});
    return primaries;
}

// Finds, and with --put-back removes, what is left on each server; false when something failed.
bool checkServers(const std::vector<ServerToCheck> &servers, const TlsSettings &tls, bool putBack, const QString &named)
{
    bool ok = true;
    bool anyLeft = false;
    for (const ServerToCheck &server : servers) {
        Outcome<EndpointLeftovers> found = findEndpointLeftovers(server.host, server.port, server.login, kTimeoutMs, tls);
        if (!found) {
            writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(found.error()));
            ok = false;
            continue;
        }
        // One line each: a user name the server holds cannot start a line of its own.
        for (const QString &line : describeEndpointLeftovers(found.value()))
            writeTerminal(stdout, terminalText(line, LineBreaks::Shown) + QLatin1Char('\n'));
        anyLeft = anyLeft || !found->empty();
        if (!putBack || found->empty())
            continue;
        const Outcome<QStringList> done = putBackEndpointLeftovers(found.value(), server.login, kTimeoutMs, tls);
        if (!done) {
            writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(done.error()));
            ok = false;
            continue;
        }
        for (const QString &line : done.value())
            writeTerminal(stdout, terminalText(line, LineBreaks::Shown) + QLatin1Char('\n'));
    }
    if (anyLeft && !putBack)
        writeTerminal(stdout, QStringLiteral("\nversus servers --endpoint %1 --put-back deletes these users and puts the settings "
                                             "back to the owner's values. A user of a run going on now from another machine "
                                             "is deleted too, and that run fails.\n")
                                  .arg(named));
    return ok;
}

} // namespace

int runEndpointLeftovers(const QCommandLineParser &parser)
{
    const QString named = parser.value(QStringLiteral("endpoint"));
    const Outcome<ServerSpec> endpoint = ServerCatalog::parseEndpoint(named);
    if (!endpoint) {
        writeTerminal(stderr, QStringLiteral("versus servers: --endpoint: %1\n").arg(endpoint.error()));
        return 2;
    }
    if (Status options = checkPasswordOptions(parser); !options) {
        writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(options.error()));
        return 2;
    }
    const Outcome<EndpointPassword> password = readEndpointPassword(parser);
    if (!password) {
        writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(password.error()));
        return 2;
    }
    const Outcome<TlsChoice> tls = tlsChoiceFromParser(parser);
    if (!tls) {
        writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(tls.error()));
        return 2;
    }
    for (const QString &notice : password->notices + tls->notices)
        writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(notice));
    const Outcome<std::vector<ServerToCheck>> servers =
        serversToCheck(endpoint.value(), password.value(), parser.isSet(QStringLiteral("allow-cluster-auth")), tls->settings);
    if (!servers) {
        writeTerminal(stderr, QStringLiteral("versus servers: --endpoint: %1\n").arg(servers.error()));
        return 2;
    }
    return checkServers(servers.value(), tls->settings, parser.isSet(QStringLiteral("put-back")), named) ? 0 : 1;
}
