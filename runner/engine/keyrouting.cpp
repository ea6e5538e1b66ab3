#include "keyrouting.h"

Status KeyRouting::prepare(RedisConnection &connection, const Workload &workload, const ClusterTopology *cluster,
                           bool checkWorkload, const QString &name)
{
    if (m_commandNames.empty()) {
        Outcome<std::vector<std::string>> names = commandNamesSent(workload);
        if (!names)
            return Error{names.error()};
        m_commandNames = std::move(names.value());
    }
    Outcome<CommandKeys> keys = CommandKeys::fromServer(connection, m_commandNames);
    if (!keys)
        return Error{keys.error()};
    m_routing.reset();
    m_keys = std::make_unique<CommandKeys>(std::move(keys.value()));
    if (cluster && checkWorkload) {
        if (Status routable = checkWorkloadForCluster(workload, *m_keys); !routable)
            return Error{QStringLiteral("%1: the workload cannot be sent to a cluster: %2").arg(name, routable.error())};
    }
    if (cluster)
        m_routing.emplace(*m_keys, *cluster);
    else
        m_routing.emplace(ClusterRouting::standalone(*m_keys));
    return Status::success();
}
