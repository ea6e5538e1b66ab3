#include "allocationsize.h"

#include <algorithm>

namespace {

constexpr long long kLargestRequest = 1LL << 40;
constexpr long long kSmallestTinyClass = 8;   // jemalloc's LG_TINY_MIN on amd64
constexpr long long kGlibcHeader = 8;
constexpr long long kGlibcAlignment = 16;
constexpr long long kGlibcSmallestChunk = 32;

long long roundedUp(long long bytes, long long step)
{
    return (bytes + step - 1) / step * step;
}

} // namespace

std::optional<long long> jemallocSizeClass(long long bytes, int quantumBytes)
{
    if (bytes < 1 || bytes > kLargestRequest || (quantumBytes != 8 && quantumBytes != 16))
        return std::nullopt;
    const long long quantum = quantumBytes;
    if (bytes < quantum) {
        long long tiny = kSmallestTinyClass;
        while (tiny < bytes)
            tiny *= 2;
        return tiny;
    }
    if (bytes <= 8 * quantum)
        return roundedUp(bytes, quantum);
    long long base = 8 * quantum;
    while (base * 2 < bytes)
        base *= 2;
    return roundedUp(bytes, base / 4);
}

std::optional<long long> glibcUsableSize(long long bytes)
{
    if (bytes < 1 || bytes > kLargestRequest)
        return std::nullopt;
    const long long chunk = std::max(kGlibcSmallestChunk, roundedUp(bytes + kGlibcHeader, kGlibcAlignment));
    return chunk - kGlibcHeader;
}

std::optional<long long> servedBytes(const AllocatorFacts &facts, long long bytes)
{
    if (facts.memAllocator.startsWith(QLatin1String("jemalloc")))
        return jemallocSizeClass(bytes, facts.quantumBytes);
    if (facts.memAllocator == QLatin1String("libc"))
        return glibcUsableSize(bytes);
    return std::nullopt;
}
