// Where the chart puts things: value axes end at the smallest round value that holds the
// bars and their labels, and bar labels stay inside their own bar's slot (never over the
// neighbouring bar), checked on a real run of the default workload on four servers.
#include "bundlefigures.h"
#include "fixturebundle.h"
#include "chartexporter.h"
#include "chartfile.h"
#include "niceaxis.h"
#include "presetoptions.h"

#include <QFontMetricsF>
#include <QtTest>

namespace {

QString where(const PlacedLabel &label)
{
    return QStringLiteral("\"%1\" (category %2, series %3)").arg(label.text).arg(label.category).arg(label.series);
}

} // namespace

class TestChartLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A wrapped title never leaves its figure alone on the last line: the word before it comes
    // down too. The width is chosen so that only "−6.6%" would not fit on the first line.
    void figureIsNotLeftAloneOnItsLine()
    {
        QFont font;
        font.setPixelSize(20);
        const QString title = QStringLiteral("Memory per stored attribute: 222.8 → 208.0 bytes, −6.6%");
        const QFontMetricsF metrics(font);
        const double width = metrics.horizontalAdvance(QStringLiteral("Memory per stored attribute: 222.8 → 208.0 bytes,")) + 2;
        const QStringList lines = wrappedLines(title, font, width);
        QCOMPARE(lines, (QStringList{QStringLiteral("Memory per stored attribute: 222.8 → 208.0"), QStringLiteral("bytes, −6.6%")}));
        // Room enough for all of it: one line.
        QCOMPARE(wrappedLines(title, font, metrics.horizontalAdvance(title) + 2), QStringList{title});
    }

    void axisEndsAtTheSmallestRoundValue_data()
    {
        QTest::addColumn<double>("needed");
        QTest::addColumn<int>("maxIntervals");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<int>("decimals");
        QTest::newRow("1.84") << 1.84 << 8 << 2.0 << 5 << 1;
        QTest::newRow("754") << 754.0 << 8 << 800.0 << 5 << 0;
        QTest::newRow("1,481") << 1481.0 << 8 << 1500.0 << 7 << 0;
        QTest::newRow("1,640") << 1640.0 << 8 << 1750.0 << 8 << 0;
        QTest::newRow("850 in 10") << 850.0 << 10 << 900.0 << 10 << 0;
        QTest::newRow("850 in 8") << 850.0 << 8 << 1000.0 << 6 << 0;
        QTest::newRow("24.7") << 24.7 << 10 << 25.0 << 6 << 0;
        QTest::newRow("9.6 in 5") << 9.6 << 5 << 10.0 << 6 << 0;
        QTest::newRow("0.37") << 0.37 << 8 << 0.4 << 5 << 1;
        QTest::newRow("0.23") << 0.23 << 8 << 0.25 << 6 << 2;
        QTest::newRow("2 exactly") << 2.0 << 8 << 2.0 << 5 << 1;
        QTest::newRow("15,628") << 15628.0 << 8 << 16000.0 << 9 << 0;
        QTest::newRow("narrow") << 754.0 << 2 << 1000.0 << 3 << 0;
    }
    void axisEndsAtTheSmallestRoundValue()
    {
        QFETCH(double, needed);
        QFETCH(int, maxIntervals);
        QFETCH(double, max);
        QFETCH(int, ticks);
        QFETCH(int, decimals);
        const NiceAxis axis = niceAxis(needed, maxIntervals);
        QCOMPARE(axis.max, max);
        QCOMPARE(axis.tickCount, ticks);
        QCOMPARE(axis.step * (axis.tickCount - 1), axis.max);
        QCOMPARE(axis.decimals, decimals);
    }

    // A title that would need a third line is set smaller before anything is cut: a real run's
    // Why (time) title lost its first figure to the cut ("9.1.2 · clus…2 → 2.20 µs").
    void aLongTitleIsSetSmallerBeforeItIsCut()
    {
        const QString title = QStringLiteral("Where the server's time per command goes, Valkey 8.0.1 (upstream build) · cluster ×3 "
                                             "→ 9.1.2 · cluster ×3: 1.92\u00A0→\u00A02.20\u00A0µs, +14.5% (not resolved)");
        ExportOptions options = presetOptions(QStringLiteral("blog"));
        options.title = title;
        ChartGeometry geometry;
        QVERIFY(renderChart(fixtureBundle("real-ecommerce.json"), ChartKind::MemoryPerAttribute, options, &geometry).ok());
        QCOMPARE(geometry.titleLines.size(), 2);
        QCOMPARE(geometry.titleLines.join(QLatin1Char(' ')), title);
    }

    // A profile's stacked shares add up to 100 (up to the float sum's last bit): its axis ends
    // at 100 at every size, never one step beyond.
    void stackedSharesEndTheAxisAtOneHundred()
    {
        // The samples of a real run's two profiles (upstream 8.0.1 and Debian 9.1.2 as clusters of 3),
        // whose axis ran to 120.
        ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
        QVERIFY(bundle.servers.size() >= 2);
        using C = ProfileCategory;
        bundle.servers[0].profile.samples = {{C::CommandExecution, 59}, {C::HashTable, 86}, {C::Allocation, 41}, {C::Networking, 171},
                                             {C::RequestParsing, 16},  {C::ReplyWriting, 6}, {C::Expiry, 8},     {C::Other, 50}};
        bundle.servers[0].profile.totalSamples = 437;
        bundle.servers[1].profile.samples = {{C::CommandExecution, 42}, {C::HashTable, 58}, {C::Allocation, 53},
                                             {C::Networking, 180},      {C::RequestParsing, 6}, {C::ReplyWriting, 7},
                                             {C::Expiry, 4},            {C::Unnamed, 83},      {C::Other, 53}};
        bundle.servers[1].profile.totalSamples = 486;
        for (ServerRun &run : bundle.servers)
            run.profile.rateHz = 499;
        for (const SizePreset &preset : sizePresets()) {
            ChartGeometry geometry;
            QVERIFY(renderChart(bundle, ChartKind::Profile, presetOptions(preset.name), &geometry).ok());
            QVERIFY2(geometry.data.stacked, qPrintable(preset.name));
            QCOMPARE(geometry.valueAxisMax, 100.0);
        }
    }

    // The dedup bars (753.8 bytes, labelled "753.8  +2.4%") end an axis at 900, no longer
    // 1,000, and the label still fits after its bar. (Slide shows the first types only, without
    // dedup: slideFiguresAreAsLargeAsCategoryNames.)
    void realChartAxisLeavesRoomForLabelsOnly_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("ticks");
        QTest::newRow("blog-tall") << QStringLiteral("blog-tall") << 900.0 << 10;
        QTest::newRow("a4") << QStringLiteral("a4") << 900.0 << 10;
    }
    void realChartAxisLeavesRoomForLabelsOnly()
    {
        QFETCH(QString, preset);
        QFETCH(double, max);
        QFETCH(int, ticks);
        const ResultsBundle bundle = fixtureBundle("real-ecommerce-4-versions.json");
        ChartGeometry geometry;
        QVERIFY(renderChart(bundle, ChartKind::MemoryPerAttribute, presetOptions(preset), &geometry).ok());
        QCOMPARE(geometry.valueAxisMax, max);
        QCOMPARE(geometry.valueAxisTicks, ticks);
        QVERIFY(geometry.barLabelsShown);
        for (const PlacedLabel &label : geometry.labels) {
            QVERIFY2(!label.inside, qPrintable(where(label)));
            QVERIFY2(label.rect.right() <= geometry.plotArea.right() + 1, qPrintable(where(label)));
        }
    }

    // At the slide preset, seen across a room, a bar's figure is never smaller than the category
    // name beside it: the chart shows fewer categories, the total and the first types in the
    // order, and says so under the plot. Both the memory chart (4 servers × 11 types and the
    // total) and the time chart of a real run.
    void slideFiguresAreAsLargeAsCategoryNames_data()
    {
        QTest::addColumn<ChartKind>("kind");
        QTest::newRow("memory") << ChartKind::MemoryPerAttribute;
        QTest::newRow("usec-per-command") << ChartKind::UsecPerCommand;
    }
    void slideFiguresAreAsLargeAsCategoryNames()
    {
        QFETCH(ChartKind, kind);
        const ResultsBundle bundle = fixtureBundle("real-ecommerce-4-versions.json");
        const ExportOptions options = presetOptions(QStringLiteral("slide"));
        const ChartData all = buildChartData(bundle, kind);
        const auto typesOf = [](const ChartData &data) {
            return int(std::count_if(data.categoryKinds.begin(), data.categoryKinds.end(),
                                     [](CategoryKind k) { return !coversOthers(k); }));
        };
        ChartGeometry geometry;
        QVERIFY(renderChart(bundle, kind, options, &geometry).ok());
        QVERIFY(geometry.barLabelsShown);
        QVERIFY2(geometry.labelPx >= geometry.categoryPx,
                 qPrintable(QStringLiteral("figures %1 px beside %2 px names").arg(geometry.labelPx).arg(geometry.categoryPx)));
        for (const PlacedLabel &label : geometry.labels)
            QVERIFY2(label.marker || label.font.pixelSize() >= geometry.categoryPx, qPrintable(where(label)));
        const int shown = typesOf(geometry.data);
        QVERIFY2(shown >= 1 && shown < typesOf(all), qPrintable(geometry.data.categories.join(QStringLiteral(", "))));
        const QString said = QStringLiteral("Showing %1 of %2 categories; totals cover all of them.").arg(shown).arg(typesOf(all));
        QVERIFY2(geometry.footnoteLines.contains(said), qPrintable(geometry.footnoteLines.join(QLatin1Char('\n'))));
        // The others keep their figures at every preset not meant for a room.
        QVERIFY(!meantForARoom(presetOptions(QStringLiteral("blog-tall")).size));
    }

    // 4 servers × 11 types (and the total): every label's box and the ink of its glyphs stay
    // off every other bar, at every preset that has labels, and at blog with three types.
    void labelsStayInTheirBarsSlot_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("top");
        for (const SizePreset &preset : sizePresets())
            QTest::newRow(qPrintable(preset.name)) << preset.name << 0;
        QTest::newRow("blog, top 3") << QStringLiteral("blog") << 3;
    }
    void labelsStayInTheirBarsSlot()
    {
        QFETCH(QString, preset);
        QFETCH(int, top);
        const ResultsBundle bundle = fixtureBundle("real-ecommerce-4-versions.json");
        QCOMPARE(bundle.servers.size(), size_t(4));
        QCOMPARE(bundle.workload.types.size(), 11);
        for (ChartKind kind : {ChartKind::MemoryPerAttribute, ChartKind::UsecPerCommand}) {
            ExportOptions options = presetOptions(preset);
            options.topCategories = top;
            ChartGeometry geometry;
            QVERIFY(renderChart(bundle, kind, options, &geometry).ok());
            // At blog and social all 12 memory categories are too thin for 11 px labels.
            const bool crowded = top == 0 && (preset == QLatin1String("blog") || preset == QLatin1String("social"));
            QCOMPARE(geometry.barLabelsShown, !crowded);
            if (crowded)
                continue;
            QCOMPARE(int(geometry.labels.size()), int(geometry.data.categories.size() * geometry.data.series.size()));
            for (const PlacedLabel &label : geometry.labels) {
                const QFontMetricsF metrics(label.font);
                const double baseline = label.rect.center().y() - metrics.height() / 2 + metrics.ascent();
                const QRectF ink = metrics.tightBoundingRect(label.text).translated(label.rect.left(), baseline);
                QVERIFY2(label.rect.adjusted(-0.5, -0.5, 0.5, 0.5).contains(QRectF(label.rect.left(), ink.top(), 1, ink.height())),
                         qPrintable(where(label)));
                for (int s = 0; s < int(geometry.bars.size()); ++s) {
                    for (int c = 0; c < int(geometry.bars[size_t(s)].size()); ++c) {
                        if (s == label.series && c == label.category)
                            continue;
                        // Neighbouring bars share an edge, up to rounding in QtCharts' mapping.
                        const QRectF bar = geometry.bars[size_t(s)][size_t(c)].adjusted(0, 0.01, 0, -0.01);
                        QVERIFY2(!label.rect.intersects(bar), qPrintable(where(label) + QStringLiteral(" / bar %1,%2").arg(c).arg(s)));
                        QVERIFY2(!ink.intersects(bar), qPrintable(where(label) + QStringLiteral(" ink / bar %1,%2").arg(c).arg(s)));
                    }
                }
            }
        }
    }
};

QTEST_MAIN(TestChartLayout)
#include "tst_chartlayout.moc"
