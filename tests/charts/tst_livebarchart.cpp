#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlejson.h"
#include "chartwidget.h"
#include "livebarchart.h"

#include <QBarSet>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QHorizontalBarSeries>
#include <QValueAxis>
#include <QtTest>

namespace {

// The bundle as it looks `step` probes into a run: figures growing towards the final ones.
ResultsBundle growing(const ResultsBundle &final, int step)
{
    ResultsBundle bundle = final;
    const double share = 0.2 + 0.8 * step / 300.0;
    for (ServerRun &run : bundle.servers) {
        for (RepeatResult &repeat : run.repeats) {
            repeat.usedMemoryDelta = std::llround(double(repeat.usedMemoryDelta) * share);
            for (auto &entry : repeat.byType)
                entry.second.usedMemoryDelta = std::llround(double(entry.second.usedMemoryDelta) * share);
        }
    }
    return bundle;
}

// The bundle as it looks while every server replays its first repeat: the combined pass's total
// is read, no type is measured yet.
ResultsBundle beforeTheTypes(const ResultsBundle &final)
{
    ResultsBundle bundle = final;
    bundle.running = true;
    bundle.complete = false;
    for (ServerRun &run : bundle.servers) {
        run.status = RunStatus::Incomplete;
        run.repeats.resize(1);
        run.repeats.front().status = RepeatStatus::Incomplete;
        run.repeats.front().byType.clear();
    }
    return bundle;
}

} // namespace

class TestLiveBarChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void updatesInPlaceAndShowTheLatest()
    {
        QGraphicsScene scene;
        auto *chart = new LiveBarChart(ChartKind::MemoryPerAttribute);
        scene.addItem(chart);
        chart->setGeometry(QRectF(0, 0, 1000, 700));
        const ResultsBundle final = fixtureBundle("ecommerce-4-versions.json");

        QSignalSpy applied(chart, &LiveBarChart::applied);
        chart->setFigures(Figures(growing(final, 0)));
        // Laid out in an event of its own, on the next turn of the event loop: not inside the
        // caller's, and with no timer of its own (the run controller coalesces).
        QCOMPARE(applied.size(), 0);
        QVERIFY(chart->hasPending());
        QCoreApplication::processEvents();
        QCOMPARE(applied.size(), 1);
        QCOMPARE(chart->rebuildCount(), 1);
        const int items = scene.items().size();
        const int sets = chart->barSeries()->barSets().size();
        QCOMPARE(sets, 4);
        const QList<QBarSet *> setObjects = chart->barSeries()->barSets();

        // 300 updates, a burst of ten in each turn of the event loop: each burst is laid out
        // once, in the turn after it.
        for (int step = 1; step <= 300; ++step) {
            chart->setFigures(Figures(growing(final, step)));
            if (step % 10 == 0) {
                QCoreApplication::processEvents();
                QVERIFY(!chart->hasPending());
            }
        }
        QCOMPARE(applied.size(), 31);
        QCOMPARE(chart->rebuildCount(), 1);
        // QtCharts lays out the axes in events of their own; let them run before counting.
        QTest::qWait(50);
        // While the axis grows it gains tick labels; beyond those, updates add no items.
        QVERIFY2(scene.items().size() < items * 3, qPrintable(QString::number(scene.items().size())));
        const int grown = scene.items().size();
        for (int step = 1; step <= 300; ++step) {
            chart->setFigures(Figures(growing(final, step % 2 ? 290 : 300)));
            if (step % 10 == 0) {
                QCoreApplication::processEvents();
                QVERIFY(!chart->hasPending());
            }
        }
        QCOMPARE(applied.size(), 61);
        QTest::qWait(50);
        QCOMPARE(scene.items().size(), grown);
        QCOMPARE(chart->rebuildCount(), 1);
        QCOMPARE(chart->barSeries()->barSets(), setObjects);
        QCOMPARE(chart->findChildren<QBarSet *>().size(), sets);

        // The values shown are the latest: valkey-9.1.2's "All attributes" is 217.6.
        const ChartData &shown = chart->data();
        QCOMPARE(shown.series[2].serverId, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(shown.series[2].bars[0].value, 217.6);
        // Sets are added newest first and categories bottom up (see BarChart).
        QBarSet *valkey912 = chart->barSeries()->barSets().at(1);
        QCOMPARE(valkey912->at(shown.categories.size() - 1), 217.6);
        // The axis grew with the data to a round maximum beyond the largest bar.
        const double largest = shown.largestExtent();
        QVERIFY(chart->valueAxis()->max() >= largest);
        const double max = chart->valueAxis()->max();
        const double step = max / (chart->valueAxis()->tickCount() - 1);
        const double magnitude = std::pow(10.0, std::floor(std::log10(step)));
        const double mantissa = step / magnitude;
        QVERIFY2(qFuzzyCompare(mantissa, 1.0) || qFuzzyCompare(mantissa, 2.0) || qFuzzyCompare(mantissa, 2.5)
                     || qFuzzyCompare(mantissa, 5.0),
                 qPrintable(QString::number(step)));
    }

    // Options and data changed in one turn are laid out once; flush() lays out at once and
    // leaves nothing for the turn after.
    void oneTurnOneLayout()
    {
        QGraphicsScene scene;
        auto *chart = new LiveBarChart(ChartKind::MemoryPerAttribute);
        scene.addItem(chart);
        chart->setGeometry(QRectF(0, 0, 800, 500));
        QSignalSpy applied(chart, &LiveBarChart::applied);
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        Figures::Options hidden;
        hidden.hiddenServers = {bundle.servers.front().id};
        chart->setFigures(Figures(bundle, hidden));
        ChartDataOptions options;
        options.topCategories = 2;
        chart->setDataOptions(options);
        QCoreApplication::processEvents();
        QCOMPARE(applied.size(), 1);
        QCOMPARE(chart->barSeries()->barSets().size(), 3);

        chart->setFigures(Figures(growing(bundle, 100), hidden));
        chart->flush();
        QCOMPARE(applied.size(), 2);
        QVERIFY(!chart->hasPending());
        QCoreApplication::processEvents();
        QCOMPARE(applied.size(), 2);
    }

    void newShapeRebuilds()
    {
        QGraphicsScene scene;
        auto *chart = new LiveBarChart(ChartKind::MemoryPerAttribute);
        scene.addItem(chart);
        chart->setGeometry(QRectF(0, 0, 800, 500));
        ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        chart->setFigures(Figures(bundle));
        chart->flush();
        QCOMPARE(chart->rebuildCount(), 1);
        bundle.servers.pop_back();
        chart->setFigures(Figures(bundle));
        chart->flush();
        QCOMPARE(chart->rebuildCount(), 2);
        QCOMPARE(chart->barSeries()->barSets().size(), 3);
        QCOMPARE(chart->findChildren<QBarSet *>().size(), 3);
    }

    // Laying a chart out is the window's costliest work: a chart on a tab that is not shown
    // must not redraw for every result, and must show the latest ones once it is shown.
    // A figure not measured yet in a run still going is "pending", not "n/a" (which reads as "does
    // not apply"); servers sharing a marker line say it once.
    void figuresNotMeasuredYetArePending()
    {
        const ResultsBundle live = beforeTheTypes(fixtureBundle("real-ecommerce.json"));
        const ChartData data = buildChartData(live, ChartKind::MemoryPerAttribute);
        QCOMPARE(data.categories.front(), QStringLiteral("All attributes"));
        QCOMPARE(data.series.size(), size_t(2));
        for (const ChartSeries &series : data.series) {
            QCOMPARE(figureStateName(series.bars[0].state), QStringLiteral("provisional"));   // the total, read
            QCOMPARE(figureStateName(series.bars[1].state), QStringLiteral("pending"));
            QCOMPARE(series.bars[1].label, QStringLiteral("pending"));
        }
        QGraphicsScene scene;
        auto *chart = new BarChart;
        scene.addItem(chart);
        chart->setData(data);
        chart->setGeometry(QRectF(0, 0, 500, 300));   // too small for a marker line per server
        chart->layout()->activate();
        QStringList markers;
        for (const PlacedLabel &label : chart->placedLabels()) {
            if (label.marker && label.category == 1)
                markers << label.text;
        }
        QCOMPARE(markers, QStringList{QStringLiteral("pending")});

        // Once the run stopped, a figure it never measured has none: "n/a" again, never a zero.
        ResultsBundle stopped = live;
        stopped.running = false;
        const ChartData after = buildChartData(stopped, ChartKind::MemoryPerAttribute);
        QCOMPARE(figureStateName(after.series.front().bars[1].state), QStringLiteral("absent"));
        QCOMPARE(after.series.front().bars[1].label, QStringLiteral("n/a"));
    }

    void hiddenChartWaitsUntilShown()
    {
        ChartWidget widget(ChartKind::MemoryPerAttribute);
        widget.resize(900, 600);
        QSignalSpy applied(&widget, &ChartWidget::applied);
        const ResultsBundle final = fixtureBundle("ecommerce-4-versions.json");
        // A shown chart lays a bundle out in the next turn of the event loop (posted, no timer):
        // a few turns are the proof that a hidden one does not.
        for (int step = 0; step <= 300; step += 30) {
            widget.setFigures(Figures(growing(final, step)));
            QTest::qWait(20);
        }
        QCOMPARE(applied.size(), 0);
        QCOMPARE(widget.barSetCount(), 0);

        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        QCOMPARE(applied.size(), 1);
        QCOMPARE(widget.barSetCount(), 4);
        QCOMPARE(widget.seriesNames().at(2), QStringLiteral("Valkey 9.1.2"));
        QCOMPARE(widget.barValue(2, 0), 217.6);

        // Shown, it follows the results as they come.
        widget.setFigures(Figures(growing(final, 150)));
        QVERIFY(applied.wait(2000));
        // growing() scales every figure to 0.2 + 0.8 × 150 / 300 = 0.6 of the final one.
        QVERIFY2(qFuzzyCompare(widget.barValue(2, 0), 217.6 * 0.6), qPrintable(QString::number(widget.barValue(2, 0))));

        // Hidden again, it stops; flush() still applies on demand.
        widget.hide();
        widget.setFigures(Figures(final));
        QTest::qWait(20);
        QCOMPARE(applied.size(), 2);
        widget.flush();
        QCOMPARE(applied.size(), 3);
        QCOMPARE(widget.barValue(2, 0), 217.6);
    }
};

QTEST_MAIN(TestLiveBarChart)
#include "tst_livebarchart.moc"
