#include "clustertopology.h"

#include "clusterslots.h"
#include "hostport.h"
#include "infoparser.h"
#include "messagetext.h"

#include <algorithm>
#include <QStringList>
#include <map>

namespace {

// A RESP2 map: an array of alternating names and values.
const Reply *field(const Reply &map, const char *name)
{
    for (size_t i = 0; i + 1 < map.elements.size(); i += 2)
        if (map.elements[i].text == name)
            return &map.elements[i + 1];
    return nullptr;
}

QString text(const Reply *reply)
{
    return reply ? QString::fromStdString(reply->text) : QString();
}

void sortTopology(ClusterTopology &topology)
{
    for (ClusterPrimary &primary : topology.primaries)
        std::sort(primary.ranges.begin(), primary.ranges.end());
    std::sort(topology.primaries.begin(), topology.primaries.end(), [](const ClusterPrimary &a, const ClusterPrimary &b) {
        const int first = a.ranges.empty() ? kClusterSlots : a.ranges.front().first;
        const int second = b.ranges.empty() ? kClusterSlots : b.ranges.front().first;
        return first < second;
    });
}

bool validRange(long long first, long long last)
{
    return first >= 0 && last >= first && last < kClusterSlots;
}

// Where a reply says a primary listens. Empty is the node asked (a lone node knows no address of
// its own). Anything but an address, a line break or a terminal escape in it, is neither resolved
// nor connected to, and is shown escaped.
Status checkAddress(const char *command, const QString &host, long long port, bool hostNameAllowed)
{
    const bool address = host.isEmpty() || isIpAddress(host) || (hostNameAllowed && isHostName(host));
    if (!address)
        return Error{QStringLiteral("%1 names a primary at %2 (port %3), which is %4: nothing is sent to any of its primaries")
                         .arg(QLatin1String(command), quotedForMessage(host))
                         .arg(port)
                         .arg(hostNameAllowed ? QStringLiteral("neither an IP address nor a host name")
                                              : QStringLiteral("not an IP address"))};
    if (!isTcpPort(port))
        return Error{QStringLiteral("%1 names a primary at %2 with port %3, which is not a TCP port: nothing is sent to any of "
                                    "its primaries")
                         .arg(QLatin1String(command), host)
                         .arg(port)};
    return Status::success();
}

Status checkPrimaryCount(const char *command, size_t primaries)
{
    if (primaries <= size_t(kMostClusterPrimaries))
        return Status::success();
    return Error{QStringLiteral("%1 names %2 primaries, more than the %3 Versus runs on: nothing is sent to any of them")
                     .arg(QLatin1String(command))
                     .arg(primaries)
                     .arg(kMostClusterPrimaries)};
}

} // namespace

long long ClusterPrimary::slotCount() const
{
    long long count = 0;
    for (const auto &[first, last] : ranges)
        count += last - first + 1;
    return count;
}

QString ClusterPrimary::rangesText() const
{
    return rangesText(int(ranges.size()));
}

QString ClusterPrimary::rangesText(int mostRanges) const
{
    QStringList parts;
    for (const auto &[first, last] : ranges) {
        if (parts.size() == mostRanges)
            break;
        parts << (first == last ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(last));
    }
    const QString shown = parts.join(QLatin1Char(','));
    if (size_t(parts.size()) == ranges.size())
        return shown;
    return QStringLiteral("%1 and %2 more ranges, %3 slots in all")
        .arg(shown)
        .arg(ranges.size() - size_t(parts.size()))
        .arg(slotCount());
}

int ClusterTopology::replicaCount() const
{
    int count = 0;
    for (const ClusterPrimary &primary : primaries)
        count += primary.replicas;
    return count;
}

bool ClusterTopology::coversEverySlot() const
{
    std::vector<int> owners(kClusterSlots, 0);
    for (const ClusterPrimary &primary : primaries)
        for (const auto &[first, last] : primary.ranges)
            for (int slot = first; slot <= last; ++slot)
                ++owners[size_t(slot)];
    return std::all_of(owners.begin(), owners.end(), [](int count) { return count == 1; });
}

int ClusterTopology::primaryOfSlot(int slot) const
{
    for (size_t i = 0; i < primaries.size(); ++i)
        for (const auto &[first, last] : primaries[i].ranges)
            if (slot >= first && slot <= last)
                return int(i);
    return -1;
}

Outcome<bool> isClusterEnabled(RedisConnection &connection)
{
    Outcome<QString> info = connection.info(QStringLiteral("cluster"));
    if (!info)
        return Error{info.error()};
    const std::map<QString, QString> fields = parseInfoFields(info.value());
    const auto enabled = fields.find(QStringLiteral("cluster_enabled"));
    return enabled != fields.end() && enabled->second == QLatin1String("1");
}

Outcome<ClusterTopology> topologyFromShards(const Reply &shards, bool tls)
{
    if (shards.kind != Reply::Kind::Array)
        return Error{QStringLiteral("CLUSTER SHARDS: not a list of shards")};
    ClusterTopology topology;
    for (const Reply &shard : shards.elements) {
        const Reply *slotList = field(shard, "slots");
        const Reply *nodes = field(shard, "nodes");
        if (!slotList || !nodes || slotList->elements.size() % 2 != 0)
            return Error{QStringLiteral("CLUSTER SHARDS: a shard without its slotList and nodes")};
        if (slotList->elements.empty())
            continue;   // a shard serving no slot takes no writes
        int replicas = 0;
        for (const Reply &node : nodes->elements) {
            const QString role = text(field(node, "role"));
            if (role == QLatin1String("replica") || role == QLatin1String("slave"))
                ++replicas;
        }
        for (const Reply &node : nodes->elements) {
            const QString role = text(field(node, "role"));
            if (role != QLatin1String("master") && role != QLatin1String("primary"))
                continue;
            ClusterPrimary primary;
            primary.id = text(field(node, "id"));
            primary.host = text(field(node, "ip"));
            primary.announced = text(field(node, "endpoint"));
            // A node gives "port" for plain TCP (absent or 0 when it has none) and "tls-port".
            const Reply *port = tls && field(node, "tls-port") ? field(node, "tls-port") : field(node, "port");
            if (Status address = checkAddress("CLUSTER SHARDS", primary.host, port ? port->integer : 0, false); !address)
                return Error{address.error()};
            primary.port = int(port->integer);
            primary.replicas = replicas;
            for (size_t i = 0; i < slotList->elements.size(); i += 2) {
                const long long first = slotList->elements[i].integer, last = slotList->elements[i + 1].integer;
                if (!validRange(first, last))
                    return Error{QStringLiteral("CLUSTER SHARDS: slot range %1-%2").arg(first).arg(last)};
                primary.ranges.emplace_back(int(first), int(last));
            }
            topology.primaries.push_back(primary);
        }
    }
    if (Status counted = checkPrimaryCount("CLUSTER SHARDS", topology.primaries.size()); !counted)
        return Error{counted.error()};
    sortTopology(topology);
    return topology;
}

Outcome<ClusterTopology> topologyFromSlots(const Reply &slotList)
{
    if (slotList.kind != Reply::Kind::Array)
        return Error{QStringLiteral("CLUSTER SLOTS: not a list of slot ranges")};
    std::map<QString, ClusterPrimary> byId;
    for (const Reply &range : slotList.elements) {
        if (range.elements.size() < 3 || range.elements[2].elements.size() < 2)
            return Error{QStringLiteral("CLUSTER SLOTS: a range without its primary")};
        const long long first = range.elements[0].integer, last = range.elements[1].integer;
        if (!validRange(first, last))
            return Error{QStringLiteral("CLUSTER SLOTS: slot range %1-%2").arg(first).arg(last)};
        const Reply &node = range.elements[2];
        const QString host = QString::fromStdString(node.elements[0].text);
        if (Status address = checkAddress("CLUSTER SLOTS", host, node.elements[1].integer, true); !address)
            return Error{address.error()};
        const int port = int(node.elements[1].integer);
        const QString id = node.elements.size() > 2 ? QString::fromStdString(node.elements[2].text)
                                                    : QStringLiteral("%1:%2").arg(host).arg(port);
        ClusterPrimary &primary = byId[id];
        primary.id = id;
        primary.host = host;
        primary.port = port;
        primary.replicas = std::max(primary.replicas, int(range.elements.size()) - 3);
        primary.ranges.emplace_back(int(first), int(last));
    }
    if (Status counted = checkPrimaryCount("CLUSTER SLOTS", byId.size()); !counted)
        return Error{counted.error()};
    ClusterTopology topology;
    for (auto &entry : byId)
        topology.primaries.push_back(entry.second);
    sortTopology(topology);
    return topology;
}

Outcome<ClusterTopology> discoverCluster(RedisConnection &connection, const QString &askedHost)
{
    Outcome<Reply> shards = connection.command({"CLUSTER", "SHARDS"});
    if (!shards)
        return Error{shards.error()};
    Outcome<ClusterTopology> topology = Error{QString()};
    if (!shards->isError()) {
        topology = topologyFromShards(shards.value(), connection.isTls());
    } else {
        Outcome<Reply> slotList = connection.command({"CLUSTER", "SLOTS"});
        if (!slotList)
            return Error{slotList.error()};
        if (slotList->isError())
            return Error{QStringLiteral("%1: CLUSTER SLOTS: %2").arg(connection.name(), QString::fromStdString(slotList->text))};
        topology = topologyFromSlots(slotList.value());
    }
    if (!topology)
        return Error{QStringLiteral("%1: %2").arg(connection.name(), topology.error())};
    for (ClusterPrimary &primary : topology->primaries)
        if (primary.host.isEmpty())
            primary.host = askedHost;
    // The members it names must know this node by its id (clustermembership.h).
    const Outcome<Reply> myId = connection.command({"CLUSTER", "MYID"});
    if (!myId || myId->isError())
        return Error{QStringLiteral("%1: CLUSTER MYID: %2").arg(connection.name(), myId ? QString::fromStdString(myId->text) : myId.error())};
    topology->askedId = QString::fromStdString(myId->text);
    return topology;
}
