// CPU pinning for timed passes: the plan splits the allowed CPUs, the chooser gives every
// worker of a phase the same plan, and a pinned process and thread get their CPUs back.

#include "cpupinning.h"
#include "cpuspeedreference.h"

#include <QFile>
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

    // The servers get the CPU that ran the loop fastest, and a phase is raced only once.
    void choosesTheFastestCpu()
    {
        std::atomic<int> calls{0};
        ServerCpuChooser chooser(CpuPlan{{1}, {0}, {0, 1}, {}}, scriptedRace(0, 2e6, calls));
        const CpuPlan chosen = chooser.planFor(0);
        QCOMPARE(calls.load(), 1);
        QCOMPARE(chosen.serverCpus, std::vector<int>{0});
        QCOMPARE(chosen.describe(), QStringLiteral("server on CPU 0, replay on CPU 1 (fixed loop: CPU 0 2.00 ms, CPU 1 2.60 ms)"));
        QCOMPARE(chooser.planFor(0).serverCpus, chosen.serverCpus);   // the same phase: no new race
        QCOMPARE(calls.load(), 1);
        chooser.planFor(1);
        QCOMPARE(calls.load(), 2);
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
