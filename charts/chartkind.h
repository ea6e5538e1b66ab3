#pragma once
// The charts Versus draws and the file names they export under.

#include <QString>
#include <vector>

enum class ChartKind {
    MemoryPerAttribute,   // memory-per-attribute
    UsecPerCommand,       // usec-per-command
    UsecPerEvent,         // usec-per-event
    Throughput,           // throughput
    ClusterOverhead,      // cluster-overhead: only for bundles with a version in both topologies
};

QString chartFileStem(ChartKind kind);
QString chartTitle(ChartKind kind);
// The charts every bundle has (the window's tabs); chartKindsOf() (chartdata.h) adds the ones
// only some bundles have.
std::vector<ChartKind> allChartKinds();
// allChartKinds() and the charts only some bundles have: every name --chart takes, every tab.
std::vector<ChartKind> everyChartKind();
