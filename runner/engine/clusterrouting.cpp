#include "clusterrouting.h"

#include "clusterslots.h"

#include <set>

namespace {

// "MSET a 1 b 2", cut after a few arguments: enough to find the command in the workload.
QString commandText(const std::vector<std::string> &args)
{
    QStringList words;
    for (size_t i = 0; i < args.size() && i < 6; ++i)
        words << QString::fromStdString(args[i]).left(40);
    if (args.size() > 6)
        words << QStringLiteral("…");
    return words.join(QLatin1Char(' '));
}

} // namespace

ClusterRouting::ClusterRouting(const CommandKeys &keys, const ClusterTopology &topology)
    : m_keys(keys), m_owner(kClusterSlots, -1)
{
    for (size_t i = 0; i < topology.primaries.size(); ++i)
        for (const auto &[first, last] : topology.primaries[i].ranges)
            for (int slot = first; slot <= last; ++slot)
                m_owner[size_t(slot)] = int(i);
}

ClusterRouting ClusterRouting::standalone(const CommandKeys &keys)
{
    ClusterPrimary server;
    server.ranges.emplace_back(0, kClusterSlots - 1);
    ClusterTopology topology;
    topology.primaries.push_back(server);
    ClusterRouting routing(keys, topology);
    routing.m_cluster = false;
    return routing;
}

Outcome<int> ClusterRouting::slotOf(const std::vector<std::string> &args) const
{
    // Any node answers a command its version does not know with "unknown command", before
    // looking at slots: it goes where a command without keys goes.
    if (!args.empty() && !m_keys.knows(args.front()))
        return -1;
    const std::optional<std::vector<std::string_view>> keys = m_keys.keysOf(args);
    if (!keys)
        return Error{QStringLiteral("%1: its keys cannot be told from its arguments, so it cannot be sent to a cluster")
                         .arg(commandText(args))};
    int slot = -1;
    for (const std::string_view key : *keys) {
        const int own = keyHashSlot(key);
        if (slot >= 0 && own != slot)
            return Error{QStringLiteral("%1: its keys are in different slots (%2, %3)").arg(commandText(args)).arg(slot).arg(own)};
        slot = own;
    }
    return slot;
}

Outcome<int> ClusterRouting::primaryOf(const std::vector<std::string> &args) const
{
    const Outcome<int> slot = slotOf(args);
    if (!slot)
        return Error{slot.error()};
    if (slot.value() < 0)
        return 0;
    const int owner = m_owner[size_t(slot.value())];
    if (owner < 0)
        return Error{QStringLiteral("%1: no primary serves slot %2").arg(commandText(args)).arg(slot.value())};
    return owner;
}

void ClusterRouting::moveSlot(int slot, int primary)
{
    if (slot >= 0 && slot < kClusterSlots && m_owner[size_t(slot)] != primary) {
        m_owner[size_t(slot)] = primary;
        ++m_generation;
    }
}

QString ClusterRouting::slotRangesOf(int primary) const
{
    ClusterPrimary ranges;
    for (int slot = 0; slot < kClusterSlots; ++slot) {
        if (m_owner[size_t(slot)] != primary)
            continue;
        if (!ranges.ranges.empty() && ranges.ranges.back().second == slot - 1)
            ranges.ranges.back().second = slot;
        else
            ranges.ranges.emplace_back(slot, slot);
    }
    return ranges.rangesText();
}

Outcome<std::vector<std::string>> commandNamesSent(const Workload &workload)
{
    const QStringList described = workload.describe().commandNames;
    std::set<std::string> names;
    for (const QString &name : described)
        names.insert(name.toUpper().toStdString());
    if (names.empty()) {
        const Status read = forEachEvent(workload, [&names](long long, const EventCommands &event) {
            for (const WorkloadCommand &command : event.commands)
                names.insert(QString::fromStdString(command.args.front()).toUpper().toStdString());
            return Status::success();
        });
        if (!read)
            return Error{read.error()};
    }
    return std::vector<std::string>(names.begin(), names.end());
}

Status checkWorkloadForCluster(const Workload &workload, const CommandKeys &keys)
{
    const ClusterRouting routing(keys, ClusterTopology{});
    return forEachEvent(workload, [&routing](long long number, const EventCommands &event) -> Status {
        for (const WorkloadCommand &command : event.commands) {
            if (const Outcome<int> slot = routing.slotOf(command.args); !slot)
                return Error{QStringLiteral("event %1: %2").arg(number).arg(slot.error())};
        }
        return Status::success();
    });
}
