#pragma once
// A speedometer for the machine's memory: nanoseconds per dependent load while walking one
// random cycle through a buffer far larger than the caches.
//
// On the development machine (a shared virtual machine) the latency of such a walk drifted
// between 145 and 190 ns over minutes while a CPU loop ran at one speed throughout, and
// servers' µs/command followed it (0.43 at 145 ns, 0.52 at 175 ns, correlation 0.82). A
// server command is mostly pointer chasing through dicts and objects, so memory contention
// from other guests slows it the way it slows this walk.

#include <cstdint>
#include <vector>

class MemoryChase {
public:
    // A single cycle through `bytes` / 4 slots, so every step depends on the one before.
    explicit MemoryChase(std::size_t bytes = 16u << 20);

    // The mean nanoseconds per step over `steps` steps, continuing where the last walk stopped.
    double nanosecondsPerStep(int steps);
    // The slot the walk has reached; it starts at 0.
    std::uint32_t position() const { return m_at; }
    std::size_t slotCount() const { return m_next.size(); }

private:
    std::vector<std::uint32_t> m_next;
    std::uint32_t m_at = 0;
};
