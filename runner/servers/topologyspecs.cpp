#include "topologyspecs.h"

Outcome<std::vector<ServerSpec>> specsInTopologies(const std::vector<ServerSpec> &servers,
                                                   const std::vector<Topology> &topologies)
{
    bool standalone = false;
    for (const Topology &topology : topologies)
        standalone = standalone || !topology.isCluster();
    std::vector<ServerSpec> specs;
    for (const ServerSpec &server : servers) {
        if (server.isEndpoint) {
            if (!standalone)
                return Error{QStringLiteral("%1 is an endpoint: Versus launches clusters only of the servers it starts, "
                                            "and runs an endpoint as it is (add standalone to the topologies)")
                                 .arg(server.label)};
            specs.push_back(server);
            continue;
        }
        for (const Topology &topology : topologies) {
            ServerSpec spec = server;
            spec.topology = topology;
            spec.label = server.label + topology.idSuffix();
            specs.push_back(spec);
        }
    }
    return specs;
}

Outcome<std::vector<ServerSpec>> specsWithSelfCheck(std::vector<ServerSpec> specs)
{
    if (specs.empty())
        return Error{QStringLiteral("no server to check")};
    ServerSpec copy = specs.front();
    if (copy.isEndpoint)
        return Error{QStringLiteral("%1 is an endpoint: the self-check runs the first server's build a second time on a server "
                                    "of its own, so the first server must be one Versus launches")
                         .arg(copy.label)};
    copy.label += QStringLiteral("-self-check");
    copy.selfCheck = true;
    specs.push_back(copy);
    return specs;
}
