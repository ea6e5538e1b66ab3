// CPU pinning for timed passes: the plan splits the allowed CPUs, the chooser gives every
// worker of a phase the same plan, and a pinned process and thread get their CPUs back.

#include "cpupinning.h"

#include <QFile>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <sched.h>
#include <set>
#include <thread>

namespace {

std::vector<int> allowedCpus(pid_t thread)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (::sched_getaffinity(thread, sizeof(set), &set) != 0)
        return cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

} // namespace

class TestCpuPinning : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void planSplitsTheAllowedCpus()
    {
        const std::vector<int> allowed = allowedCpus(0);
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (allowed.size() < 2) {
            QVERIFY(!plan);
            return;
        }
        QVERIFY(plan);
        QCOMPARE(plan->allowedCpus, allowed);
        QCOMPARE(plan->serverCpus, std::vector<int>{allowed.back()});
        QCOMPARE(plan->replayCpus, std::vector<int>(allowed.begin(), allowed.end() - 1));

        const CpuPlan onFirst = plan->withServerOn(allowed.front());
        QCOMPARE(onFirst.serverCpus, std::vector<int>{allowed.front()});
        QCOMPARE(onFirst.replayCpus, std::vector<int>(allowed.begin() + 1, allowed.end()));
        QCOMPARE(onFirst.allowedCpus, allowed);
        if (allowed == std::vector<int>{0, 1})
            QCOMPARE(onFirst.describe(), QStringLiteral("server on CPU 0, replay on CPU 1"));
    }

    void racingTheCpusLeavesTheThreadWhereItWas()
    {
        const std::vector<int> before = allowedCpus(0);
        const std::vector<double> times = timeFixedLoopOn(before);
        QCOMPARE(times.size(), before.size());
        for (double nanoseconds : times)
            QVERIFY(nanoseconds > 0);
        QCOMPARE(allowedCpus(0), before);
    }

    void everyWorkerOfAPhaseGetsTheSamePlan()
    {
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (!plan)
            QSKIP("one CPU: there is nothing to choose between");
        ServerCpuChooser chooser(*plan);
        std::vector<CpuPlan> plans(4);
        std::vector<std::thread> workers;
        for (size_t i = 0; i < plans.size(); ++i)
            workers.emplace_back([&, i] { plans[i] = chooser.planFor(3); });
        for (std::thread &worker : workers)
            worker.join();
        for (const CpuPlan &each : plans) {
            QVERIFY(each == plans.front());
            QCOMPARE(each.serverCpus.size(), size_t(1));
            QCOMPARE(each.replayCpus.size() + 1, plan->allowedCpus.size());
            QVERIFY(std::count(plan->allowedCpus.begin(), plan->allowedCpus.end(), each.serverCpus.front()) == 1);
        }
    }

    void pinnedProcessAndThreadGetTheirCpusBack()
    {
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (!plan)
            QSKIP("one CPU: nothing is pinned");
        QProcess child;
        child.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(child.waitForStarted());
        const pid_t pid = pid_t(child.processId());
        const std::vector<int> before = allowedCpus(0);
        {
            const CpuPlan onFirst = plan->withServerOn(plan->allowedCpus.front());
            CpuPinning pinning(onFirst, pid, QStringLiteral("sleep"));
            QVERIFY2(pinning.status(), qPrintable(pinning.status().error()));
            QCOMPARE(allowedCpus(pid), onFirst.serverCpus);
            QCOMPARE(allowedCpus(0), onFirst.replayCpus);
        }
        QCOMPARE(allowedCpus(pid), plan->allowedCpus);
        QCOMPARE(allowedCpus(0), before);
        child.kill();
        child.waitForFinished();
    }

    void aPidThatDoesNotExistIsAnError()
    {
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (!plan)
            QSKIP("one CPU: nothing is pinned");
        const std::vector<int> before = allowedCpus(0);
        CpuPinning pinning(*plan, 4194304 + 17, QStringLiteral("valkey-test"));   // above pid_max
        QVERIFY(!pinning.status());
        QVERIFY2(pinning.status().error().startsWith(QStringLiteral("valkey-test: cannot pin pid")),
                 qPrintable(pinning.status().error()));
        QCOMPARE(allowedCpus(0), before);   // the calling thread was left alone
    }

    // A race that answers from a script: the first `slowRaces` calls find every CPU 1.3
    // times slower than `usual`, later ones find CPU 0 back at the usual speed.
    static ServerCpuChooser::Race scriptedRace(int slowRaces, double usual, std::atomic<int> &calls)
    {
        return [slowRaces, usual, &calls](const std::vector<int> &cpus) {
            const int call = calls++;
            std::vector<double> times(cpus.size(), usual * 1.3);
            if (call >= slowRaces)
                times.front() = usual;
            return times;
        };
    }

    // Settling against a usual loop time of 2 ms, kept in a throwaway file.
    static CpuSettling settlingAt2ms(const QTemporaryDir &dir, int limitMs)
    {
        CpuSettling settling;
        settling.reference = std::make_shared<CpuSpeedReference>(dir.filePath(QStringLiteral("cpu-loop.json")),
                                                                 QStringLiteral("Test CPU"));
        settling.reference->offer(2e6);
        settling.limitMs = limitMs;
        settling.retry = std::chrono::milliseconds(10);
        return settling;
    }

    void waitsForTheUsualSpeed()
    {
        QTemporaryDir dir;
        std::atomic<int> calls{0};
        ServerCpuChooser chooser(CpuPlan{{1}, {0}, {0, 1}, {}, 0, 0}, settlingAt2ms(dir, 5000), scriptedRace(3, 2e6, calls));
        const CpuPlan chosen = chooser.planFor(0);
        QCOMPARE(calls.load(), 4);                         // three slow races, then the usual speed
        QCOMPARE(chosen.serverCpus, std::vector<int>{0});  // the CPU that came back
        QCOMPARE(chosen.slowerThanUsual, 0.0);
        QVERIFY(chosen.waitedSeconds >= 0.03);
        QVERIFY2(chosen.describe().startsWith(QStringLiteral("server on CPU 0, replay on CPU 1 (fixed loop: CPU 0 2.00 ms, CPU 1 2.60 ms)")),
                 qPrintable(chosen.describe()));
        QCOMPARE(chooser.planFor(0).serverCpus, chosen.serverCpus);   // the same phase: no new race
        QCOMPARE(calls.load(), 4);
    }

    void givesUpAfterTheLimitAndSaysSo()
    {
        QTemporaryDir dir;
        const CpuSettling settling = settlingAt2ms(dir, 100);
        std::atomic<int> calls{0};
        ServerCpuChooser chooser(CpuPlan{{1}, {0}, {0, 1}, {}, 0, 0}, settling, scriptedRace(1000000, 2e6, calls));
        const CpuPlan chosen = chooser.planFor(0);
        QVERIFY(calls.load() >= 3);
        QVERIFY(std::abs(chosen.slowerThanUsual - 1.3) < 1e-9);
        QVERIFY(chosen.waitedSeconds >= 0.1);
        QVERIFY2(chosen.describe().contains(QStringLiteral("; every CPU still 30% slower than usual after 0.")),
                 qPrintable(chosen.describe()));
        QCOMPARE(settling.reference->bestLoopNanoseconds(), 2e6);   // a slow race never becomes the reference
    }

    void cancellingEndsTheWait()
    {
        QTemporaryDir dir;
        std::atomic<int> calls{0};
        ServerCpuChooser chooser(CpuPlan{{1}, {0}, {0, 1}, {}, 0, 0}, settlingAt2ms(dir, 60000),
                                 scriptedRace(1000000, 2e6, calls));
        std::atomic<bool> cancelled{false};
        QElapsedTimer clock;
        clock.start();
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            cancelled = true;
        });
        chooser.planFor(0, &cancelled);
        canceller.join();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
    }

    void withoutAReferenceNothingWaits()
    {
        CpuSettling settling;
        settling.limitMs = 60000;
        std::atomic<int> calls{0};
        ServerCpuChooser chooser(CpuPlan{{1}, {0}, {0, 1}, {}, 0, 0}, settling, scriptedRace(1000000, 2e6, calls));
        chooser.planFor(0);
        QCOMPARE(calls.load(), 1);
    }

    // The usual speed survives between runs, belongs to one CPU model, and only improves.
    void referenceIsKeptPerCpuModel()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/cpu-loop.json"));
        {
            CpuSpeedReference reference(path, QStringLiteral("AMD EPYC"));
            QCOMPARE(reference.bestLoopNanoseconds(), 0.0);
            reference.offer(1.9e6);
            reference.offer(2.4e6);
            QCOMPARE(reference.bestLoopNanoseconds(), 1.9e6);
        }
        QCOMPARE(CpuSpeedReference(path, QStringLiteral("AMD EPYC")).bestLoopNanoseconds(), 1.9e6);
        QCOMPARE(CpuSpeedReference(path, QStringLiteral("Intel Xeon")).bestLoopNanoseconds(), 0.0);
        QFile junk(path);
        QVERIFY(junk.open(QIODevice::WriteOnly | QIODevice::Truncate));
        junk.write("not json");
        junk.close();
        QCOMPARE(CpuSpeedReference(path, QStringLiteral("AMD EPYC")).bestLoopNanoseconds(), 0.0);
        QVERIFY(CpuSpeedReference::defaultPath().endsWith(QStringLiteral("/versus/cpu-loop.json")));
    }
};

QTEST_GUILESS_MAIN(TestCpuPinning)
#include "tst_cpupinning.moc"
