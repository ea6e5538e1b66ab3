#include "memoryaccounting.h"

long long MemoryAccounting::field(const char *name) const
{
    const auto found = stats.find(QLatin1String(name));
    return found == stats.end() ? 0 : found->second;
}

long long MemoryAccounting::databaseField(const char *name) const
{
    const auto found = stats.find(QLatin1String(MemoryStatsField::kDatabasePrefix) + QLatin1String(name));
    return found == stats.end() ? 0 : found->second;
}

std::optional<long long> MemoryAccounting::keysWithExpiry() const
{
    const auto found = stats.find(QLatin1String(MemoryStatsField::kKeysWithExpiry));
    return found == stats.end() ? std::nullopt : std::optional<long long>(found->second);
}

bool MemoryAccounting::hasSlotTable() const
{
    return stats.count(QLatin1String(MemoryStatsField::kDatabasePrefix) + QLatin1String(MemoryStatsField::kSlotTable)) > 0;
}

MemoryAccounting MemoryAccounting::change(const MemoryAccounting &before, const MemoryAccounting &after)
{
    MemoryAccounting delta;
    delta.statsUnavailable = !after.statsUnavailable.isEmpty() ? after.statsUnavailable : before.statsUnavailable;
    delta.regionsUnavailable = !after.regionsUnavailable.isEmpty() ? after.regionsUnavailable : before.regionsUnavailable;
    if (delta.statsUnavailable.isEmpty()) {
        // A database without keys is not in MEMORY STATS at all: its tables count as empty.
        auto isDatabaseField = [](const QString &name) { return name.startsWith(QLatin1String(MemoryStatsField::kDatabasePrefix)); };
        for (const auto &[name, bytes] : after.stats) {
            const auto earlier = before.stats.find(name);
            if (earlier != before.stats.end())
                delta.stats[name] = bytes - earlier->second;
            else if (isDatabaseField(name))
                delta.stats[name] = bytes;
        }
        for (const auto &[name, bytes] : before.stats) {
            if (isDatabaseField(name) && !after.stats.count(name))
                delta.stats[name] = -bytes;
        }
    }
    if (delta.regionsUnavailable.isEmpty()) {
        delta.regions = after.regions;
        for (const auto &[size, count] : before.regions)
            delta.regions[size] -= count;
        for (auto it = delta.regions.begin(); it != delta.regions.end();)
            it = it->second == 0 ? delta.regions.erase(it) : std::next(it);
    }
    return delta;
}

void MemoryAccounting::add(const MemoryAccounting &other)
{
    if (statsUnavailable.isEmpty())
        statsUnavailable = other.statsUnavailable;
    if (regionsUnavailable.isEmpty())
        regionsUnavailable = other.regionsUnavailable;
    for (const auto &[name, bytes] : other.stats)
        stats[name] += bytes;
    for (const auto &[size, count] : other.regions)
        regions[size] += count;
    if (!statsUnavailable.isEmpty())
        stats.clear();
    if (!regionsUnavailable.isEmpty())
        regions.clear();
}
