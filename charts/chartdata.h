#pragma once
// What a chart shows, as plain values: categories, one series per server with one bar per
// category, each bar's label and spread. Built from a ResultsBundle without any QtCharts type,
// so it is cheap to compare and easy to test.

#include "chartkind.h"
#include "resultsbundle.h"
#include <QColor>
#include <QString>
#include <QStringList>
#include <vector>

struct ChartBar {
    double value = 0;          // median over ok repeats
    double min = 0;            // spread over repeats, drawn as an error bar when hasRange
    double max = 0;
    bool hasRange = false;
    bool unsupported = false;  // the server refused this category ("unsupported" marker, no bar)
    bool missing = false;      // no figure at all (e.g. a command this server never ran)
    QString label;             // "217.6  −10.0%", or "unsupported"
};

struct ChartSeries {
    QString serverId;
    QString name;              // legend text, "Valkey 8.0.1"
    QColor color;
    bool baseline = false;
    std::vector<ChartBar> bars;   // one per category
};

struct ChartData {
    ChartKind kind = ChartKind::MemoryPerAttribute;
    QString valueTitle;        // value axis title, "bytes per key"
    QStringList categories;    // top to bottom
    std::vector<ChartSeries> series;   // in orderedServerIds() order, oldest first
    QString baselineId;

    // Same categories and servers: values can be updated in place.
    bool sameShape(const ChartData &other) const;
    double largestExtent() const;      // the largest value or error-bar end
};

enum class CategoryOrder {
    Workload,   // as the workload lists them (the memory chart) or most frequent first (commands)
    Value,      // largest baseline value first
    Name,       // alphabetical
};

struct ChartDataOptions {
    int topCommands = 8;       // usec-per-command: this many commands, the rest folded into "other"
    bool foldOther = true;
    // Servers to leave out. Hide versions here rather than removing them from the bundle:
    // colours are assigned over the whole bundle, so the others keep theirs.
    QStringList hiddenServers;
    // Totals ("All attributes") stay on top and the folded rest ("other") at the bottom.
    CategoryOrder order = CategoryOrder::Workload;
};

// The bundle as it reads with `serverIds` left out, for titles, footnotes and tables. A hidden
// baseline is cleared. For bars use ChartDataOptions::hiddenServers, which keeps the colours.
ResultsBundle withoutServers(const ResultsBundle &bundle, const QStringList &serverIds);

// A bundle that is not complete (a run still going, or cancelled) draws its unfinished
// repeats too, so bars grow while the replay runs.
ChartData buildChartData(const ResultsBundle &bundle, ChartKind kind, const ChartDataOptions &options = {});

// Titles derived from the results, e.g. "Memory per stored attribute, Valkey 8.0.1 → 9.1.2: −10.0%".
QString defaultChartTitle(const ResultsBundle &bundle, ChartKind kind);
QString defaultChartSubtitle(const ResultsBundle &bundle, ChartKind kind);
QString defaultChartFootnote(const ResultsBundle &bundle);
