// PhaseBarrier with real threads: nobody passes a phase before everyone still taking part
// has reached it, a worker that leaves is no longer waited for, and cancelling frees waiters.

#include "phasebarrier.h"

#include <QtTest>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

class TestPhaseBarrier : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nobodyPassesAPhaseBeforeEveryoneReachedIt()
    {
        const int workers = 4;
        const int phases = 200;
        PhaseBarrier barrier(workers);
        std::atomic<bool> cancelled{false};
        std::mutex mutex;
        std::vector<std::pair<int, int>> passed;   // (phase, worker) in the order they got through
        std::vector<std::thread> threads;
        for (int worker = 0; worker < workers; ++worker) {
            threads.emplace_back([&, worker] {
                for (int phase = 0; phase < phases; ++phase) {
                    if (!barrier.arrive(worker, phase, cancelled))
                        return;
                    std::lock_guard<std::mutex> lock(mutex);
                    passed.emplace_back(phase, worker);
                }
                barrier.leave(worker);
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(passed.size(), size_t(workers * phases));
        // Every worker records phase p before arriving at p + 1, so the records come in phase order.
        for (size_t i = 0; i < passed.size(); ++i)
            QCOMPARE(passed[i].first, int(i) / workers);
    }

    void aWorkerThatLeavesIsNotWaitedFor()
    {
        PhaseBarrier barrier(3);
        std::atomic<bool> cancelled{false};
        std::atomic<int> reached{0};
        std::thread first([&] { if (barrier.arrive(0, 0, cancelled)) ++reached; });
        std::thread second([&] { if (barrier.arrive(1, 0, cancelled)) ++reached; });
        QTest::qWait(50);   // a barrier that let them through would have done so long before
        QCOMPARE(reached.load(), 0);       // worker 2 has not reached phase 0
        barrier.leave(2);
        first.join();
        second.join();
        QCOMPARE(reached.load(), 2);
    }

    void cancellingFreesEveryWaiter()
    {
        PhaseBarrier barrier(2);
        std::atomic<bool> cancelled{false};
        std::atomic<int> refused{0};
        std::thread waiter([&] { if (!barrier.arrive(0, 0, cancelled)) ++refused; });
        QTest::qWait(50);
        QCOMPARE(refused.load(), 0);
        cancelled = true;
        waiter.join();
        QCOMPARE(refused.load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestPhaseBarrier)
#include "tst_phasebarrier.moc"
