#pragma once
// Keeps the servers of a run in step: no worker passes phase N until every worker still
// in the run has reached it. Workers mark the start of each repeat and both ends of each
// timed pass, so repeats interleave A B C A B C and no server is timed while another one
// starts up, settles or runs its memory passes. A worker that fails, is cancelled or
// finishes leaves, and the others stop waiting for it.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

class PhaseBarrier {
public:
    explicit PhaseBarrier(int workers);

    // Records that `worker` reached `phase` (phases only grow) and blocks until every worker
    // still taking part has reached it too. Returns false when `cancelled` becomes true.
    bool arrive(int worker, int phase, const std::atomic<bool> &cancelled);
    // `worker` takes no further part; nobody waits for it any more.
    void leave(int worker);

private:
    bool everyoneReached(int phase) const;   // requires m_mutex

    std::mutex m_mutex;
    std::condition_variable m_changed;
    // The last phase each worker reached; -1 before the first. A worker that left has
    // reached every phase, so nobody waits for it.
    std::vector<int> m_reached;
};
