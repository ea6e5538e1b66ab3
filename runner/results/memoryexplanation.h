#pragma once
// Why a version's bytes per key differ, from the server's own accounting (memoryaccounting.h):
// the values the Why view, its chart, report.md and the CLI show. Made by the figures layer
// (Figures::explainMemory(), figureswhy.cpp); docs/MEASUREMENT.md ("Why") says what each part
// holds and what no server reports.

#include "figures.h"

#include <QString>
#include <QStringList>
#include <vector>

// One part of a server's bytes per key.
struct MemoryPart {
    // "main-table", "expires-table", "slot-table", "keys-values", "server", "not-attributed"
    QString id;
    QString label;                // "main table", …, "not attributed"
    double bytesPerKey = 0;
    // Of bytesPerKey, what the allocator's size class adds to the table's entries beyond the
    // size MEMORY STATS counts them at: moved here from "keys and values", where used_memory
    // puts it (figureswhyrounding.h). 0 for the other parts.
    double allocatorRounding = 0;
};

// Live allocations of one jemalloc size class per key.
struct SizeClassShare {
    long long bytes = 0;          // the size class
    double perKey = 0;
};

// Where one server's bytes per key go in one memory category.
struct MemoryBreakdown {
    QString serverId;
    double bytesPerKey = 0;                    // the category's memory figure, which the parts split
    // Add up to bytesPerKey exactly, "not attributed" last (the rest, never spread over the
    // others). Empty when the server reported no MEMORY STATS.
    std::vector<MemoryPart> parts;
    // By size; classes under 0.01 per key left out. Empty without MALLOC-STATS.
    std::vector<SizeClassShare> sizeClasses;
    double allocationsPerKey = 0;              // over every class
    bool hasSizeClasses = false;
    // The keys of the pass(es) the parts come from. jemalloc counts the regions its thread cache
    // holds as live (up to about 200 per size class), so a pass of few keys reads its
    // allocations per key less exactly (kFewKeysForSizeClasses).
    long long keys = 0;
    // What the server did not report, and why ("MEMORY STATS: …").
    QStringList unavailable;
    // Which parts hold the allocator's rounding of the table entries, and why ("On Valkey 8.0.1
    // (Debian package), the main table holds 8.0 …"); empty when none does.
    QString rounding;

    double part(const QString &id) const;      // 0 when absent
};

// Below this many keys a pass's allocations per key may be off by 0.02 or more per size class.
inline constexpr long long kFewKeysForSizeClasses = 10000;

struct MemoryExplanation {
    FigureCategory category;
    // The shown servers with a settled figure in the category, in display order.
    std::vector<MemoryBreakdown> servers;
    // The two servers the sentences compare: the memory headline's, else the baseline and the
    // first other server with parts. Empty when there is no such pair.
    QString fromId;
    QString toId;
    // "Of the 9.5 bytes per key Valkey 9.1.2 saves over Valkey 8.0.1, 6.1 come from the main
    // table, …": every part named adds up to the measured change.
    QString sentence;
    // The allocations behind it: "Valkey 9.1.2 makes 1.3 fewer allocations per key than …", or
    // for two builds of one source with the same allocations, that the difference is the
    // allocator's size classes.
    QString allocations;
    // A type of a workload measured against a reference type (hash-ttl: set-ex), on the newest
    // server with both: the type's parts, encodings and allocations against the reference's.
    QString againstReference;

    const MemoryBreakdown *server(const QString &id) const;
};

// The category the Why chart explains by default: the memory total when there is one, else the
// first type that is not the workload's reference type (hash-ttl: hsetex against set-ex); empty
// when no shown server reported its memory accounting for any (the chart's row is then absent,
// figureviews.h).
QString defaultWhyCategory(const Figures &figures);
