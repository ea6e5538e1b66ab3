#include "chartkind.h"

QString chartFileStem(ChartKind kind)
{
    switch (kind) {
    case ChartKind::MemoryPerAttribute: return QStringLiteral("memory-per-attribute");
    case ChartKind::UsecPerCommand: return QStringLiteral("usec-per-command");
    case ChartKind::UsecPerEvent: return QStringLiteral("usec-per-event");
    case ChartKind::Throughput: return QStringLiteral("throughput");
    case ChartKind::ClusterOverhead: return QStringLiteral("cluster-overhead");
    }
    return {};
}

QString chartTitle(ChartKind kind)
{
    switch (kind) {
    case ChartKind::MemoryPerAttribute: return QStringLiteral("Memory per stored attribute");
    case ChartKind::UsecPerCommand: return QStringLiteral("Time inside the commands, per command");
    case ChartKind::UsecPerEvent: return QStringLiteral("Time inside the commands, per event");
    case ChartKind::Throughput: return QStringLiteral("Throughput");
    case ChartKind::ClusterOverhead: return QStringLiteral("Cost of cluster mode");
    }
    return {};
}

std::vector<ChartKind> allChartKinds()
{
    return {ChartKind::MemoryPerAttribute, ChartKind::UsecPerCommand, ChartKind::UsecPerEvent,
            ChartKind::Throughput};
}

std::vector<ChartKind> everyChartKind()
{
    std::vector<ChartKind> kinds = allChartKinds();
    kinds.push_back(ChartKind::ClusterOverhead);
    return kinds;
}
