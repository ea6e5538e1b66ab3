#include "memorychase.h"

#include "seededrandom.h"
#include <algorithm>
#include <chrono>
#include <numeric>

MemoryChase::MemoryChase(std::size_t bytes) : m_next(std::max<std::size_t>(2, bytes / sizeof(std::uint32_t)))
{
    // Sattolo's shuffle yields one cycle through every slot: no walk gets caught in a short loop
    // that fits in a cache.
    std::iota(m_next.begin(), m_next.end(), 0u);
    SeededRandom random(0x5eed);
    for (std::size_t i = m_next.size() - 1; i > 0; --i)
        std::swap(m_next[i], m_next[random.below(i)]);
}

double MemoryChase::nanosecondsPerStep(int steps)
{
    if (steps <= 0)
        return 0;
    std::uint32_t at = m_at;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i)
        at = m_next[at];
    const auto elapsed = std::chrono::steady_clock::now() - start;
    m_at = at;   // also keeps the walk from being optimised away
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()) / double(steps);
}
