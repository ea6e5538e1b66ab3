#pragma once
// Inside the figures layer: the allocator's rounding of a server's key-table entries
// (figureswhyrounding.cpp). MEMORY STATS counts each entry of a dict-based table at its size
// (24 B); the allocator serves it from a size class (32 B under a 16-byte jemalloc quantum), and
// the difference lands in dataset.bytes, "keys and values". The Why counts the entries at the
// size class instead, and says so.

#include "memoryaccounting.h"
#include "memoryexplanation.h"
#include "resultsbundle.h"

#include <optional>

// How one server allocates its table entries, as measured on each build (docs/MEASUREMENT.md,
// "Why"): a dict of 24-byte entries (key, value, next), allocated one by one, for the expires
// table of Valkey before 8.1 and Redis before 8.2 and for their main table, except Valkey 8.0's,
// whose entries embed the key (their size is the key's, and no count covers it). A cluster's
// main-table entries of Redis before 7.4 and Valkey 7.2 hold the slot-to-keys links too (40 B).
// Later tables are arrays of 64-byte buckets; a dict's bucket array is a power of two of 8-byte
// pointers of at least 32 B: sizes every jemalloc class list holds exactly, which no correction
// moves (glibc's header adds 8 B per array, not per key).
struct EntryRounding {
    long long entry = 0;             // what MEMORY STATS counts per entry: 24
    long long served = 0;            // what the allocator serves it from
    bool mainTable = false;          // the main table's entries are such entries too
    long long withSlotLinks = 0;     // a cluster's main-table entry, 0 when it holds no links
    long long servedWithSlotLinks = 0;
    QString allocator;               // "jemalloc (quantum 16 B)"
};

// nullopt when the server's tables have no entries of their own, or its allocator or its
// quantum is unknown (nothing can be corrected then; the provenance says the allocator is unknown).
std::optional<EntryRounding> entryRoundingOf(const ServerRun &run);

// What correcting a breakdown's passes found: a pass without the count of keys with a TTL, a
// pass of a cluster whose entries hold slot-to-keys links.
struct RoundingNotes {
    bool expiresUnknown = false;
    bool slotLinks = false;
};

// Moves the rounding of one pass's table entries from "keys and values" into the main and
// expires tables of `parts` (per key, as partsOf() made them). The expires table's entries are
// the pass's keys with a TTL; a pass that does not hold that count keeps its expires table as
// MEMORY STATS counts it, and `notes` says so. Nothing moves when keys and values would
// drop below zero (no allocation could explain it).
void addEntryRounding(const EntryRounding &rounding, const MemoryAccounting &pass, long long keys,
                      std::vector<MemoryPart> &parts, RoundingNotes &notes);

// The sentence of a server whose parts hold such rounding (MemoryBreakdown::rounding): "On Valkey
// 8.0.1 (Debian package), the main table holds 8.0 and the expires table 7.9 bytes per key that
// MEMORY STATS counts under keys and values: each 24 B table entry takes jemalloc's 32 B class
// (quantum 16 B)." Empty when no part was corrected and the expires table's entries were known.
QString roundingSentence(const QString &serverName, const EntryRounding &rounding, const MemoryBreakdown &server,
                         const RoundingNotes &notes);
