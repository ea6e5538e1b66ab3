#pragma once
// What a server says of its own memory beside used_memory, as the change over one pass: the
// MEMORY STATS fields Versus reads, and the live allocations per jemalloc size class (MEMORY
// MALLOC-STATS). Measurements only: the figures layer turns them into bytes and allocations
// per key (figureswhy.cpp). Read at a pass's settled points, after its memory figure.

#include <QString>
#include <map>

// No reading of a process's memory can pass this: the largest virtual address space Linux
// gives a 64-bit process (57 bits, with five-level paging). A used_memory change or a MEMORY
// STATS field beyond it is no reading of a server (docs/MEASUREMENT.md, "Impossible readings").
inline constexpr long long kMostAddressableBytes = 1LL << 57;

struct MemoryAccounting {
    // MEMORY STATS field -> bytes. The fields of a database ("db.0") are summed over the
    // databases and kept under "db." + their name: "db.overhead.hashtable.main".
    std::map<QString, long long> stats;
    // Size class in bytes -> live regions of that class (jemalloc's small bins and large
    // extents). Regions in the server thread's cache count as live: jemalloc does not tell
    // them apart.
    std::map<long long, long long> regions;
    // Why a part is missing: the server's refusal, or "the allocator is not jemalloc". Empty
    // when it was read.
    QString statsUnavailable;
    QString regionsUnavailable;

    bool hasStats() const { return statsUnavailable.isEmpty() && !stats.empty(); }
    bool hasRegions() const { return regionsUnavailable.isEmpty(); }
    // A stats field, 0 when the server does not report it.
    long long field(const char *name) const;

    // after − before: stats fields both report, every size class either reports (a class
    // missing on one side held no region there). A part either side lacks stays unavailable.
    static MemoryAccounting change(const MemoryAccounting &before, const MemoryAccounting &after);
    // Adds another's fields and classes: a cluster's primaries, or the types of a total.
    // A part unavailable on either side stays unavailable.
    void add(const MemoryAccounting &other);
};
