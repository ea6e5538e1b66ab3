// A pass that lost data to maxmemory publishes no memory figure: keys the server evicted, or
// writes it refused as out of memory, leave the pass's memory figure (and, for refused writes,
// its time figure) failed with the reason, the server's verdict "lost data", the data check
// naming it, and the answer saying why it has no memory figure. Read from the fixture bundle of
// four versions, with the losses a maxmemory server reported written into it.

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "memoryexplanation.h"
#include "figures.h"
#include "fixturebundle.h"

#include <QtTest>

namespace {

const QString kNewest = QStringLiteral("valkey-9.1.2");

// `serverId`'s every repeat lost `combined` in its timed pass and `counter` in counter's own pass,
// on a server set to 4 MB with allkeys-lru.
ResultsBundle withLoss(DataLoss combined, DataLoss counter, const QString &policy = QStringLiteral("allkeys-lru"))
{
    ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    changeServerRun(bundle, kNewest, [&](ServerRun &run) {
        run.config[QStringLiteral("maxmemory")] = QStringLiteral("4194304");
        run.config[QStringLiteral("maxmemory-policy")] = policy;
        for (RepeatResult &repeat : run.repeats) {
            repeat.loss = combined;
            repeat.byType[QStringLiteral("counter")].loss = counter;
        }
    });
    return bundle;
}

} // namespace

class DataLossTest : public QObject {
    Q_OBJECT
private slots:
    void evictedKeysLeaveTheMemoryFiguresOfTheirPassesUnavailable()
    {
        const Figures figures(withLoss(DataLoss{14203, 0}, DataLoss{120, 0}));
        const FigureTable memory = figures.memory();
        const Figure &total = memory.at(memory.categoryIndex(QStringLiteral("all")), kNewest);
        QCOMPARE(total.state, FigureState::Failed);
        QCOMPARE(total.note, QStringLiteral("unavailable: the server evicted 42,609 keys during the pass in 3 of 3 repeats "
                                            "(maxmemory 4mb, allkeys-lru)"));
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("counter")), kNewest).note,
                 QStringLiteral("unavailable: the server evicted 360 keys during the pass in 3 of 3 repeats (maxmemory 4mb, allkeys-lru)"));
        // A pass that lost nothing keeps its figure, and so do the other servers.
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("sum")), kNewest).state, FigureState::Measured);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("all")), QStringLiteral("valkey-8.1.1")).state, FigureState::Measured);
        QCOMPARE(figures.memoryUsage().at(memory.categoryIndex(QStringLiteral("counter")), kNewest).state, FigureState::Failed);
        // The keys left are a count, not a memory figure; evictions cost the server time of its own,
        // but the commands ran: the time figures stand.
        QCOMPARE(figures.keys().at(0, kNewest).state, FigureState::Measured);
        QCOMPARE(figures.commandTime().at(0, kNewest).state, FigureState::Measured);

        const ServerSummary &summary = figures.summary(kNewest);
        QCOMPARE(summary.verdict, ServerVerdict::LostData);
        QCOMPARE(summary.statusText(), QStringLiteral("lost data: evicted 42,969 keys (maxmemory 4mb, allkeys-lru)"));
        QVERIFY(figures.dataProblems().contains(
            QStringLiteral("valkey-9.1.2 lost data: evicted 42,969 keys (maxmemory 4mb, allkeys-lru)")));
        // The answer compares no memory with it, says why, and keeps the time it can compare.
        QCOMPARE(figures.answer(), QStringLiteral("Valkey 9.1.2 spends 26.7% less time inside its commands than Valkey 8.0.1. "
                                                  "No memory figure for Valkey 9.1.2: it evicted 42,969 keys (maxmemory 4mb, "
                                                  "allkeys-lru)."));
        QVERIFY(!figures.explainMemory(QStringLiteral("all")).server(kNewest));
        const QString markdown = bundleToMarkdown(figures);
        QVERIFY2(markdown.contains(QStringLiteral("- Valkey 9.1.2: lost data: evicted 42,969 keys (maxmemory 4mb, allkeys-lru)")),
                 qPrintable(markdown));
    }

    // noeviction: the writes the server refused were never stored nor timed as the other servers'
    // were, so the pass's time figures are unavailable too.
    void refusedWritesLeaveMemoryAndTimeUnavailable()
    {
        const Figures figures(withLoss(DataLoss{0, 79985}, DataLoss{}, QStringLiteral("noeviction")));
        const FigureTable memory = figures.memory();
        QCOMPARE(memory.at(0, kNewest).state, FigureState::Failed);
        QCOMPARE(memory.at(0, kNewest).note, QStringLiteral("unavailable: the server refused 239,955 writes as out of memory "
                                                            "during the pass in 3 of 3 repeats (maxmemory 4mb, noeviction)"));
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("counter")), kNewest).state, FigureState::Measured);
        const FigureTable times = figures.commandTime();
        QCOMPARE(times.at(0, kNewest).state, FigureState::Failed);
        QCOMPARE(times.at(0, kNewest).note, memory.at(0, kNewest).note);
        QCOMPARE(figures.perEvent().at(0, kNewest).state, FigureState::Failed);
        QCOMPARE(figures.summary(kNewest).statusText(),
                 QStringLiteral("lost data: refused 239,955 writes as out of memory (maxmemory 4mb, noeviction)"));
        // The newest version has neither figure to compare: the answer says why, and quotes no older
        // version's change as if it were the newest's.
        QCOMPARE(figures.answer(), QStringLiteral("No memory figure for Valkey 9.1.2: it refused 239,955 writes as out of memory "
                                                  "(maxmemory 4mb, noeviction)."));
        QCOMPARE(figures.noiseNote(), QString());
    }

    // A limit with an LRU policy changes the bytes even when nothing was evicted: said beside the
    // headline, for the figures of the passes that lost nothing.
    void aLimitWithoutEvictionsIsACaveat()
    {
        const Figures kept(withLoss(DataLoss{}, DataLoss{}));
        QCOMPARE(kept.summary(kNewest).verdict, ServerVerdict::Completed);
        QCOMPARE(kept.limitsCaveat(), QStringLiteral("Valkey 9.1.2 ran with maxmemory 4mb, allkeys-lru: under an LRU or LFU policy "
                                                     "a server shares no small integers, so each takes an object of its own and the "
                                                     "memory figures are not those without a limit."));
        QVERIFY(kept.buildCaveat().contains(kept.limitsCaveat()));
        // Servers with the same limit are named in one sentence.
        ResultsBundle two = withLoss(DataLoss{}, DataLoss{});
        changeServerRun(two, QStringLiteral("valkey-8.1.1"),
                        [&](ServerRun &run) { run.config = two.server(kNewest)->config; });
        QVERIFY(Figures(two).limitsCaveat().startsWith(
            QStringLiteral("Valkey 8.1.1 and Valkey 9.1.2 ran with maxmemory 4mb, allkeys-lru: under an LRU")));
        QCOMPARE(Figures(two).limitsCaveat().count(QStringLiteral("small integers")), 1);
        QCOMPARE(Figures(withLoss(DataLoss{}, DataLoss{}, QStringLiteral("noeviction"))).limitsCaveat(), QString());
        QCOMPARE(Figures(withLoss(DataLoss{5, 0}, DataLoss{})).limitsCaveat(), kept.limitsCaveat());
    }

    void theLossIsKeptInTheBundleAndCheckedOnReading()
    {
        const ResultsBundle bundle = withLoss(DataLoss{14203, 0}, DataLoss{0, 7});
        const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("loss.json"));
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        const RepeatResult &repeat = read->server(kNewest)->repeats.front();
        QCOMPARE(repeat.loss.evictedKeys, 14203LL);
        QCOMPARE(repeat.loss.refusedWrites, 0LL);
        QCOMPARE(repeat.byType.at(QStringLiteral("counter")).loss.refusedWrites, 7LL);

        QByteArray hostile = bundleToJson(bundle);
        hostile.replace("\"evicted_keys\": 14203", "\"evicted_keys\": -1");
        const Outcome<ResultsBundle> negative = bundleFromJson(hostile, QStringLiteral("loss.json"));
        QVERIFY(!negative);
        QVERIFY2(negative.error().contains(QStringLiteral("evicted_keys")) && negative.error().contains(QStringLiteral("below 0")),
                 qPrintable(negative.error()));
        hostile = bundleToJson(bundle);
        hostile.replace("\"refused_out_of_memory\": 7", "\"refused_out_of_memory\": 2.5");
        QVERIFY(!bundleFromJson(hostile, QStringLiteral("loss.json")));
    }
};

QTEST_GUILESS_MAIN(DataLossTest)
#include "tst_dataloss.moc"
