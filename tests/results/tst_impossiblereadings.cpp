// A memory reading no server can show publishes no figure: a pass that wrote keys into an empty
// server and reads a used_memory change of 0 or less, or more than a process can address, leaves
// its figure failed with a note saying what was impossible, in every view and export, for a
// bundle read from disk as for a run; MEMORY STATS parts outside 0 to the whole change leave that
// server's Why unavailable with the reason. From the fixture bundles, with the readings a
// rewriting proxy produced written into them.

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "figures.h"
#include "markdowntable.h"
#include "fixturebundle.h"
#include "memoryexplanation.h"

#include <QtTest>

namespace {

const QString kShrinkingServer = QStringLiteral("valkey-9.1.2");

// The newest server's every combined pass (20,000 keys) read `delta`, and its counter passes
// (6,000 keys) `counterDelta`; read back from JSON, as a bundle from disk is.
ResultsBundle withReadings(long long delta, long long counterDelta)
{
    ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    changeServerRun(bundle, kShrinkingServer, [&](ServerRun &run) {
        for (RepeatResult &repeat : run.repeats) {
            repeat.usedMemoryDelta = delta;
            repeat.byType[QStringLiteral("counter")].usedMemoryDelta = counterDelta;
        }
    });
    const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("impossible.json"));
    if (!read)
        qFatal("%s", qPrintable(read.error()));
    return read.value();
}

} // namespace

class ImpossibleReadingsTest : public QObject {
    Q_OBJECT
private slots:
    void aShrinkingPassHasNoMemoryFigure_data()
    {
        QTest::addColumn<long long>("delta");
        QTest::addColumn<QString>("why");
        QTest::newRow("negative") << -2147483648LL
                                  << QStringLiteral("used_memory grew by −2,147,483,648 bytes for 20,000 keys written: not a possible reading");
        QTest::newRow("zero") << 0LL << QStringLiteral("used_memory grew by 0 bytes for 20,000 keys written: not a possible reading");
        QTest::newRow("past the address space")
            << 9223372036854775807LL
            << QStringLiteral("used_memory grew by 9,223,372,036,854,775,807 bytes for 20,000 keys written: more than a process "
                              "can address (2^57 bytes), not a possible reading");
    }
    void aShrinkingPassHasNoMemoryFigure()
    {
        QFETCH(long long, delta);
        QFETCH(QString, why);
        const Figures figures(withReadings(delta, 786000));
        const FigureTable memory = figures.memory();
        const Figure &total = memory.at(memory.categoryIndex(QStringLiteral("all")), kShrinkingServer);
        QCOMPARE(total.state, FigureState::Failed);
        QCOMPARE(total.note, QStringLiteral("unavailable: ") + why + QStringLiteral(" (in 3 of 3 repeats)"));
        QVERIFY(!total.settled());
        // Its own passes that read possible figures keep them, and so do the other servers.
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("counter")), kShrinkingServer).state, FigureState::Measured);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("counter")), kShrinkingServer).value, 131.0);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("all")), QStringLiteral("valkey-8.1.1")).state, FigureState::Measured);
        // The time figures come from commandstats, not used_memory.
        QCOMPARE(figures.commandTime().at(0, kShrinkingServer).state, FigureState::Measured);
        QVERIFY2(figures.answer().contains(QStringLiteral("No memory figure for Valkey 9.1.2: ") + why + QLatin1Char(' ')),
                 qPrintable(figures.answer()));
        QVERIFY(!figures.explainMemory(QStringLiteral("all")).server(kShrinkingServer));
        // Exports read the same figure: the cell says failed, and a line below the table why
        // (as Markdown text: "used\_memory").
        const QString markdown = bundleToMarkdown(figures);
        QVERIFY2(markdown.contains(QStringLiteral("| All attributes | 241.7 | 231.4 (−4.3%) | failed | 248.9 (+3.0%) |")),
                 qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("\nValkey 9.1.2, All attributes: unavailable: ") + markdownText(why)), qPrintable(markdown));
    }

    // A type's own pass that shrank fails that type's figures (bytes per key, MEMORY USAGE, the
    // reference ratios) and any total over it.
    void aTypesShrinkingPassFailsItsFigures()
    {
        const Figures figures(withReadings(4352000, -6000));
        const FigureTable memory = figures.memory();
        const Figure &counter = memory.at(memory.categoryIndex(QStringLiteral("counter")), kShrinkingServer);
        QCOMPARE(counter.state, FigureState::Failed);
        QCOMPARE(counter.note, QStringLiteral("unavailable: used_memory grew by −6,000 bytes for 6,000 keys written: not a possible "
                                              "reading (in 3 of 3 repeats)"));
        QCOMPARE(figures.memoryUsage().at(memory.categoryIndex(QStringLiteral("counter")), kShrinkingServer).state, FigureState::Failed);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("all")), kShrinkingServer).state, FigureState::Measured);
    }

    // MEMORY STATS integers at 2^63 − 1 (a rewriting proxy) gave Why parts of ±4.6·10^16 bytes per
    // key: the server's Why is unavailable with the reason; the others' stay.
    void absurdMemoryStatsPartsLeaveTheWhyUnavailable_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<long long>("bytes");
        QTest::addColumn<QString>("why");
        QTest::newRow("keys and values at 2^63 - 1")
            << QStringLiteral("dataset.bytes") << 9223372036854775807LL
            << QStringLiteral("MEMORY STATS: the keys and values changed by 294,996,866,783,559.6 bytes per key of 175.4 in all, "
                              "outside 0 to 175.4: not a possible reading");
        QTest::newRow("main table below 0")
            << QStringLiteral("db.overhead.hashtable.main") << -1000000LL
            << QStringLiteral("MEMORY STATS: the main table changed by −32.0 bytes per key of 175.4 in all, outside 0 to "
                              "175.4: not a possible reading");
    }
    void absurdMemoryStatsPartsLeaveTheWhyUnavailable()
    {
        QFETCH(QString, field);
        QFETCH(long long, bytes);
        QFETCH(QString, why);
        ResultsBundle bundle = fixtureBundle("real-why-ecommerce.json");
        changeServerRun(bundle, kShrinkingServer, [&](ServerRun &run) { run.repeats.front().accounting->stats[field] = bytes; });
        const Figures figures(bundle);
        const MemoryExplanation explanation = figures.explainMemory(QStringLiteral("all"));
        const MemoryBreakdown *newest = explanation.server(kShrinkingServer);
        QVERIFY(newest);
        QVERIFY(newest->parts.empty());
        QCOMPARE(newest->unavailable, QStringList{why});
        QVERIFY(!explanation.server(QStringLiteral("valkey-8.0.1"))->parts.empty());
        QVERIFY2(!explanation.sentence.contains(QStringLiteral("Valkey 9.1.2")), qPrintable(explanation.sentence));
        // The figure itself is used_memory's and stands.
        QCOMPARE(figures.memory().at(0, kShrinkingServer).state, FigureState::Measured);
    }
};

QTEST_GUILESS_MAIN(ImpossibleReadingsTest)
#include "tst_impossiblereadings.moc"
