#pragma once
// What a server says of its own memory beside used_memory, as the change over one pass: the
// MEMORY STATS fields Versus reads, and the live allocations per jemalloc size class (MEMORY
// MALLOC-STATS). Measurements only: the figures layer turns them into bytes and allocations
// per key (figureswhy.cpp). Read at a pass's settled points, after its memory figure.

#include <QString>
#include <map>
#include <optional>

// No reading of a process's memory can pass this: the largest virtual address space Linux
// gives a 64-bit process (57 bits, with five-level paging). A used_memory change or a MEMORY
// STATS field beyond it is no reading of a server (docs/MEASUREMENT.md, "Impossible readings").
inline constexpr long long kMostAddressableBytes = 1LL << 57;

// The MEMORY STATS fields Versus reads, named once: the reader's allow-list (memoryreport.cpp)
// and MemoryAccounting's getters below. Ratios, peaks and the allocator's RSS figures are not
// kept; a hostile reply cannot fill the bundle with names of its own.
namespace MemoryStatsField {
inline constexpr const char *kTotalAllocated = "total.allocated";
inline constexpr const char *kStartupAllocated = "startup.allocated";
inline constexpr const char *kOverheadTotal = "overhead.total";
inline constexpr const char *kDataset = "dataset.bytes";
inline constexpr const char *kNormalClients = "clients.normal";
inline constexpr const char *kReplicaClients = "clients.slaves";
inline constexpr const char *kServerFields[] = {
    kTotalAllocated, kStartupAllocated, kOverheadTotal, kDataset, "keys.count",
    kNormalClients, kReplicaClients, "replication.backlog", "replicas.repl.buffer", "aof.buffer",
    "lua.caches", "functions.caches", "script.VMs", "cluster.links",
    "overhead.db.hashtable.lut", "overhead.db.hashtable.rehashing",
};
// Each database's ("db.0") fields, summed over the databases under kDatabasePrefix + name.
inline constexpr const char *kDatabasePrefix = "db.";
inline constexpr const char *kMainTable = "overhead.hashtable.main";
inline constexpr const char *kExpiresTable = "overhead.hashtable.expires";
inline constexpr const char *kSlotTable = "overhead.hashtable.slot-to-keys";
inline constexpr const char *kDatabaseFields[] = {kMainTable, kExpiresTable, kSlotTable};
// Not a MEMORY STATS field: the keys with a TTL over the databases, from INFO keyspace's
// "expires=" (memoryreport.cpp), kept beside them as keys.count is. The expires table holds one
// entry per such key, which the Why counts at the allocator's size class (figureswhyrounding.cpp).
inline constexpr const char *kKeysWithExpiry = "keyspace.expires";
// Not a MEMORY STATS field either: clients.normal less what the clients held when it was read
// (CLIENT INFO and CLIENT LIST in the same pipeline, memoryreport.cpp). The server adds up its
// clients' memory in its cron, once a second per client, so clients.normal can still count a
// reply that has since been sent and freed, and dataset.bytes (used memory less the overheads)
// is short by as much. Absent where the clients could not be listed: nothing is corrected.
inline constexpr const char *kClientsLag = "clients.normal.lag";
} // namespace MemoryStatsField

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
    // The fields the Why view splits bytes into, by name (MemoryStatsField), 0 when not reported.
    long long totalAllocated() const { return field(MemoryStatsField::kTotalAllocated); }
    long long startupAllocated() const { return field(MemoryStatsField::kStartupAllocated); }
    // Overheads, data and clients with the clients as they were when read (kClientsLag): the
    // lag moves from the overheads to the data, so the two still add up to total.allocated.
    long long overheadTotal() const { return field(MemoryStatsField::kOverheadTotal) - clientsLag(); }
    long long dataset() const { return field(MemoryStatsField::kDataset) + clientsLag(); }
    long long clients() const
    {
        return field(MemoryStatsField::kNormalClients) - clientsLag() + field(MemoryStatsField::kReplicaClients);
    }
    long long clientsLag() const { return field(MemoryStatsField::kClientsLag); }
    long long mainTable() const { return databaseField(MemoryStatsField::kMainTable); }
    long long expiresTable() const { return databaseField(MemoryStatsField::kExpiresTable); }
    long long slotTable() const { return databaseField(MemoryStatsField::kSlotTable); }
    // Keys with a TTL; absent in bundles from before it was read, and where INFO keyspace failed.
    std::optional<long long> keysWithExpiry() const;
    // Only cluster nodes of some versions report a slot-to-keys table.
    bool hasSlotTable() const;
    // A database field summed over the databases ("db." + name).
    long long databaseField(const char *name) const;

    // after − before: stats fields both report, every size class either reports (a class
    // missing on one side held no region there). A part either side lacks stays unavailable.
    static MemoryAccounting change(const MemoryAccounting &before, const MemoryAccounting &after);
    // Adds another's fields and classes: a cluster's primaries, or the types of a total.
    // A part unavailable on either side stays unavailable.
    void add(const MemoryAccounting &other);
};
