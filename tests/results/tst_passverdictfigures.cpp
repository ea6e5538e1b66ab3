// What the figures layer makes of a timed pass's load (figurespassverdict.cpp), over a fixed
// bundle whose loads are set by hand: which verdict each condition gives, the figures it names,
// the mark "§" on every time figure of that server (never on memory), the sentence with what to
// do in every view, and the load's round trip through the bundle's JSON. Nothing is measured.

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "figuremarks.h"
#include "figures.h"
#include "reportmarkdown.h"

#include "servertimebundle.h"

#include <QtTest>

namespace {

const QString kOlder = QStringLiteral("valkey-8.0.1");

// Every timed pass busy 95% of its round trips (server-bound) with a quiet load; then `change`
// applied to the older server's second repeat.
ResultsBundle withLoads(const std::function<void(PassLoad &, RepeatResult &)> &change = {})
{
    ResultsBundle bundle = withServerTimes(0.8, 0.8, 0.8);
    for (size_t server = 0; server < bundle.servers.size(); ++server) {
        setMainThreadBusy(bundle, server, 95);
        for (RepeatResult &repeat : bundle.servers[server].repeats) {
            PassLoad load;
            load.wallUsec = std::llround(repeat.timing.seconds * 1e6);
            load.replayCpuUsec = *load.wallUsec / 2;
            load.replayWaitUsec = 0;
            load.serverWaitUsec = *load.wallUsec / 100;   // 1%
            load.stealUsec = 0;
            load.forks = 0;
            load.forkRunning = 0;
            load.evictedKeys = 0;
            load.foreignClients = 0;
            repeat.timing.load = load;
        }
    }
    if (change)
        change(*bundle.servers[0].repeats[1].timing.load, bundle.servers[0].repeats[1]);
    return bundle;
}

PassVerdict verdictOfOlderRepeat(const Figures &figures, int repeat)
{
    for (const PassVerdict &verdict : figures.passVerdicts()) {
        if (verdict.serverId == kOlder && verdict.repeat == repeat)
            return verdict;
    }
    return {};
}

} // namespace

class TestPassVerdictFigures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdictOfEachCondition_data()
    {
        QTest::addColumn<int>("condition");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("why");
        QTest::newRow("quiet") << 0 << "server-bound" << "the server's main thread was busy 95% of the pass";
        QTest::newRow("server waited") << 1 << "shared" << "another process kept the server's main thread waiting for its CPU 30% of the pass";
        QTest::newRow("replay waited") << 2 << "shared" << "another process kept Versus's replay waiting for its CPU 40% of the pass";
        QTest::newRow("steal") << 3 << "shared" << "the hypervisor took 12% of the server's CPU";
        // What an idle machine shows, one event per pipeline: the replay's wake-ups wait 16% of
        // the pass, the hypervisor takes 6%: no other process competed.
        QTest::newRow("idle wake-ups") << 10 << "server-bound" << "the server's main thread was busy 95% of the pass";
        QTest::newRow("fork") << 4 << "disturbed" << "the server forked 1 time(s) (a BGSAVE or an AOF rewrite)";
        QTest::newRow("evicted") << 5 << "disturbed" << "the server evicted 40 keys";
        QTest::newRow("client") << 6 << "disturbed" << "2 client(s) other than Versus's were connected";
        QTest::newRow("not sent") << 7 << "disturbed" << "the server counted commands Versus did not send (BGSAVE 1)";
        QTest::newRow("idle server") << 8 << "client-bound" << "the server's main thread was busy 40% of the pass, Versus's replay used 50% of a CPU";
        QTest::newRow("not read") << 9 << "unknown" << "its load was not read";
    }
    void verdictOfEachCondition()
    {
        QFETCH(int, condition);
        QFETCH(QString, verdict);
        QFETCH(QString, why);
        const ResultsBundle bundle = withLoads([condition](PassLoad &load, RepeatResult &repeat) {
            const long long wall = *load.wallUsec;
            switch (condition) {
            case 1: load.serverWaitUsec = wall * 30 / 100; break;
            case 2: load.replayWaitUsec = wall * 40 / 100; break;
            case 3: load.stealUsec = wall * 12 / 100; break;
            case 4: load.forks = 1; break;
            case 5: load.evictedKeys = 40; break;
            case 6: load.foreignClients = 2; break;
            case 7: repeat.countedNotSent[QStringLiteral("bgsave")] = 1; break;
            case 8:
                repeat.timing.seconds = double(*repeat.timing.serverTime->mainThreadCpuUsec) / 0.40 / 1e6;
                load.wallUsec = std::llround(repeat.timing.seconds * 1e6);
                load.replayCpuUsec = *load.wallUsec / 2;
                break;
            case 9: repeat.timing.load.reset(); break;
            case 10:
                load.replayWaitUsec = wall * 16 / 100;
                load.stealUsec = wall * 6 / 100;
                break;
            default: break;
            }
        });
        const Figures figures(bundle);
        const PassVerdict found = verdictOfOlderRepeat(figures, 1);
        QCOMPARE(passBoundName(found.bound), verdict);
        QCOMPARE(found.why, why);
        QCOMPARE(verdictOfOlderRepeat(figures, 0).bound, PassBound::ServerBound);
        // Only a pass that was shared, disturbed or client-bound marks the server's time figures.
        const bool marked = verdict != QLatin1String("server-bound") && verdict != QLatin1String("unknown");
        QCOMPARE(!figures.commandTime().at(0, kOlder).bottleneck.isEmpty(), marked);
        QCOMPARE(figures.bottleneckNote().isEmpty(), !marked);
    }

    // The mark on every time figure of the server and none of memory; the sentence beside the
    // time headline (chart caveat, answer caveat), in the tables' Markdown and in report.md.
    void everyViewMarksAndSaysIt()
    {
        const Figures figures(withLoads([](PassLoad &load, RepeatResult &) { load.serverWaitUsec = *load.wallUsec / 4; }));
        const QString note = figures.bottleneckNote();
        QCOMPARE(note, QStringLiteral("§ Valkey 8.0.1's timed pass (repeat 2) was shared: another process kept the server's "
                                      "main thread waiting for its CPU 25% of the pass; its time figures were taken while "
                                      "another process competed for the CPU: close the other program and repeat the run."));
        const Figure &time = figures.commandTime().at(0, kOlder);
        QCOMPARE(time.bottleneck, QStringLiteral("shared (repeat 2)"));
        QCOMPARE(withBottleneckMark(QStringLiteral("0.88"), time), QStringLiteral("0.88 §"));
        QVERIFY(figures.serverTime(Measure::MainThreadCpuPerCall).at(0, kOlder).bottleneck == time.bottleneck);
        QVERIFY(figures.commandTime().at(0, QStringLiteral("valkey-9.1.2")).bottleneck.isEmpty());
        QVERIFY(figures.memory().at(0, kOlder).bottleneck.isEmpty());
        // Beside a time headline, one clause that points to the note.
        const QString brief = QStringLiteral("§ Valkey 8.0.1's timed pass (repeat 2) was shared: see the note marked §.");
        QCOMPARE(figures.bottleneckBrief(), brief);
        QVERIFY(figures.buildCaveat(CaveatOf::Time).contains(brief));
        QVERIFY(!figures.buildCaveat(CaveatOf::Memory).contains(QStringLiteral("§")));
        QVERIFY(figures.answerCaveat().contains(brief));
        const QString markdown = bundleToMarkdown(figures);
        QVERIFY(markdown.contains(QStringLiteral(" §")));
        QVERIFY(markdown.contains(QStringLiteral("was shared")));
        QVERIFY(reportMarkdown(figures, {}).contains(QStringLiteral("was shared")));
    }

    // Several passes of a kind are one sentence: where, what (each different disturbance once,
    // or the worst share another process took) and the advice once.
    void onePerKind()
    {
        ResultsBundle bundle = withLoads([](PassLoad &load, RepeatResult &) { load.forks = 2; });
        bundle.servers[0].repeats[2].timing.load->forks = 1;
        const Figures disturbed(bundle);
        const QString note = disturbed.bottleneckNote();
        QVERIFY2(note.startsWith(QStringLiteral("§ 2 timed passes were disturbed (Valkey 8.0.1: repeats 2 and 3): the server "
                                                "forked 2 time(s) (a BGSAVE or an AOF rewrite); the server forked 1 time(s)")),
                 qPrintable(note));
        QCOMPARE(note.count(QStringLiteral("repeat the run without the other client")), 1);
        QVERIFY2(disturbed.bottleneckBrief().endsWith(QStringLiteral(" timed passes, 2 disturbed: see the note marked §.")),
                 qPrintable(disturbed.bottleneckBrief()));

        ResultsBundle waited = withLoads([](PassLoad &load, RepeatResult &) { load.serverWaitUsec = *load.wallUsec / 4; });
        waited.servers[0].repeats[2].timing.load->serverWaitUsec = *waited.servers[0].repeats[2].timing.load->wallUsec / 2;
        const QString shared = Figures(waited).bottleneckNote();
        QVERIFY2(shared.startsWith(QStringLiteral("§ 2 timed passes were shared (Valkey 8.0.1: repeats 2 and 3): at the most, "
                                                  "in Valkey 8.0.1's repeat 3, another process kept the server's main thread "
                                                  "waiting for its CPU 50% of the pass; their time figures were taken")),
                 qPrintable(shared));
    }

    void loadRoundTripsThroughTheBundle()
    {
        const ResultsBundle bundle = withLoads([](PassLoad &load, RepeatResult &) { load.forks = 3; });
        const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("fixture"));
        QVERIFY(read);
        const std::optional<PassLoad> &load = read->servers[0].repeats[1].timing.load;
        QVERIFY(load);
        QCOMPARE(load->forks, std::optional<long long>(3));
        QCOMPARE(load->serverWaitUsec, bundle.servers[0].repeats[1].timing.load->serverWaitUsec);
        QCOMPARE(Figures(read.value()).bottleneckNote(), Figures(bundle).bottleneckNote());
    }
};

QTEST_GUILESS_MAIN(TestPassVerdictFigures)
#include "tst_passverdictfigures.moc"
