// The hash-ttl study's answer and what stands beside it, from the figures layer: with Redis 8.0
// in a Valkey run the answer quotes Valkey 9.1.2 (the newest of the baseline's product), and the
// Why line of the CLI and report.md must explain that server, not Redis 8.0.2 (issue 45, item 3);
// the summary figures of every server (the Table tab's) carry the answer's figures, set-ex's
// bytes per key and hsetex's multiple of them, where they read "–" (item 4).

#include "bundlemarkdown.h"
#include "figures.h"
#include "fixturebundle.h"
#include "reportmarkdown.h"
#include "summaryfigures.h"
#include "whymarkdown.h"

#include <QtTest>

namespace {

// The report's "## Why the memory differs" section.
QString whySection(const QString &report)
{
    const qsizetype start = report.indexOf(QLatin1String("## Why the memory differs"));
    return start < 0 ? QString() : report.mid(start, report.indexOf(QLatin1String("\n## "), start + 1) - start);
}

} // namespace

class HashTtlAnswerTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theWhyExplainsTheServerTheAnswerNames()
    {
        const Figures figures(hashTtlBundleWithRedis());
        QVERIFY2(figures.answer().startsWith(QStringLiteral("On Valkey 9.1.2, hsetex takes ")), qPrintable(figures.answer()));
        // The CLI's "Why:" line.
        const QString why = whySummary(figures);
        QVERIFY2(why.startsWith(QStringLiteral("On Valkey 9.1.2, of the ")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral(" a hsetex key takes beyond a set-ex key")), qPrintable(why));
        QVERIFY2(!why.contains(QStringLiteral("Redis 8.0.2")), qPrintable(why));
        // report.md's Why section: its sentences (not its table, nor its notes of each server's
        // allocator correction, which list every server).
        const QString section = whySection(reportMarkdown(figures, {}, CategoryOrder(0)));
        QVERIFY2(section.contains(QStringLiteral("On Valkey 9.1.2, of the ")), qPrintable(section));
        QVERIFY2(!section.contains(QStringLiteral("On Redis 8.0.2, ")), qPrintable(section));
    }

    // Each server's summary figures: the memory figure the answer stands on and the ratio.
    void theSummaryFiguresCarryTheAnswers()
    {
        const Figures figures(fixtureBundle("real-hash-ttl.json"));
        const FigureTable memory = figures.memory();
        const FigureTable ratios = figures.referenceRatios();
        const QString newer = QStringLiteral("valkey-9.1.2");
        const QString older = QStringLiteral("valkey-8.0.1");
        const SummaryFigures summary = summaryFigures(figures);
        QCOMPARE(summary.memoryLabel, QStringLiteral("set-ex"));
        QCOMPARE(summary.ratioLabel, QStringLiteral("hsetex"));
        QCOMPARE(summary.memory(newer).value, memory.at(memory.categoryIndex(QStringLiteral("set-ex")), newer).value);
        QCOMPARE(summary.memory(newer).state, FigureState::Measured);
        QCOMPARE(summary.ratio(newer).value, ratios.at(ratios.categoryIndex(QStringLiteral("hsetex")), newer).value);
        QCOMPARE(summary.memory(older).state, FigureState::Measured);
        QCOMPARE(summary.ratio(older).state, FigureState::Unsupported);
        // µs per command: set-ex's too (SET, the one command only set-ex sends), where the
        // patterns have no total.
        const FigureTable times = figures.commandTime();
        QVERIFY(!times.leadsWithHeadlineCategory());
        QCOMPARE(summary.timeLabel, QStringLiteral("SET"));
        QCOMPARE(summary.usecPerCommand(newer).value, times.at(times.categoryIndex(QStringLiteral("set")), newer).value);
        QCOMPARE(summary.usecPerCommand(older).state, FigureState::Measured);
    }

    void aWorkloadWithATotalLeadsWithIt()
    {
        const Figures figures(fixtureBundle("real-ecommerce.json"));
        const SummaryFigures summary = summaryFigures(figures);
        QCOMPARE(summary.memoryLabel, QString());
        QCOMPARE(summary.ratioLabel, QString());
        const FigureTable memory = figures.memory();
        QCOMPARE(summary.memory(QStringLiteral("valkey-9.1.2")).value, memory.at(0, QStringLiteral("valkey-9.1.2")).value);
        QCOMPARE(summary.ratio(QStringLiteral("valkey-9.1.2")).state, FigureState::Absent);
    }
};

QTEST_GUILESS_MAIN(HashTtlAnswerTest)
#include "tst_hashttlanswer.moc"
