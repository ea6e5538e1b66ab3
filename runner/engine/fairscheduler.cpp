#include "fairscheduler.h"

#include <chrono>

FairScheduler::FairScheduler(int workers) : m_active(size_t(workers), false) {}

int FairScheduler::nextAfter(int worker) const
{
    const int count = int(m_active.size());
    for (int step = 1; step <= count; ++step) {
        const int candidate = (worker + step) % count;
        if (m_active[size_t(candidate)])
            return candidate;
    }
    return -1;
}

void FairScheduler::enter(int worker)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_active[size_t(worker)] = true;
    if (m_turn < 0)
        m_turn = worker;
    m_changed.notify_all();
}

void FairScheduler::leave(int worker)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_active[size_t(worker)] = false;
    if (m_turn == worker) {
        m_busy = false;
        m_turn = nextAfter(worker);
    }
    m_changed.notify_all();
}

bool FairScheduler::acquire(int worker, const std::atomic<bool> &cancelled)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    // The timeout only bounds how late a cancellation is noticed if a wake-up is missed.
    while (!(m_turn == worker && !m_busy)) {
        if (cancelled.load())
            return false;
        m_changed.wait_for(lock, std::chrono::milliseconds(100));
    }
    m_busy = true;
    return !cancelled.load();
}

void FairScheduler::release(int worker)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_turn != worker)
        return;
    m_busy = false;
    const int next = nextAfter(worker);
    m_turn = next < 0 ? worker : next;
    m_changed.notify_all();
}

