#include "topology.h"

#include <QStringList>

QString Topology::text() const
{
    return isCluster() ? QStringLiteral("cluster:%1").arg(primaries) : QStringLiteral("standalone");
}

QString Topology::idSuffix() const
{
    return isCluster() ? QStringLiteral("-cluster-%1").arg(primaries) : QString();
}

QString Topology::shownSuffix() const
{
    // U+00B7 middle dot, U+00D7 multiplication sign.
    return isCluster() ? QStringLiteral(" \u00b7 cluster \u00d7%1").arg(primaries) : QString();
}

Outcome<Topology> parseTopology(const QString &text)
{
    const QString entry = text.trimmed();
    if (entry == QLatin1String("standalone"))
        return Topology{};
    if (entry == QLatin1String("cluster"))
        return Topology{Topology::kDefaultPrimaries};
    const QString prefix = QStringLiteral("cluster:");
    if (entry.startsWith(prefix)) {
        bool number = false;
        const int primaries = entry.mid(prefix.size()).toInt(&number);
        if (number && primaries >= 1 && primaries <= Topology::kMostPrimaries)
            return Topology{primaries};
        return Error{QStringLiteral("'%1': a cluster has 1 to %2 primaries").arg(entry).arg(Topology::kMostPrimaries)};
    }
    return Error{QStringLiteral("'%1' is not a topology (expected standalone, cluster or cluster:N)").arg(entry)};
}

Outcome<std::vector<Topology>> parseTopologies(const QString &list)
{
    std::vector<Topology> topologies;
    for (const QString &entry : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        Outcome<Topology> topology = parseTopology(entry);
        if (!topology)
            return Error{topology.error()};
        for (const Topology &earlier : topologies) {
            if (earlier == topology.value())
                return Error{QStringLiteral("'%1' is listed twice").arg(topology->text())};
        }
        topologies.push_back(topology.value());
    }
    if (topologies.empty())
        return Error{QStringLiteral("no topology given (expected standalone, cluster or cluster:N)")};
    return topologies;
}
