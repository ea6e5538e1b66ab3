#pragma once
// What the Why chart shows, as plain values: one stacked bar per server, its parts in a fixed
// order, from the figures layer's MemoryExplanation (Figures::explainMemory()). This file lays
// the parts out and words them; it computes no figure.

#include "charttheme.h"
#include "figures.h"
#include "memoryexplanation.h"
#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// One part of a bar.
struct WhySegment {
    QString partId;          // MemoryPart::id
    QString label;           // "main table"
    double bytesPerKey = 0;  // below zero: drawn left of zero
    QString text;            // "12.1", written inside the segment when it has room
};

// One server's bar.
struct WhyBar {
    QString serverId;
    QString name;                      // "Valkey 9.1.2"
    std::vector<WhySegment> segments;  // in whyPartOrder()'s order; empty without MEMORY STATS
    double bytesPerKey = 0;            // the measured figure the parts add up to
    QString total;                     // "241.7 B per key", written at the bar's end
    QString missing;                   // no parts: why ("MEMORY STATS: unknown command")
};

struct WhyLegendEntry {
    QString partId;
    QString label;
};

struct WhyChartData {
    QString categoryId;                   // "all", a type
    QString categoryLabel;                // "All attributes"
    std::vector<WhyBar> bars;             // servers in display order, top to bottom
    std::vector<WhyLegendEntry> legend;   // the parts any bar has, in whyPartOrder()'s order
    QString valueTitle;                   // "bytes per key"
    QString emptyText;                    // no bar: why
    bool hasNegativePart = false;         // a part below zero: the net figure is marked on the bar

    bool empty() const { return bars.empty(); }
};

// The parts' order, left to right: "main-table", "expires-table", "slot-table", "keys-values",
// "server", "not-attributed". A part of another id goes after "server".
const QStringList &whyPartOrder();
// A part's fixed colour in `theme`: the Okabe–Ito colours for what the server attributes, a
// neutral grey for "not attributed".
QColor whyPartColor(const QString &partId, ColorTheme theme);

// `reference`: the reference type's explanation (referenceExplanation()), whose bar stands above
// each server's own.
WhyChartData buildWhyChartData(const Figures &figures, const MemoryExplanation &explanation,
                              const MemoryExplanation *reference = nullptr);
// For a type of a workload measured against a reference type (hash-ttl: set-ex), that type's
// explanation, drawn beside; none for the reference itself and for totals.
std::optional<MemoryExplanation> referenceExplanation(const Figures &figures, const MemoryExplanation &explanation);

// "Where each key's bytes go — All attributes: 191.4 → 175.4 B per key", "… — hsetex against
// set-ex: …": the bytes per key of the two servers the sentence compares, when it compares two.
QString whyChartTitle(const MemoryExplanation &explanation, const MemoryExplanation *reference = nullptr);
// The headline sentence ("Of the 16.0 bytes per key …"), then the build caveat on a line of its own.
QString whySubtitle(const Figures &figures, const MemoryExplanation &explanation);
// The footnote lines before the provenance: the allocations sentence, the one against the
// reference type, what a server did not report, and what the net mark means.
QStringList whyFootnotes(const Figures &figures, const MemoryExplanation &explanation, const WhyChartData &data);
