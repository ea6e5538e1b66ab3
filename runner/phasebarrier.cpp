#include "phasebarrier.h"

#include <chrono>

PhaseBarrier::PhaseBarrier(int workers) : m_reached(size_t(workers), -1), m_left(size_t(workers), false) {}

bool PhaseBarrier::everyoneReached(int phase) const
{
    for (size_t i = 0; i < m_reached.size(); ++i) {
        if (!m_left[i] && m_reached[i] < phase)
            return false;
    }
    return true;
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
    m_left[size_t(worker)] = true;
    m_changed.notify_all();
}
