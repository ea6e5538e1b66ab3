// One Figures per update: a live update that reaches the window through the run controller's
// signal builds the figures once, and every tab, the headline and Copy read that one, sharing
// the controller's snapshot instead of a copy of the bundle each.
#include "fixturebundle.h"
#include "chartwidget.h"
#include "encodingsview.h"
#include "figures.h"
#include "mainwindow.h"
#include "resultstablemodel.h"
#include "resultsview.h"
#include "runcontroller.h"
#include "whyview.h"

#include <QSettings>
#include <algorithm>
#include <QtTest>

namespace {

// The fixture as a live snapshot while the run goes on: every server has finished `repeats` of
// its repeats.
BundleSnapshot liveSnapshotOf(const ResultsBundle &final, int repeats)
{
    ResultsBundle bundle = final;
    bundle.running = true;
    bundle.complete = false;
    for (ServerRun &run : bundle.servers) {
        run.status = RunStatus::Incomplete;
        run.repeats.resize(size_t(std::min<int>(repeats, int(run.repeats.size()))));
    }
    return std::make_shared<const ResultsBundle>(std::move(bundle));
}

// Everything the window posts for a later turn (chart layouts, the Why tab) is done.
void settle(MainWindow &window)
{
    for (int turn = 0; turn < 5; ++turn)
        QCoreApplication::processEvents();
    window.resultsView()->flushCharts();
}

// A window of the test's own, its settings empty.
void startWithEmptySettings()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_onefigures"));
    QSettings().clear();
}

// The window at a size with room for every tab, on screen.
bool shownOnScreen(MainWindow &window)
{
    window.resize(1400, 900);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

} // namespace

class OneFiguresTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void liveUpdateBuildsFiguresOnce_data();
    void liveUpdateBuildsFiguresOnce();
    void runEndBuildsNoSecondFigures();
};

void OneFiguresTest::liveUpdateBuildsFiguresOnce_data()
{
    QTest::addColumn<QString>("tab");
    QTest::newRow("memory chart") << QStringLiteral("memory-per-attribute");
    QTest::newRow("table") << QStringLiteral("resultsTable");
    QTest::newRow("why") << QStringLiteral("why");
}

void OneFiguresTest::liveUpdateBuildsFiguresOnce()
{
    QFETCH(QString, tab);
    startWithEmptySettings();
    MainWindow window;
    QVERIFY(shownOnScreen(window));
    ResultsView *view = window.resultsView();
    auto *tabs = view->findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    QVERIFY(tabs);
    QWidget *shown = view->findChild<ChartWidget *>(tab);
    if (!shown)
        shown = tab == QLatin1String("why") ? static_cast<QWidget *>(view->whyView()) : view->findChild<QWidget *>(tab);
    QVERIFY(shown);
    tabs->setCurrentWidget(shown);
    // A baseline and a hidden version chosen: they reach every view through the one Figures.
    const ResultsBundle final = fixtureBundle("ecommerce-4-versions.json");
    QCOMPARE(final.servers.front().repeats.size(), size_t(3));
    RunController *runs = window.controller();
    Q_EMIT runs->resultsChanged(liveSnapshotOf(final, 1));
    view->setBaseline(QStringLiteral("valkey-8.1.1"));
    view->setHiddenVersions({QStringLiteral("redis-7.0.15")});
    settle(window);

    for (const int repeats : {1, 2, 3}) {
        const BundleSnapshot live = liveSnapshotOf(final, repeats);
        const long long before = Figures::constructions();
        Q_EMIT runs->resultsChanged(live);
        settle(window);
        QCOMPARE(Figures::constructions() - before, 1LL);

        // Every view reads that one: the snapshot itself, with the options chosen.
        const Figures &figures = view->figures();
        QCOMPARE(figures.snapshot().get(), live.get());
        QCOMPARE(figures.baselineId(), QStringLiteral("valkey-8.1.1"));
        QCOMPARE(figures.serverIds().size(), 3);
        const FigureTable memory = figures.memory();
        const ChartWidget *chart = view->chart(ChartKind::MemoryPerAttribute);
        QCOMPARE(chart->barSetCount(), 3);
        QCOMPARE(chart->seriesNames().front(), QStringLiteral("Valkey 8.0.1"));
        QCOMPARE(chart->barValue(0, 0), memory.at(0, QStringLiteral("valkey-8.0.1")).value);
        // The same as figures of the update's bundle built apart from the window.
        QVERIFY(chart->barValue(0, 0) > 100);
        QCOMPARE(chart->barValue(0, 0), Figures(*live).memory().at(0, QStringLiteral("valkey-8.0.1")).value);
        QCOMPARE(memory.at(0, QStringLiteral("valkey-8.0.1")).spread.n, repeats);
        ResultsTableModel *model = view->tableModel();
        QCOMPARE(model->rowCount(), 3);
        int row81 = -1;
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, ResultsTableModel::ServerColumn).data().toString() == QLatin1String("Valkey 8.1.1"))
                row81 = row;
        QVERIFY(row81 >= 0);
        QCOMPARE(model->figureAt(row81, ResultsTableModel::BytesPerKeyColumn)->value,
                 memory.at(0, QStringLiteral("valkey-8.1.1")).value);
        QCOMPARE(model->index(row81, ResultsTableModel::BytesChangeColumn).data().toString(), QStringLiteral("baseline"));
        QVERIFY(view->tableAsMarkdown().contains(QStringLiteral("Valkey 8.1.1")));
        QVERIFY(!view->tableAsMarkdown().contains(QStringLiteral("Redis 7.0.15")));
    }
}

// A run ends with its last update, then runFinished carrying that update's bundle: the window
// shows it once.
void OneFiguresTest::runEndBuildsNoSecondFigures()
{
    startWithEmptySettings();
    MainWindow window;
    QVERIFY(shownOnScreen(window));
    RunController *runs = window.controller();
    ResultsBundle finalBundle = fixtureBundle("ecommerce-4-versions.json");
    Q_EMIT runs->resultsChanged(liveSnapshotOf(finalBundle, 2));
    settle(window);

    const BundleSnapshot last = std::make_shared<const ResultsBundle>(finalBundle);
    const long long before = Figures::constructions();
    Q_EMIT runs->resultsChanged(last);
    Q_EMIT runs->runFinished(*last);
    settle(window);
    QCOMPARE(Figures::constructions() - before, 1LL);
    QCOMPARE(window.resultsView()->figures().snapshot().get(), last.get());
    QVERIFY(!window.resultsView()->figures().live());
}

QTEST_MAIN(OneFiguresTest)
#include "tst_onefigures.moc"
