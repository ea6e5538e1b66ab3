// CPU pinning for timed passes: the plan splits the allowed CPUs, and a pinned process and
// thread get their CPUs back.

#include "cpupinning.h"

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
        if (allowed == std::vector<int>{0, 1})
            QCOMPARE(plan->describe(), QStringLiteral("server on CPU 1, replay on CPU 0"));
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
            const CpuPlan &onFirst = *plan;
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
