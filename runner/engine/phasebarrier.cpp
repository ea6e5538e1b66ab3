#include "phasebarrier.h"

#include <algorithm>
#include <chrono>
#include <limits>

PhaseBarrier::PhaseBarrier(int workers) : m_reached(size_t(workers), -1) {}

bool PhaseBarrier::everyoneReached(int phase) const
{
    return std::all_of(m_reached.begin(), m_reached.end(), [phase](int reached) { return reached >= phase; });
}

bool PhaseBarrier::arrive(int worker, int phase, const std::atomic<bool> &cancelled)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (phase > m_reached[size_t(worker)])
        m_reached[size_t(worker)] = phase;
    m_changed.notify_all();
    // The timeout only bounds how late a cancellation is noticed: cancelling does not notify.
    while (!everyoneReached(phase)) {
        if (cancelled.load())
            return false;
        m_changed.wait_for(lock, std::chrono::milliseconds(50));
    }
    return !cancelled.load();
}

void PhaseBarrier::leave(int worker)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_reached[size_t(worker)] = std::numeric_limits<int>::max();
    m_changed.notify_all();
}
