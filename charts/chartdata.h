#pragma once
// What a chart shows, as plain values: categories, one series per server with one bar per
// category, each bar's label and spread. Built from the figures layer (figures.h), which
// decides every value and state; this file only lays them out and formats them.

#include "categoryorder.h"
#include "figureviews.h"
#include "figures.h"
#include "resultsbundle.h"
#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

struct ChartBar {
    double value = 0;          // the figure's value (median over the repeats that count)
    double min = 0;            // spread over repeats, drawn as an error bar when hasRange
    double max = 0;
    bool hasRange = false;
    int repeats = 0;           // repeats behind the value
    std::optional<double> change;   // percent against the baseline, as the figures layer gives it
    ChangeMeaning meaning = ChangeMeaning::Neutral;   // the change's colour: better, worse
    FigureState state = FigureState::Absent;
    bool growing = false;      // its pass is still running: the bar grows, no change is shown
    bool unsupported = false;  // the server refused this category ("unsupported" marker, no bar)
    bool missing = false;      // no bar: no figure, or the server failed
    QString label;             // "217.6  −10.0%", "unsupported (Valkey 8.1.1)", "failed (…)", "pending", "n/a"
    QString note;              // why: the server's text, the failure, the disturbance
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
    // What each category is, as the figures layer says (one per category): the totals and the
    // command groups stay when a small picture shows fewer categories.
    std::vector<CategoryKind> categoryKinds;
    std::vector<ChartSeries> series;   // in orderedServerIds() order, oldest first
    QString baselineId;
    QStringList footnotes;     // what the marks on the bars and the totals' scopes mean
    // No server has bars: no categories either, and this sentence says why instead of an axis
    // ("No results yet: …", "No version ran both standalone and as a cluster: …").
    QString emptyText;
    // A view whose categories are parts of a whole (FigureView::stacked, the profile): a row per
    // server, top to bottom, and a series per part of the figures' table, its segments laid end
    // to end along the row. Series then stand for parts: serverId is the part's id.
    bool stacked = false;

    // Same categories and servers: values can be updated in place.
    bool sameShape(const ChartData &other) const;
    double largestExtent() const;      // the largest value or error-bar end; a stack's longest row
};


// How a chart lays its figures out. What it shows (baseline, hidden versions, the order of the
// categories, the commands shown) is the figures' own: Figures::Options. Hidden versions are
// left out there rather than removed from the bundle: colours are assigned over the whole
// bundle, so the others keep theirs.
struct ChartDataOptions {
    // Fewer bars for a small picture: only these categories (names as shown, or with
    // underscores: "approx_distinct"), then only the first N in the chosen order. 0: all.
    // Totals ("All attributes") always stay.
    QStringList onlyCategories;
    int topCategories = 0;
    // At most this many categories in all, totals included (a big screen's fonts leave room
    // for few); the totals stay and the first others in the order fill the rest. 0: all.
    int maxCategories = 0;
};

// Whether `name` is one of the chart's categories, as onlyCategories matches them.
bool categoryMatches(const QString &category, const QString &name);

// The bundle as it reads with `serverIds` left out, for the data files written of it. A hidden
// baseline is cleared. Views hide versions through Figures::Options::hiddenServers, which keeps
// the colours.
ResultsBundle withoutServers(const ResultsBundle &bundle, const QStringList &serverIds);
// The results as a data file of what is shown gives them (results.json, Save merged results):
// the figures' shown servers, with their chosen baseline. A copy: for files, not for views.
ResultsBundle shownResults(const Figures &figures);

// Every category the chart can show, as it names them, those folded into "other" too.
QStringList chartCategoryNames(const Figures &figures, ChartKind kind);
FigureTable chartTable(const Figures &figures, ChartKind kind);   // the view's table (figureviews.h)
// The chart of `figures`, as its options say (baseline, hidden versions, order, commands
// shown); `options` only lays it out (categories picked, how many fit). The charts take only a
// Figures: whoever holds a bundle builds one, once, and every chart reads it.
ChartData buildChartData(const Figures &figures, ChartKind kind, const ChartDataOptions &options = {});

// The chart's headline as the figures layer gives it (Figures::headline), in words: what the
// title and a big-number call-out show.
struct ChartHeadline {
    QString title;         // "Memory per stored attribute", with " over …" for a partial total
    // "Valkey 8.0.1 → 9.1.2"; in a comparison of two bundles "Valkey 8.0.1, laptop → server";
    // empty when the chart has only a ratio
    QString versions;
    QString change;        // "−10.0%"; empty until both figures are settled
    QString values;        // "191.4 → 175.4 bytes", as the studies write it; empty with change
    ChangeMeaning meaning = ChangeMeaning::Neutral;   // less memory is better, …; Neutral within noise
    // A time change the run's repeats do not resolve: why, as the figures layer says it
    // (Headline::unresolved); the title reads "−0.7% (not resolved)". Empty otherwise.
    QString unresolved;
    bool provisional = false;                         // the run is still going
    // The memory chart of a workload with a reference type (hash-ttl): a pattern's memory as a
    // multiple of the reference's on the newest version that has one (Figures::referenceRatios).
    QString ratio;          // "hsetex 1.83× set-ex on Valkey 9.1.2, 120-byte values"
    QString ratioMultiple;  // "1.83×"
    QString ratioCaption;   // "memory per key, hsetex against set-ex on Valkey 9.1.2, 120-byte values"
    // "memory per stored attribute, Valkey 8.0.1 → 9.1.2": what the change is of.
    QString caption() const;
};
// Empty when the chart has neither a headline change (no total, no newer version of the
// baseline's product) nor a reference ratio.
std::optional<ChartHeadline> chartHeadline(const Figures &figures, ChartKind kind);

// Titles from the figures, e.g. "Memory per stored attribute, Valkey 8.0.1 → 9.1.2: 191.4 → 175.4
// bytes, −8.4%"; a time chart led by a command group names it: "Server time per command (writes), …".
QString defaultChartTitle(const Figures &figures, ChartKind kind);
// What the chart measures and over how many repeats; when the compared servers' allocators
// differ, the build caveat (Figures::buildCaveat()) follows on a line of its own.
QString defaultChartSubtitle(const Figures &figures, ChartKind kind);
// Where the figures come from (provenance.h): workload and parameters, repeats and schedule,
// each server's build, machine, date. `--footnote ""` (or an empty field) leaves it out.
QString defaultChartFootnote(const Figures &figures);   // the shown servers' only
