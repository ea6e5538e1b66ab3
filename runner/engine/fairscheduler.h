#pragma once
// Lockstep turns for the "fair" schedule: servers in a timed pass take turns batch by batch,
// so on a small machine no server competes for CPU while its time is being measured.
// Workers that are not in a timed pass are not part of the rotation.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

class FairScheduler {
public:
    explicit FairScheduler(int workers);

    void enter(int worker);
    void leave(int worker);
    // Blocks until it is `worker`'s turn or `cancelled` becomes true. Returns false when cancelled.
    bool acquire(int worker, const std::atomic<bool> &cancelled);
    // Ends the caller's turn; the next worker in the rotation goes.
    void release(int worker);

private:
    int nextAfter(int worker) const;   // requires m_mutex

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<bool> m_active;
    int m_turn = -1;
    bool m_busy = false;
};
