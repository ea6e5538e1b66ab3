#pragma once
// Counts the program's heap allocations while asked to, for tests that check a steady state
// allocates nothing. It replaces the global operator new and delete, so include it in exactly
// one source file of a folder's test program (tests/CMakeLists.txt): every test of that program
// then allocates through it, counting only while asked to.

#include <atomic>
#include <cstdlib>
#include <new>

namespace AllocationCounter {

inline std::atomic<long long> allocations{0};
inline std::atomic<bool> counting{false};

// From now on, every allocation in any thread counts; the count starts at 0.
inline void start()
{
    allocations.store(0);
    counting.store(true);
}

// Stops counting; returns how many allocations were made since start().
inline long long stop()
{
    counting.store(false);
    return allocations.load();
}

} // namespace AllocationCounter

void *operator new(std::size_t size)
{
    if (AllocationCounter::counting.load(std::memory_order_relaxed))
        AllocationCounter::allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *memory = std::malloc(size ? size : 1))
        return memory;
    throw std::bad_alloc();
}
void operator delete(void *memory) noexcept
{
    std::free(memory);
}
void operator delete(void *memory, std::size_t) noexcept
{
    std::free(memory);
}
