#pragma once
// One table of the views Versus shows: a row per view (the bar charts and the memory Why chart),
// with everything every consumer says of it (file stem and --chart name, titles, unit, axis
// title, subtitle, direction, how it is drawn, the Figures table it reads, when a bundle has it,
// when a run will have it, its report.md section). The charts, the window's tabs, the export
// folder, the --chart help, the CLI's file check before a run and report.md iterate the rows;
// none keeps a list or a switch of its own. Adding a chart over an existing table is one
// ChartKind value and one row (docs/CHARTS.md).

#include "figures.h"
#include <QString>
#include <optional>
#include <vector>

enum class ChartKind {
    MemoryPerAttribute,
    UsecPerCommand,
    UsecPerEvent,
    Throughput,
    ClusterOverhead,
    ServerTails,   // server-side p99 per command (LATENCY HISTOGRAM); report.md has its own section
    WhyMemory,     // where each key's bytes go: drawn as parts (ViewDrawing::MemoryParts)
    WhyTime,
    Profile,       // --profile: each version's share of perf samples per category
};

// When a view has figures to show.
enum class ViewPresence {
    EveryBundle,             // every bundle (a tab of its own even before a run)
    VersionInBothTopologies, // a version ran standalone and as a cluster
    LoopReported,            // a server reported its event loop over a timed pass (not Redis 7.0, not older bundles)
    ServerTailsRead,         // a server's server-side tails were read (every launched server's are)
    ProfileRecorded,         // a server was profiled (--profile)
    MemoryAccounted,         // a shown server reported its memory accounting for the default category (defaultWhyCategory())
};

// How a view is drawn: what a consumer makes of its row.
enum class ViewDrawing {
    Bars,          // a bar per server and category of its table (chartdata.h, ChartWidget, chartexporter.h)
    MemoryParts,   // each server's bytes per key split into its parts (whychart.h, WhyView, whyexport.h)
};

struct FigureView {
    ChartKind kind;
    QString stem;            // file stem and --chart name
    QString title;           // chart title and report.md section: "Memory per stored attribute"
    QString tabTitle;        // the window's tab: "Memory per attribute"
    // What a bar measures, for the subtitle: "Bytes of used_memory per stored key".
    QString measured;
    bool lowerIsBetter = true;
    // False where neither way is better (the profile's shares): the subtitle says no direction.
    bool hasDirection = true;
    // What the subtitle says of the bars' spread where it is not the repeats' ("one untimed pass
    // per server"); empty: the repeats'.
    QString spreadText;
    // The build caveat under the subtitle (allocators that differ); false where the view names
    // what of the build bears on it itself (the profile's symbol status).
    bool carriesBuildCaveat = true;
    // Its categories are parts of a whole (the profile's shares): a chart stacks them, a bar
    // per server.
    bool stacked = false;
    ViewPresence presence = ViewPresence::EveryBundle;
    ViewDrawing drawing = ViewDrawing::Bars;
    // The table it reads; of a view drawn as parts, the one whose categories it explains.
    FigureTable (Figures::*table)() const = nullptr;
    // The same with nothing folded into "other", where the table folds (command time); null:
    // the table itself.
    FigureTable (Figures::*unfolded)() const = nullptr;
    // The value axis title; the report's unit and first column (empty unit: no section of its
    // own, as the cost of cluster mode, which report.md shows inside the memory section).
    QString (*valueTitle)(const Figures &) = nullptr;
    QString (*reportUnit)(const Figures &) = nullptr;
    QString (*reportFirstColumn)(const Figures &) = nullptr;
    QString reportTitle;     // empty: the title
    // When a view not in every bundle is there ("a version run in both topologies"), and why it
    // is empty when no server has that: what to run to see it.
    QString presenceText;
    QString whenAbsent;
    bool categoriesAreCommands = false;   // category names as the server spells them (no "_" → " ")
    // The headline change against the baseline; false where each bar is already a difference.
    bool hasHeadline = true;
    // The view that carries a workload's reference ratios (hash-ttl's hsetex against set-ex),
    // the cost of cluster mode and the Why in report.md.
    bool carriesMemoryExtras = false;
    // The figures layer's sentence on what the chart shows, said under its subtitle, in its
    // report.md section and after `versus run`: the Why (time) view's. Null: none.
    QString (*explanation)(const Figures &) = nullptr;

    FigureTable tableOf(const Figures &figures) const { return (figures.*table)(); }
    FigureTable everyCategoryOf(const Figures &figures) const { return (figures.*(unfolded ? unfolded : table))(); }
    // "Bytes of used_memory per stored key, median of 3 repeats, bars show min–max. Lower is better."
    QString subtitle(int repeats) const;
    QString sectionTitle() const { return reportTitle.isEmpty() ? title : reportTitle; }
    bool inReport() const { return reportUnit != nullptr; }
    bool drawnAsBars() const { return drawing == ViewDrawing::Bars; }
};

// Every view, in the order of the window's tabs, the export and report.md.
const std::vector<FigureView> &figureViews();
const FigureView &figureView(ChartKind kind);
// The view whose stem is `name` (case and surrounding spaces ignored).
std::optional<ChartKind> chartKindNamed(const QString &name);
// Every stem, in order: what --chart takes.
QStringList chartStems();

// The views every bundle has (the demo's charts).
std::vector<ChartKind> everyBundleChartKinds();
// Every view: each name --chart takes, each tab.
std::vector<ChartKind> everyChartKind();
// The views `figures` has figures for.
std::vector<ChartKind> chartKindsOf(const Figures &figures);
// Whether `figures` has figures for `kind`: that view of chartKindsOf(), worked out alone.
bool hasFiguresFor(const Figures &figures, ChartKind kind);
// The views a run will have, before it runs: `bothTopologies` when its --topology holds a
// cluster and standalone, `profiled` with --profile. A run reads its servers' event loop, their
// server-side tails (a launched server's are read) and their memory accounting (MEMORY STATS
// around every pass), so it plans the Why (time), tails and memory Why views.
std::vector<ChartKind> plannedChartKinds(bool bothTopologies, bool profiled = false);
