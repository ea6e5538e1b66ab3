#pragma once
// What a sweep chart shows, as plain values: one line per server and category against the
// swept parameter, from the figures layer's sweep table (figuressweep.h). This file lays the
// values out and words them; it computes none.

#include "charttheme.h"
#include "figuressweep.h"
#include "sweepviews.h"
#include "resultsbundle.h"
#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

struct SweepChartLine {
    QString serverId;
    QString label;                       // drawn at the line's end: "hsetex · 9.1.2"
    QColor color;                        // the server's, as in every chart
    int style = 0;                       // the category's place: its dash pattern and marker
    std::vector<std::optional<double>> values;   // one per point; none where that run has no figure
};

struct SweepChartData {
    SweepChartKind kind = SweepChartKind::MemoryPerKey;
    QString parameter;                   // "value-size"
    QStringList xLabels;                 // the points' values: "16", "64", "256"
    std::vector<double> x;               // where they stand: log2 of the values when they span ×4 or more
    bool logarithmic = false;
    QString xTitle;                      // "value-size (log scale)"
    QString yTitle;                      // "bytes per key", "× set-ex on the same server"
    std::vector<SweepChartLine> lines;
    QStringList footnotes;               // lines left out and why

    bool empty() const { return lines.empty(); }
    double largestValue() const;
};

QString sweepChartFileStem(SweepChartKind kind);

// What `figures`' sweep table for `kind` draws (Figures::sweepFigures(), its hidden versions).
SweepChartData buildSweepChartData(const Figures &figures, SweepChartKind kind);

// "Memory per key against value-size, hash-ttl" / "Memory as a multiple of set-ex against value-size".
QString defaultSweepTitle(const Figures &figures, SweepChartKind kind);
// How the answer moves on the newest server: "hsetex on Valkey 9.1.2: 2.88× at 16 → 1.44× at 256".
QString defaultSweepSubtitle(const Figures &figures, SweepChartKind kind);
// The provenance footnote with the swept parameter's values in place of the shown point's.
QString defaultSweepFootnote(const Figures &figures);
