#pragma once
// One table of the sweep charts, as figureviews.h is of the bar charts: a row per chart with
// everything its consumers say of it (file stem, the window's name for it, title, value axis,
// the Figures sweep table it reads, when a bundle has it and when a run will). The sweep charts,
// the window's chooser, the export's file names and the CLI's check before a run iterate the
// rows; adding a sweep chart over an existing table is one SweepChartKind value and one row.

#include "figures.h"
#include "figuressweep.h"
#include <QString>
#include <vector>

enum class SweepChartKind {
    MemoryPerKey,      // bytes per key of each pattern
    Ratio,             // each pattern as a multiple of the reference one
    ClusterOverhead,   // each cluster's bytes per key beyond standalone
    TimeInside,        // µs per command inside the commands (commandstats), headline category
    TimeInAll,         // µs of main-thread CPU per command in all
};

// When a sweep has the chart.
enum class SweepPresence {
    EverySweep,
    ReferenceType,     // the workload has a reference category (hash-ttl: set-ex)
    BothTopologies,    // some point ran a version standalone and as a cluster
    TimedPasses,       // some point has a timed pass
};

struct SweepView {
    SweepChartKind kind;
    QString stem;                                          // "sweep-memory-per-key"
    SweepPresence presence = SweepPresence::EverySweep;
    QString (*chooserName)(const ResultsBundle &) = nullptr;   // the window's: "Against set-ex"
    QString (*title)(const ResultsBundle &) = nullptr;         // "Memory per key against value-size, hash-ttl"
    QString (*valueTitle)(const SweepTable &) = nullptr;       // "bytes per key"
    SweepTable (*table)(const Figures &) = nullptr;            // the Figures' own, computed once
};

// Every sweep chart, in the order of the window's chooser and the export.
const std::vector<SweepView> &sweepViews();
const SweepView &sweepView(SweepChartKind kind);
// The sweep charts a bundle has: none unless it is a sweep.
std::vector<SweepChartKind> sweepChartKinds(const ResultsBundle &bundle);
// The sweep charts a run with --sweep will have, before its workload is read: the ratio and
// the time charts are counted as there (the workload may have a reference category, and its
// passes are timed), the cost of cluster mode when the run has a version in both topologies.
std::vector<SweepChartKind> sweepChartKindsOfRun(bool bothTopologies);
