// CPU pinning for timed passes: the plan splits the allowed CPUs, the chooser gives every
// worker of a phase the same plan, and a pinned process and thread get their CPUs back.

#include "cpupinning.h"

#include <QFile>
#include <QProcess>
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
};

QTEST_GUILESS_MAIN(TestCpuPinning)
#include "tst_cpupinning.moc"
