// The speed of the machine during a timed pass: the verdict on it, the usual speed it is
// judged against, and one shared answer for every server of a pass.

#include "cpupinning.h"
#include "memorychase.h"
#include "passspeedometer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <set>
#include <vector>

namespace {

// A reference whose usual speed is a 1 ms loop and 100 ns per step.
std::shared_ptr<CpuSpeedReference> usualReference(const QTemporaryDir &dir)
{
    auto reference = std::make_shared<CpuSpeedReference>(dir.filePath(QStringLiteral("cpu-loop.json")),
                                                         QStringLiteral("AMD EPYC"));
    reference->offer(1e6);
    for (int i = 0; i < 5; ++i)
        reference->offerChase(100);
    return reference;
}

// Hands out `speeds` in turn (the last one forever) and remembers which CPU each was asked for.
struct ScriptedSampler {
    std::vector<MachineSpeed> speeds;
    std::shared_ptr<std::vector<int>> cpus = std::make_shared<std::vector<int>>();
    std::shared_ptr<std::size_t> next = std::make_shared<std::size_t>(0);

    PassSpeedometer::Sampler sampler() const
    {
        return [speeds = speeds, cpus = cpus, next = next](int cpu) {
            cpus->push_back(cpu);
            MachineSpeed speed = speeds[std::min(*next, speeds.size() - 1)];
            ++*next;
            speed.samples = 1;
            return speed;
        };
    }
};

// Samples whenever asked (no interval), no waiting for the usual speed.
PassSpeedometer::Options options(int retimeLimit, const ScriptedSampler &script)
{
    PassSpeedometer::Options options;
    options.retimeLimit = retimeLimit;
    options.sampleInterval = std::chrono::milliseconds(0);
    options.sampler = script.sampler();
    return options;
}

MachineSpeed speed(double loopNs, double chaseNs)
{
    MachineSpeed s;
    s.loopNs = loopNs;
    s.chaseNs = chaseNs;
    return s;
}

} // namespace

class TestPassSpeedometer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdict_data()
    {
        QTest::addColumn<double>("loopNs");
        QTest::addColumn<double>("chaseNs");
        QTest::addColumn<double>("usualLoopNs");
        QTest::addColumn<double>("usualChaseNs");
        QTest::addColumn<bool>("slow");
        QTest::addColumn<QString>("reason");
        QTest::newRow("usual") << 1.0e6 << 100.0 << 1.0e6 << 100.0 << false << QString();
        QTest::newRow("just inside both margins") << 1.25e6 << 114.0 << 1.0e6 << 100.0 << false << QString();
        QTest::newRow("memory just outside") << 1.0e6 << 116.0 << 1.0e6 << 100.0 << true
                                             << QStringLiteral("memory 16% slower than usual (116 ns per step against 100 ns)");
        QTest::newRow("CPU") << 1.3e6 << 100.0 << 1.0e6 << 100.0 << true
                             << QStringLiteral("CPU 30% slower than usual (fixed loop 1.30 ms against 1.00 ms)");
        QTest::newRow("memory") << 1.0e6 << 130.0 << 1.0e6 << 100.0 << true
                                << QStringLiteral("memory 30% slower than usual (130 ns per step against 100 ns)");
        QTest::newRow("both") << 2.0e6 << 160.0 << 1.0e6 << 100.0 << true
                              << QStringLiteral("CPU 100% slower than usual (fixed loop 2.00 ms against 1.00 ms), "
                                                "memory 60% slower than usual (160 ns per step against 100 ns)");
        QTest::newRow("no usual speed yet") << 9.0e6 << 900.0 << 0.0 << 0.0 << false << QString();
    }

    void verdict()
    {
        QFETCH(double, loopNs);
        QFETCH(double, chaseNs);
        QFETCH(double, usualLoopNs);
        QFETCH(double, usualChaseNs);
        QFETCH(bool, slow);
        QFETCH(QString, reason);
        const PassVerdict verdict = judgePass(speed(loopNs, chaseNs), usualLoopNs, usualChaseNs);
        QCOMPARE(verdict.slow, slow);
        QCOMPARE(verdict.reason, reason);
    }

    // The usual memory speed is the lower quartile of the last 30 passes, once there are 5,
    // kept per CPU model between runs.
    void usualMemorySpeed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cpu-loop.json"));
        {
            CpuSpeedReference reference(path, QStringLiteral("AMD EPYC"));
            for (double ns : {150.0, 140.0, 160.0, 200.0})
                reference.offerChase(ns);
            QCOMPARE(reference.usualChaseNanoseconds(), 0.0);
            reference.offerChase(130);
            QCOMPARE(reference.usualChaseNanoseconds(), 140.0);   // 130 140 150 160 200
            reference.offerChase(170);
            QCOMPARE(reference.usualChaseNanoseconds(), 140.0);   // 130 140 150 160 170 200
            reference.offer(1.8e6);
        }
        CpuSpeedReference again(path, QStringLiteral("AMD EPYC"));
        QCOMPARE(again.usualChaseNanoseconds(), 140.0);
        QCOMPARE(again.bestLoopNanoseconds(), 1.8e6);
        QCOMPARE(CpuSpeedReference(path, QStringLiteral("Intel Xeon")).usualChaseNanoseconds(), 0.0);
        // Only the last 30 count: 30 passes at 300 ns push the fast ones out.
        for (int i = 0; i < 30; ++i)
            again.offerChase(300);
        QCOMPARE(again.usualChaseNanoseconds(), 300.0);
        QCOMPARE(CpuSpeedReference(path, QStringLiteral("AMD EPYC")).usualChaseNanoseconds(), 300.0);
    }

    // Every server of a pass gets the same judgement, made from the samples of the whole pass:
    // the one at its start, those between batches, and the one at its end.
    void onePassOneJudgement()
    {
        QTemporaryDir dir;
        ScriptedSampler script;
        script.speeds = {speed(1.0e6, 100), speed(1.1e6, 130), speed(1.0e6, 125), speed(1.0e6, 120)};
        PassSpeedometer meter(usualReference(dir), options(2, script));
        meter.tick();                       // no pass yet: no sample
        QCOMPARE(script.cpus->size(), size_t(0));
        meter.begin(7, 1);
        meter.begin(7, 0);                  // the second server joins the pass already begun
        meter.tick();
        meter.tick();
        const PassSpeedometer::Judgement first = meter.finish(7, 1);
        meter.tick();                       // over: no sample
        const PassSpeedometer::Judgement second = meter.finish(7, 1);
        QCOMPARE(*script.cpus, (std::vector<int>{1, 1, 1, 1}));
        QCOMPARE(first.speed.samples, 4);
        QCOMPARE(first.speed.loopNs, 1.0e6);          // median of 1.0 1.1 1.0 1.0 ms
        QCOMPARE(first.speed.chaseNs, 122.5);         // median of 100 130 125 120
        QVERIFY(first.verdict.slow);
        QCOMPARE(first.verdict.reason, QStringLiteral("memory 23% slower than usual (123 ns per step against 100 ns)"));
        QVERIFY(first.retime);
        QCOMPARE(second.speed.chaseNs, first.speed.chaseNs);
        QCOMPARE(second.verdict.reason, first.verdict.reason);
        QCOMPARE(second.retime, first.retime);
    }

    // Before a pass starts, its first server waits until the machine is back to its usual
    // speed, for at most the settle limit; only the sample that ended the wait counts.
    void beginWaitsForTheUsualSpeed()
    {
        QTemporaryDir dir;
        ScriptedSampler script;
        script.speeds = {speed(1.0e6, 150), speed(1.0e6, 150), speed(1.0e6, 150), speed(1.0e6, 100)};
        PassSpeedometer::Options settled = options(2, script);
        settled.settleLimitMs = 10000;
        settled.retry = std::chrono::milliseconds(50);
        PassSpeedometer meter(usualReference(dir), settled);
        const QString waited = meter.begin(1, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^waited \\d+\\.\\d s for the machine's usual speed$")).match(waited).hasMatch(),
                 qPrintable(waited));
        QCOMPARE(meter.begin(1, 1), waited);      // the pass's other servers are told the same
        QCOMPARE(script.cpus->size(), size_t(4));
        const PassSpeedometer::Judgement judged = meter.finish(1, 1);
        QCOMPARE(judged.speed.samples, 2);        // the sample that ended the wait, and the last
        QCOMPARE(judged.speed.chaseNs, 100.0);
        QVERIFY(!judged.verdict.slow);

        // Never back: it gives up at the limit and says so; cancelling ends the wait at once.
        ScriptedSampler slow;
        slow.speeds = {speed(1.0e6, 150)};
        PassSpeedometer::Options limited = options(2, slow);
        limited.settleLimitMs = 200;
        limited.retry = std::chrono::milliseconds(50);
        PassSpeedometer stuck(usualReference(dir), limited);
        const QString gaveUp = stuck.begin(1, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^still memory 50% slower than usual \\(150 ns per step against 100 ns\\) "
                                                   "after waiting \\d+\\.\\d s$")).match(gaveUp).hasMatch(),
                 qPrintable(gaveUp));
        const std::atomic<bool> cancelled{true};
        const size_t before = slow.cpus->size();
        stuck.begin(2, 0, &cancelled);
        QCOMPARE(slow.cpus->size(), before + 1);

        // Without a usual speed to compare with, nothing waits.
        PassSpeedometer unjudged(nullptr, limited);
        const size_t sampled = slow.cpus->size();
        QCOMPARE(unjudged.begin(1, 0), QString());
        QCOMPARE(slow.cpus->size(), sampled + 1);
    }

    // A slow pass is timed again at most `retimeLimit` times; then it is kept, still slow.
    void retimesAreLimited()
    {
        QTemporaryDir dir;
        ScriptedSampler script;
        script.speeds = {speed(1.0e6, 150)};
        PassSpeedometer meter(usualReference(dir), options(2, script));
        std::vector<bool> retimes;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            meter.begin(10 + attempt, 0);
            const PassSpeedometer::Judgement judged = meter.finish(10 + attempt, attempt);
            QVERIFY(judged.verdict.slow);
            retimes.push_back(judged.retime);
        }
        QCOMPARE(retimes, (std::vector<bool>{true, true, false}));

        PassSpeedometer never(usualReference(dir), options(0, script));
        never.begin(1, 0);
        QVERIFY(!never.finish(1, 1).retime);
    }

    // Each pass teaches the reference: its memory latency joins the recent ones, its loop
    // time the best one.
    void passesTeachTheReference()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cpu-loop.json"));
        auto reference = std::make_shared<CpuSpeedReference>(path, QStringLiteral("AMD EPYC"));
        ScriptedSampler script;
        script.speeds = {speed(0.9e6, 80)};
        PassSpeedometer meter(reference, options(2, script));
        for (int phase = 0; phase < 5; ++phase) {
            meter.begin(phase, 0);
            QVERIFY(!meter.finish(phase, 1).verdict.slow);   // nothing to judge against at first
        }
        CpuSpeedReference saved(path, QStringLiteral("AMD EPYC"));
        QCOMPARE(saved.usualChaseNanoseconds(), 80.0);
        QCOMPARE(saved.bestLoopNanoseconds(), 0.9e6);
    }

    // The real probes: a loop and a walk on the CPU asked for, with the thread's CPUs given back.
    void realSamplesRunOnTheServersCpu()
    {
        const std::optional<CpuPlan> plan = CpuPlan::forThisMachine();
        if (!plan)
            QSKIP("this process may use only one CPU");
        const int serverCpu = plan->serverCpus.front();
        int ranOn = -1;
        QVERIFY(runOnCpu(serverCpu, [&] { ranOn = sched_getcpu(); }));
        QCOMPARE(ranOn, serverCpu);
        cpu_set_t after;
        QCOMPARE(sched_getaffinity(0, sizeof(after), &after), 0);
        QCOMPARE(CPU_COUNT(&after), int(plan->allowedCpus.size()));

        PassSpeedometer meter(nullptr, PassSpeedometer::Options());
        meter.begin(0, serverCpu);
        const PassSpeedometer::Judgement judged = meter.finish(0, 1);
        QCOMPARE(judged.speed.samples, 2);
        QVERIFY2(judged.speed.loopNs > 1e4 && judged.speed.loopNs < 1e9, qPrintable(QString::number(judged.speed.loopNs)));
        // Dependent loads through 16 MB: slower than any cache hit, faster than a microsecond.
        QVERIFY2(judged.speed.chaseNs > 5 && judged.speed.chaseNs < 1000, qPrintable(QString::number(judged.speed.chaseNs)));
        QVERIFY(!judged.verdict.slow);   // no reference, no verdict
    }

    // The walk is one cycle through every slot: from slot 0 it comes back to slot 0 after
    // exactly as many steps as there are slots, so no walk circles inside a cache.
    void memoryWalkIsOneCycle()
    {
        MemoryChase chase(4096);
        QCOMPARE(chase.slotCount(), size_t(1024));
        QCOMPARE(chase.position(), 0u);
        std::set<std::uint32_t> visited;
        for (int step = 1; step < 1024; ++step) {
            chase.nanosecondsPerStep(1);
            QVERIFY2(chase.position() != 0, qPrintable(QStringLiteral("back at slot 0 after %1 steps").arg(step)));
            visited.insert(chase.position());
        }
        chase.nanosecondsPerStep(1);
        QCOMPARE(chase.position(), 0u);
        QCOMPARE(visited.size(), size_t(1023));
        QCOMPARE(chase.nanosecondsPerStep(0), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestPassSpeedometer)
#include "tst_passspeedometer.moc"
