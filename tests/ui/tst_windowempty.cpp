// The window before any results, and its tabs as results come and go: an empty chart says why
// it is empty instead of drawing an axis from 0 to 1.0 with an "All attributes" row no run
// measured, and the same tabs stay, each saying what fills it (the Cost of cluster mode tab
// showed in an empty window and went away after a standalone run).
#include "fixturebundle.h"
#include "chartwidget.h"
#include "figureviews.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "sweepchartwidget.h"
#include "whyview.h"
#include "workloadpanel.h"

#include <QSettings>
#include <QTabWidget>
#include <QtTest>

namespace {

QStringList shownTabTitles(const QTabWidget *tabs)
{
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->isTabVisible(i))
            titles << tabs->tabText(i);
    }
    return titles;
}

// Every view's tab in the table's order (figureviews.h; the memory Why's "Why" just before
// "Why (time)"), then the window's own tabs.
QStringList everyTabOf()
{
    QStringList titles;
    for (const FigureView &view : figureViews())
        titles << view.tabTitle;
    return titles + QStringList{QStringLiteral("Table"), QStringLiteral("Encodings"), QStringLiteral("Sweep"),
                                QStringLiteral("Configuration"), QStringLiteral("Logs")};
}
const QStringList everyTab = everyTabOf();

} // namespace

class WindowEmptyTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void emptyWindowDrawsNoChart_data();
    void emptyWindowDrawsNoChart();
    void tabsStayWhenResultsComeAndGo();
};

void WindowEmptyTest::init()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowempty"));
    QSettings().clear();
}

void WindowEmptyTest::emptyWindowDrawsNoChart_data()
{
    QTest::addColumn<QString>("workload");
    QTest::newRow("ecommerce") << QStringLiteral("ecommerce");
    QTest::newRow("hash-ttl") << QStringLiteral("hash-ttl");
}

void WindowEmptyTest::emptyWindowDrawsNoChart()
{
    QFETCH(QString, workload);
    MainWindow window;
    window.workloadPanel()->choose(workload);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ResultsView *results = window.resultsView();
    for (ChartKind kind : everyChartKind()) {
        results->showChart(kind);
        QCOMPARE(results->currentChartKind(), kind);
        // The view drawn as parts is the Why tab; it too says why it is empty.
        if (!figureView(kind).drawnAsBars()) {
            QVERIFY(results->chart(kind) == nullptr);
            results->whyView()->flush();
            QCOMPARE(results->whyView()->emptyText(),
                     QStringLiteral("No results yet: where each key's bytes go appears here when a run has measured memory."));
            continue;
        }
        ChartWidget *chart = results->chart(kind);
        chart->flush();
        QVERIFY2(chart->categories().isEmpty(), qPrintable(chart->categories().join(QLatin1Char(','))));
        QCOMPARE(chart->barSetCount(), 0);
        QVERIFY(!chart->axesShown());
        QCOMPARE(chart->emptyText(), QStringLiteral("No results yet: the bars appear here as a run measures them."));
    }
    results->showSweep();
    QCOMPARE(results->sweepView()->emptyText(),
             QStringLiteral("No sweep in these results: a sweep runs hash-ttl at several values of one parameter "
                            "(its Sweep field, e.g. value-size=16,64,256) and shows each figure against it here."));
}

void WindowEmptyTest::tabsStayWhenResultsComeAndGo()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    QVERIFY(tabs);
    QCOMPARE(shownTabTitles(tabs), everyTab);
    ChartWidget *cost = window.resultsView()->chart(ChartKind::ClusterOverhead);
    SweepChartWidget *sweep = window.resultsView()->sweepView();

    // A standalone run: no cluster to cost, no sweep; both tabs stay and say so.
    window.showResults(fixtureBundle("real-ecommerce.json"), QStringLiteral("ecommerce.json"));
    QCOMPARE(shownTabTitles(tabs), everyTab);
    cost->flush();
    QCOMPARE(cost->barSetCount(), 0);
    QCOMPARE(cost->emptyText(), QStringLiteral("No version ran both standalone and as a cluster: run with the "
                                               "topology standalone,cluster:1 to see what cluster mode costs."));
    QVERIFY(cost->footnotes().isEmpty());   // the memory table's notes are about rows it does not have
    QVERIFY(!sweep->emptyText().isEmpty());

    // A version run both ways: the cost has bars.
    window.showResults(fixtureBundle("real-cluster-hash-ttl.json"), QStringLiteral("cluster.json"));
    QCOMPARE(shownTabTitles(tabs), everyTab);
    window.resultsView()->showChart(ChartKind::ClusterOverhead);
    cost->flush();
    QVERIFY(cost->barSetCount() > 0);
    QVERIFY(cost->axesShown());
    QCOMPARE(cost->emptyText(), QString());

    // A sweep: its chart has lines.
    window.showResults(fixtureBundle("real-hash-ttl-sweep.json"), QStringLiteral("sweep.json"));
    QCOMPARE(shownTabTitles(tabs), everyTab);
    QCOMPARE(sweep->emptyText(), QString());
    QVERIFY(!sweep->lineLabels().isEmpty());
}

QTEST_MAIN(WindowEmptyTest)
#include "tst_windowempty.moc"
