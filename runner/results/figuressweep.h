#pragma once
// The figures of a sweep (ResultsBundle::sweep): for each server and category, one figure per
// point, taken from the figures of that point's own run (Figures of sweepPointBundle()), so a
// sweep chart shows exactly what the charts of that point show.

#include "figures.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

struct SweepLine {
    QString serverId;
    QString serverName;              // "Valkey 9.1.2"
    QString categoryId;              // a type: "hsetex"
    QString categoryLabel;
    Topology topology;               // how the series ran: standalone, or a cluster
    std::vector<Figure> points;      // one per sweep point; Absent where that run has none
};

// What a headline on a sweep speaks of: one line, from its first to its last final point
// (finalSpan()).
struct SweepHeadline {
    size_t line = 0;                 // in SweepTable::lines
    size_t first = 0;
    size_t last = 0;
};

struct SweepTable {
    Measure measure = Measure::BytesPerKey;   // BytesPerKey or RatioToReference
    QString parameter;               // "value-size"
    QStringList values;              // the points' values as given: "16", "64", "256"
    std::vector<double> numbers;     // the same as numbers: the x axis
    // Whether each point's run finished. An unfinished point (a cancelled sweep) has its figures
    // marked Incomplete, and never enters a headline (finalSpan()).
    std::vector<bool> complete;
    QString referenceType;           // the ratios' denominator ("set-ex"); empty for bytes per key
    QString typeNoun;                // "pattern" or "type"
    bool clusterOverhead = false;    // clusterOverheadSweep(): bytes per key beyond standalone
    // Time tables (UsecPerCall, MainThreadCpuPerCall): where a version's gap to the baseline
    // changes along the sweep, in words (depthGapChanges()); empty for memory.
    QStringList gapChanges;
    // By server (display order, oldest first), then category (workload order); the totals over
    // several types are left out.
    std::vector<SweepLine> lines;
    // The first category with a final figure at two points, on the first server of
    // Figures::newestLikeBaselineFirst() that has one (the server the ratio headline of a single
    // run speaks of), else on the first server in display order that has one. None when no line
    // has two final points.
    std::optional<SweepHeadline> headline;

    bool empty() const { return lines.empty(); }
    // The values of the points that did not finish ("200000"), in order.
    QStringList unfinishedValues() const;
};

// The first and last point of `line` whose figure is final (measured over a finished point, not
// provisional or incomplete), when they differ; what a headline may speak of.
std::optional<std::pair<size_t, size_t>> finalSpan(const SweepLine &line);

// Bytes per key (Measure::BytesPerKey, the memory table of each point), each type's ratio to
// the workload's reference type (Measure::RatioToReference, Figures::referenceRatios()), or the
// server's time per command of the timed passes (figuressweeptime.cpp): inside the commands on
// the headline category (Measure::UsecPerCall, Figures::commandTime()) or in all
// (Measure::MainThreadCpuPerCall, Figures::serverTime()). An empty table for a bundle that is not
// a sweep, or for ratios without a reference type.
// `options` apply to every point (hidden servers, baseline).
SweepTable sweepTable(const ResultsBundle &bundle, Measure measure, const FigureOptions &options = {});
// The cost of cluster mode at every point (Figures::clusterOverhead() of each point's run): a
// line per cluster series and category. Empty unless some point ran a version both standalone
// and as a cluster; a sweep over keys shows how the cost moves with the key count.
SweepTable clusterOverheadSweep(const ResultsBundle &bundle, const FigureOptions &options = {});

// Whether some point of the sweep ran a version both standalone and as a cluster: the sweep
// has a cost-of-cluster-mode chart.
bool sweepHasBothTopologies(const ResultsBundle &bundle);
// The build caveat over the shown servers of the sweep's shown point (Figures::buildCaveat()).
QString sweepBuildCaveat(const ResultsBundle &bundle, const FigureOptions &options);
// Where a sweep's figures come from (provenanceParts()), the parameter given with every value
// ("value-size=16/64/256"), over its shown servers.
QStringList sweepProvenanceParts(const ResultsBundle &bundle, const FigureOptions &options);

// Where the sweep reverses an order, in words: two series of one category and topology whose
// order at the first point both have a final figure is the other way round at the last one.
// "set-ex: Valkey 9.1.2 · cluster ×3 takes more than Redis 7.0.15 · cluster ×3 at keys=1000
// (312.4 against 290.1 bytes per key) and less at keys=100000 (233.9 against 287.5)".
QStringList rankingChanges(const SweepTable &table);   // none for time tables: see gapChanges

// The sweep table of what `pointTable` gives at each point (Figures of sweepPointBundle()), line
// by line, totals left out, servers in display order: what every sweep table is built from.
using SweepPointTable = std::function<FigureTable(const Figures &)>;
SweepTable sweepOfPoints(const ResultsBundle &bundle, Measure measure, const FigureOptions &options,
                         const SweepPointTable &pointTable);

// The time tables of a sweep (figuressweeptime.cpp): a line per server of the headline category
// of each point's `measure` (UsecPerCall or MainThreadCpuPerCall), its gap sentences filled in.
SweepTable sweepTimeTable(const ResultsBundle &bundle, Measure measure, const FigureOptions &options);
// Whether some point of the sweep has a timed pass: the sweep has the time charts.
bool sweepHasTimedPasses(const ResultsBundle &bundle);
// Where a version's change against the baseline differs between the first and the last point
// both have a final figure at, said only where the noise rule resolves the change at both ends
// (changeMeaning() not neutral) and the whole percents differ: "Valkey 9.1.2 spends 3% less
// than Valkey 8.0.1 per command inside the commands (All writes) at batch=1 and 28% less at
// batch=256".
QStringList depthGapChanges(const SweepTable &table, const QString &baselineId);
