#pragma once
// The charts Versus draws and the file names they export under.

#include <QString>
#include <vector>

enum class ChartKind {
    MemoryPerAttribute,   // memory-per-attribute
    UsecPerCommand,       // usec-per-command
    UsecPerEvent,         // usec-per-event
    Throughput,           // throughput
};

QString chartFileStem(ChartKind kind);
QString chartTitle(ChartKind kind);
std::vector<ChartKind> allChartKinds();
