// Demo mode on the screens it is made for: a 1920×1080 screen (and a 1280×720 one, where the
// text scales with the height), given to the offscreen platform by a configuration file.
// Checked in pixels as drawn: bar and axis labels, the headline and the call-out, the keys,
// the collapsed panels, and a real run started with Space on a fetched server.
#include "bundlefigures.h"
#include "chartwidget.h"
#include "fixturebundle.h"
#include "foreignserver.h"
#include "progresslist.h"
#include "bundlejson.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "charttheme.h"
#include "chartwidget.h"
#include "democontroller.h"
#include "headlinecallout.h"
#include "figures.h"
#include "mainwindow.h"
#include "presentation.h"
#include "resultsview.h"
#include "serverspanel.h"
#include "servertesthelpers.h"
#include "sweepchartwidget.h"
#include "testregistry.h"
#include "workloadpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTreeWidget>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

namespace {

QScreen *screenNamed(const QString &name)
{
    for (QScreen *screen : QGuiApplication::screens()) {
        if (screen->name() == name)
            return screen;
    }
    return nullptr;
}

// A window in demo mode on `screen`, showing `bundle`; the run does not start by itself.
struct DemoWindow {
    MainWindow window;
    DemoController *demo = nullptr;

    DemoWindow(QScreen *screen, const ResultsBundle &bundle, DemoOptions options = {})
    {
        window.setScreen(screen);
        window.showResults(bundle, QStringLiteral("fixture.json"));
        demo = new DemoController(&window);
        options.runByItself = false;
        demo->start(options);
    }
};

// A demo of the window as `versus --demo --workload hash-ttl` opens it on the hd screen, not
// running by itself, once its servers are listed. Every question it asks is answered with Esc
// (for the flush question: don't flush) and its text kept in `questions`.
void openHashTtlDemo(MainWindow &window, QTimer &answerer, QStringList &questions)
{
    QObject::connect(&answerer, &QTimer::timeout, &window, [&questions] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()); box && box->isVisible()) {
            questions << box->text();
            QTest::keyClick(box, Qt::Key_Escape);
        }
    });
    answerer.start(20);
    window.setScreen(screenNamed(QStringLiteral("hd")));
    window.startFromDefaults();
    window.workloadPanel()->choose(QStringLiteral("hash-ttl"));
    auto *demo = new DemoController(&window);
    demo->start(DemoOptions{false, false, 0});
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
}

} // namespace

class DemoModeTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void textReadsFromTheBackOfTheRoom();
    void textScalesWithTheScreenHeight();
    void calloutShowsTheHeadlineChange();
    void calloutSaysPendingUntilTheChangeIsSettled();
    void sweepChartGrowsWithTheScreen_data();
    void sweepChartGrowsWithTheScreen();
    void startsFromTheDefaultsAndRemembersNothing();
    void keysSwitchChartsAndToggleFullScreenAndPanels();
    void spaceStartsARunAndChartsCycleDuringIt();
    void rememberedEndpointDoesNotStopTheDemo();
    void panelsNameEveryServerApart();
    void failedEndpointIsExplainedOnce();
};

void DemoModeTest::init()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_demomode"));
    QSettings().clear();
}

void DemoModeTest::textReadsFromTheBackOfTheRoom()
{
    QScreen *hd = screenNamed(QStringLiteral("hd"));
    QVERIFY(hd);
    const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    const Outcome<QImage> exportedBefore = renderChart(bundle, ChartKind::MemoryPerAttribute, ExportOptions());
    DemoWindow demo(hd, bundle, DemoOptions{false, true, 0});
    QVERIFY(QTest::qWaitForWindowExposed(&demo.window));
    QCOMPARE(demo.window.geometry(), QRect(0, 0, 1920, 1080));
    QVERIFY(demo.window.isFullScreen());
    QVERIFY(!demo.window.sidebarShown());
    // No menu bar; the "›" that brings the panels back is as big as the headline's text.
    QVERIFY(!demo.window.menuBar()->isVisible());
    auto *showPanels = demo.window.findChild<QToolButton *>(QStringLiteral("showSidebar"));
    QVERIFY(showPanels && showPanels->isVisible());
    QCOMPARE(showPanels->font().pixelSize(), 72);
    QVERIFY2(showPanels->height() >= 129 && showPanels->width() >= 86,
             qPrintable(QStringLiteral("%1x%2").arg(showPanels->width()).arg(showPanels->height())));
    ResultsView *results = demo.window.resultsView();
    for (ChartKind kind : everyBundleChartKinds()) {
        results->showChart(kind);
        ChartWidget *chart = results->chart(kind);
        chart->flush();
        const QString name = figureView(kind).stem;
        QTRY_VERIFY2(chart->barLabelsShown(), qPrintable(name));
        QVERIFY2(chart->barLabelFont().pixelSize() >= 24, qPrintable(name));
        QVERIFY2(chart->categoryAxisFont().pixelSize() >= 24, qPrintable(name));
        QVERIFY2(chart->valueAxisFont().pixelSize() >= 24, qPrintable(name));
        QVERIFY2(chart->legendFont().pixelSize() >= 24, qPrintable(name));
        // The headline: the call-out's number where the chart has a change, else the title.
        auto *headline = results->findChild<QLabel *>(QStringLiteral("headline"));
        QVERIFY(headline->isVisible() != results->callout()->isVisible());
        const QLabel *big = headline->isVisible() ? headline : results->callout()->numberLabel();
        QVERIFY2(big->font().pixelSize() >= 48, qPrintable(name));
        // Every bar label fits its bar slot at 24 px: only as many categories as have room.
        for (const PlacedLabel &label : chart->barLabels())
            QVERIFY2(label.font.pixelSize() >= 24, qPrintable(name + QLatin1Char(' ') + label.text));
    }
    // 4 servers × 8 categories do not fit at 24 px: the first of the Sort's order do, and the
    // line under the chart says so.
    ChartWidget *memory = results->chart(ChartKind::MemoryPerAttribute);
    results->showChart(ChartKind::MemoryPerAttribute);
    QVERIFY(memory->categoryCount() < 8);
    QCOMPARE(memory->categories().front(), QStringLiteral("All attributes"));
    QVERIFY(memory->footnotes().join(QLatin1Char('\n'))
                .contains(QStringLiteral("Showing %1 of 7 categories").arg(memory->categoryCount() - 1)));
    // Exports keep their own sizes and categories.
    const Outcome<QImage> exportedDuring = renderChart(bundle, ChartKind::MemoryPerAttribute, ExportOptions());
    QVERIFY(exportedBefore && exportedDuring);
    QVERIFY(exportedBefore.value() == exportedDuring.value());
}

void DemoModeTest::textScalesWithTheScreenHeight()
{
    QScreen *small = screenNamed(QStringLiteral("small"));
    QVERIFY(small);
    DemoWindow demo(small, fixtureBundle("real-ecommerce.json"));
    QVERIFY(QTest::qWaitForWindowExposed(&demo.window));
    QCOMPARE(demo.window.geometry(), small->geometry());
    ChartWidget *memory = demo.window.resultsView()->chart(ChartKind::MemoryPerAttribute);
    memory->flush();
    // 720 / 1080 of the 1080p sizes: 16 px labels, an 18 px axis, a 32 px headline.
    const DemoSizes sizes = DemoSizes::forHeight(720);
    QCOMPARE(sizes.chart.label, 16.0);
    QCOMPARE(sizes.headline, 32);
    QTRY_COMPARE(memory->categoryAxisFont().pixelSize(), 18);
    QCOMPARE(memory->barLabelFont().pixelSize(), 16);
    QCOMPARE(demo.window.resultsView()->findChild<QLabel *>(QStringLiteral("headline"))->font().pixelSize(), 32);
    // Out of full screen the window is smaller, and so is its text.
    QTest::keyClick(&demo.window, Qt::Key_Escape);
    QTRY_VERIFY(!demo.window.isFullScreen());
    QTRY_VERIFY(demo.window.height() < 720);
    QTRY_VERIFY(memory->categoryAxisFont().pixelSize() < 18);
}

void DemoModeTest::calloutShowsTheHeadlineChange()
{
    const ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    DemoWindow demo(screenNamed(QStringLiteral("hd")), bundle, DemoOptions{false, true, 0});
    QVERIFY(QTest::qWaitForWindowExposed(&demo.window));
    ResultsView *results = demo.window.resultsView();
    for (ChartKind kind : {ChartKind::MemoryPerAttribute, ChartKind::UsecPerEvent}) {
        results->showChart(kind);
        const Figures figures(bundle);
        const std::optional<Headline> headline = figures.headline(chartTable(figures, kind));
        QVERIFY(headline && headline->change);
        QVERIFY(results->callout()->isVisible());
        QCOMPARE(results->callout()->changeText(), formatPercentChange(*headline->change));
        QCOMPARE(results->callout()->captionText(),
                 figureView(kind).title.toLower() + QStringLiteral(", Valkey 8.0.1 → 9.1.2"));
    }
    results->showChart(ChartKind::MemoryPerAttribute);
    QCOMPARE(results->callout()->changeText(), QStringLiteral("−14.5%"));

    // hash-ttl has no total to change: the call-out gives the studies' ratio instead, the
    // figures layer's as the title has it.
    const ResultsBundle hashTtl = fixtureBundle("real-hash-ttl.json");
    demo.window.showResults(hashTtl, QStringLiteral("hash-ttl.json"));
    const Figures figures(hashTtl);
    const FigureTable ratios = figures.referenceRatios();
    const int hsetex = ratios.categoryIndex(QStringLiteral("hsetex"));
    QVERIFY(hsetex >= 0);
    QVERIFY(results->callout()->isVisible());
    QCOMPARE(results->callout()->changeText(), formatMultiple(ratios.at(hsetex, QStringLiteral("valkey-9.1.2")).value));
    QCOMPARE(results->callout()->captionText(),
             QStringLiteral("memory per key, hsetex against set-ex on Valkey 9.1.2, 120-byte values"));
    QVERIFY(defaultChartTitle(hashTtl, ChartKind::MemoryPerAttribute)
                .endsWith(QStringLiteral(": hsetex %1 set-ex on Valkey 9.1.2, 120-byte values")
                              .arg(results->callout()->changeText())));
}

// Early in a run the headline's change is not settled: the call-out's number says so in a word
// the font draws as letters (its "…" came out as three black squares at 120 px), in the muted
// colour, and the number takes its place once it is settled.
void DemoModeTest::calloutSaysPendingUntilTheChangeIsSettled()
{
    const ResultsBundle final = fixtureBundle("real-ecommerce.json");
    ResultsBundle live = final;
    live.running = true;
    live.complete = false;
    for (ServerRun &run : live.servers) {
        run.status = RunStatus::Incomplete;
        run.repeats.resize(1);
        run.repeats.front().status = RepeatStatus::Incomplete;
        run.repeats.front().unfinishedTimedPass = true;   // the total still grows
    }
    DemoWindow demo(screenNamed(QStringLiteral("hd")), live, DemoOptions{false, true, 0});
    QVERIFY(QTest::qWaitForWindowExposed(&demo.window));
    ResultsView *results = demo.window.resultsView();
    results->showChart(ChartKind::MemoryPerAttribute);
    QVERIFY(results->callout()->isVisible());
    QCOMPARE(results->callout()->changeText(), QStringLiteral("pending"));
    const QLabel *number = results->callout()->numberLabel();
    QCOMPARE(number->font().pixelSize(), 120);
    const QFontMetrics metrics(number->font());
    for (const QChar character : number->text())
        QVERIFY2(metrics.inFont(character), qPrintable(QString(character)));
    QCOMPARE(number->palette().color(QPalette::WindowText), chartColors(ColorTheme::Light).mutedText);
    QCOMPARE(results->callout()->captionText(),
             QStringLiteral("memory per stored attribute, Valkey 8.0.1 → 9.1.2 (provisional)"));

    demo.window.showResults(final, QStringLiteral("fixture.json"));
    QCOMPARE(results->callout()->changeText(), QStringLiteral("−14.5%"));
    QCOMPARE(number->palette().color(QPalette::WindowText), chartColors(ColorTheme::Light).better);
}

void DemoModeTest::sweepChartGrowsWithTheScreen_data()
{
    QTest::addColumn<QString>("screen");
    QTest::addColumn<int>("height");
    QTest::newRow("1080p") << QStringLiteral("hd") << 1080;
    QTest::newRow("720p") << QStringLiteral("small") << 720;
}

// The sweep chart's text is the bar charts' demo text, not text that follows its widget (12 px
// at 1080 px): line names as large as bar labels, axis text as large as the bar charts' axes.
void DemoModeTest::sweepChartGrowsWithTheScreen()
{
    QFETCH(QString, screen);
    QFETCH(int, height);
    DemoWindow demo(screenNamed(screen), fixtureBundle("real-hash-ttl-sweep.json"));
    QVERIFY(QTest::qWaitForWindowExposed(&demo.window));
    QCOMPARE(demo.window.height(), height);
    ResultsView *results = demo.window.resultsView();
    results->showSweep();
    QVERIFY(results->sweepView()->isVisible());
    const DemoSizes sizes = DemoSizes::forHeight(height);
    auto *view = results->sweepView()->findChild<QGraphicsView *>();
    QVERIFY(view && view->scene());
    int names = 0, axisTexts = 0;
    for (const QGraphicsItem *item : view->scene()->items()) {
        if (const auto *name = dynamic_cast<const QGraphicsSimpleTextItem *>(item); name && name->isVisible()) {
            QCOMPARE(name->font().pixelSize(), int(sizes.chart.label));
            ++names;
        } else if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
                   text && text->isVisible() && !text->toPlainText().isEmpty()) {
            // Tick labels at the axis size, the axis titles at theirs.
            QVERIFY2(text->font().pixelSize() == int(sizes.chart.axis) || text->font().pixelSize() == int(sizes.chart.axisTitle),
                     qPrintable(QStringLiteral("%1: %2 px").arg(text->toPlainText()).arg(text->font().pixelSize())));
            ++axisTexts;
        }
    }
    QCOMPARE(names, results->sweepView()->lineLabels().size());
    QVERIFY(names >= 2);
    QVERIFY(axisTexts >= 4);
    auto *title = results->sweepView()->findChild<QLabel *>(QStringLiteral("sweepTitle"));
    QCOMPARE(title->font().pixelSize(), int(sizes.chart.subtitle));
}

// What versus --demo and --autorun call before their run: what an earlier session left (2,000
// keys, a sweep, a hidden version, a baseline) is not what the run or its charts show, and what
// is chosen now is not remembered.
void DemoModeTest::startsFromTheDefaultsAndRemembersNothing()
{
    QSettings remembered;
    remembered.setValue(QStringLiteral("workload/kind"), QStringLiteral("hash-ttl"));
    remembered.setValue(QStringLiteral("workload/keys"), 2000);
    remembered.setValue(QStringLiteral("workload/sweep"), QStringLiteral("value-size=16,64"));
    remembered.setValue(QStringLiteral("run/repeats"), 3);
    remembered.setValue(QStringLiteral("run/topology"), QStringLiteral("cluster:3"));
    remembered.setValue(QStringLiteral("view/baseline"), QStringLiteral("valkey-9.1.2"));
    remembered.setValue(QStringLiteral("view/hidden"), QStringList{QStringLiteral("valkey-8.0.1")});
    remembered.setValue(QStringLiteral("view/sort"), QStringLiteral("largest"));
    MainWindow window;
    window.startFromDefaults();
    auto *keys = window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"));
    QCOMPARE(keys->value(), 20000);
    QCOMPARE(window.findChild<QSpinBox *>(QStringLiteral("hashTtlValueSize"))->value(), 120);
    QCOMPARE(window.findChild<QSpinBox *>(QStringLiteral("hashTtlTtl"))->value(), 900);
    QCOMPARE(window.findChild<QLineEdit *>(QStringLiteral("hashTtlSweep"))->text(), QString());
    QCOMPARE(window.findChild<QSpinBox *>(QStringLiteral("repeats"))->value(), 1);
    QCOMPARE(window.findChild<QLineEdit *>(QStringLiteral("topology"))->text(), QStringLiteral("standalone"));
    // Every version shown, against the oldest (as a run's results will be); the Sort, which
    // changes no figure, stays.
    ResultsView *results = window.resultsView();
    QCOMPARE(results->viewState().baseline, QString());
    QCOMPARE(results->hiddenVersions(), QStringList());
    QCOMPARE(results->categoryOrder(), CategoryOrder::Value);
    results->setBundle(fixtureBundle("real-ecommerce.json"));
    QCOMPARE(results->figures().baselineId(), QStringLiteral("valkey-8.0.1"));
    QCOMPARE(results->figures().serverIds().size(), 2);

    keys->setValue(5000);
    results->setHiddenVersions({QStringLiteral("valkey-9.1.2")});
    QTRY_VERIFY(!window.workloadPanel()->isPreparing());   // prepared again: when it remembers, it has
    QCOMPARE(remembered.value(QStringLiteral("workload/keys")).toInt(), 2000);
    QCOMPARE(remembered.value(QStringLiteral("workload/sweep")).toString(), QStringLiteral("value-size=16,64"));
    QCOMPARE(remembered.value(QStringLiteral("run/repeats")).toInt(), 3);
    QCOMPARE(remembered.value(QStringLiteral("run/topology")).toString(), QStringLiteral("cluster:3"));
    QCOMPARE(remembered.value(QStringLiteral("view/baseline")).toString(), QStringLiteral("valkey-9.1.2"));
    QCOMPARE(remembered.value(QStringLiteral("view/hidden")).toStringList(), QStringList{QStringLiteral("valkey-8.0.1")});
}

void DemoModeTest::keysSwitchChartsAndToggleFullScreenAndPanels()
{
    DemoWindow demo(screenNamed(QStringLiteral("hd")), fixtureBundle("real-ecommerce.json"));
    MainWindow &window = demo.window;
    QVERIFY(QTest::qWaitForWindowActive(&window));
    ResultsView *results = window.resultsView();
    QCOMPARE(results->currentChartKind(), ChartKind::MemoryPerAttribute);
    QTest::keyClick(&window, Qt::Key_2);
    QCOMPARE(results->currentChartKind(), ChartKind::UsecPerCommand);
    QTest::keyClick(&window, Qt::Key_4);
    QCOMPARE(results->currentChartKind(), ChartKind::Throughput);
    // On to the last chart the bundle has (figureviews.h's order), from which Ctrl+Tab wraps.
    const std::vector<ChartKind> charts = chartKindsOf(results->figures());
    for (size_t chart = 4; chart < charts.size(); ++chart)
        QTest::keyClick(&window, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(results->currentChartKind(), charts.back());
    QTest::keyClick(&window, Qt::Key_Tab, Qt::ControlModifier);   // wraps to the first chart
    QCOMPARE(results->currentChartKind(), ChartKind::MemoryPerAttribute);
    QTest::keyClick(&window, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(results->currentChartKind(), ChartKind::UsecPerCommand);
    QTest::keyClick(&window, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(results->currentChartKind(), ChartKind::MemoryPerAttribute);
    QTest::keyClick(&window, Qt::Key_3);
    QCOMPARE(results->currentChartKind(), ChartKind::UsecPerEvent);

    QVERIFY(window.isFullScreen());
    QTest::keyClick(&window, Qt::Key_F11);
    QTRY_VERIFY(!window.isFullScreen());
    QTest::keyClick(&window, Qt::Key_F11);
    QTRY_VERIFY(window.isFullScreen());
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!window.isFullScreen());
    QVERIFY(window.screen()->availableGeometry().contains(window.geometry()));
    QTest::keyClick(&window, Qt::Key_Escape);   // never cancels or closes: nothing to leave
    QVERIFY(window.isVisible());

    // F9 and the menus' other keys work with the menu bar hidden.
    QVERIFY(!window.menuBar()->isVisible());
    QVERIFY(!window.sidebarShown());
    auto *showPanels = window.findChild<QToolButton *>(QStringLiteral("showSidebar"));
    QVERIFY(showPanels && showPanels->isVisible());
    QTest::keyClick(&window, Qt::Key_F9);
    QVERIFY(window.sidebarShown());
    QVERIFY(!showPanels->isVisible());
    QTest::keyClick(&window, Qt::Key_F9);
    QVERIFY(!window.sidebarShown());
    showPanels->click();
    QVERIFY(window.sidebarShown());
}

void DemoModeTest::spaceStartsARunAndChartsCycleDuringIt()
{
    VERSUS_REQUIRE_SERVER(server, "valkey-9.1");
    MainWindow window;
    window.setScreen(screenNamed(QStringLiteral("hd")));
    auto *demo = new DemoController(&window);
    demo->start(DemoOptions{false, true, 1});
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
    for (const QString &label : window.serversPanel()->labels())
        window.serversPanel()->setChecked(label, label == server.label);
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(2000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);
    window.resultsView()->showChart(ChartKind::Throughput);

    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(window.isRunning());
    QVERIFY(demo->cycling());
    QTest::keyClick(&window, Qt::Key_Space);   // Space never cancels
    QVERIFY(window.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    const ResultsBundle results = finished.at(0).at(0).value<ResultsBundle>();
    QVERIFY(results.complete);
    QCOMPARE(results.servers.size(), size_t(1));
    // The cycle stops with the run and the answer comes back to the front; the progress rows
    // of a run that went well make room for it.
    QVERIFY(!demo->cycling());
    QVERIFY(!window.progressShown());
    QCOMPARE(window.resultsView()->currentChartKind(), ChartKind::MemoryPerAttribute);

    // Shift+Esc cancels (Esc only leaves full screen). A server cache changed during the run
    // (another suite's build) has the window look for servers again first, and Run waits.
    QTRY_VERIFY2_WITH_TIMEOUT(window.isReady(), qPrintable(window.runBlocker()), 60000);
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(window.isRunning());
    QTest::keyClick(&window, Qt::Key_Escape, Qt::ShiftModifier);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 120000);
    QVERIFY(!finished.at(1).at(0).value<ResultsBundle>().complete);
}

// A demo started with an endpoint remembered (and ticked) from an earlier session runs the
// launched servers: no question stops it, the endpoint keeps its keys, and the remembered
// selection is left for the next ordinary start.
void DemoModeTest::rememberedEndpointDoesNotStopTheDemo()
{
    VERSUS_REQUIRE_SERVER(launched, "valkey-9.1");
    ForeignServer endpoint(launched);
    QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
    QCOMPARE(endpoint.command({"SET", "precious", "data"}), QStringLiteral("OK"));
    const QStringList selection{endpoint.hostPort(), launched.label};
    QSettings remembered;
    remembered.setValue(QStringLiteral("servers/endpoints"), QStringList{endpoint.hostPort()});
    remembered.setValue(QStringLiteral("servers/selected"), selection);

    QStringList questions;
    QTimer answerer;
    MainWindow window;
    openHashTtlDemo(window, answerer, questions);
    if (QTest::currentTestFailed())
        return;
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(2000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::keyClick(&window, Qt::Key_Space);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    const ResultsBundle results = finished.at(0).at(0).value<ResultsBundle>();
    QCOMPARE(questions, QStringList());
    QStringList ran;
    for (const ServerRun &run : results.servers)
        ran << run.id;
    QCOMPARE(ran, QStringList{launched.label});
    QVERIFY(results.complete);
    QCOMPARE(endpoint.command({"GET", "precious"}), QStringLiteral("data"));
    QCOMPARE(remembered.value(QStringLiteral("servers/selected")).toStringList(), selection);
}

// With the Source column hidden (demo mode), no two rows of the server list read alike: the
// Debian package beside the upstream build of its version says which it is.
void DemoModeTest::panelsNameEveryServerApart()
{
    VERSUS_REQUIRE_SERVER(debian, "valkey-8.0.1");
    if (!ServerTestHelpers::findBuiltServer(QStringLiteral("valkey-8.0.1-upstream")))
        VERSUS_SERVER_MISSING(QStringLiteral("valkey-8.0.1-upstream (scripts/test builds it)"));
    DemoWindow demo(screenNamed(QStringLiteral("hd")), fixtureBundle("real-ecommerce.json"));
    MainWindow &window = demo.window;
    QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
    QTest::keyClick(&window, Qt::Key_F9);
    auto *list = window.findChild<QTreeWidget *>(QStringLiteral("serverList"));
    QVERIFY(list && list->isVisible());
    QVERIFY(list->isColumnHidden(1));
    QStringList names;
    std::map<QString, QString> nameOf;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *row = list->topLevelItem(i);
        names << row->text(0);
        nameOf[row->toolTip(0).section(QLatin1Char('\n'), 0, 0)] = row->text(0);
    }
    QCOMPARE(nameOf[debian.label], QStringLiteral("Valkey 8.0.1 (Debian package)"));
    QCOMPARE(nameOf[QStringLiteral("valkey-8.0.1-upstream")], QStringLiteral("Valkey 8.0.1 (upstream build)"));
    QStringList distinct = names;
    distinct.removeDuplicates();
    QCOMPARE(distinct, names);
}

// A TLS-only endpoint remembered as a plain one, ticked in the demo's panels: its connection
// error is said once, under the chart, naming its address once; its progress row points there.
void DemoModeTest::failedEndpointIsExplainedOnce()
{
    VERSUS_REQUIRE_SERVER(launched, "valkey-9.1");
    ForeignServer endpoint(launched);
    QVERIFY2(endpoint.useOwnTls(), qPrintable(endpoint.error()));
    QVERIFY2(endpoint.start(), qPrintable(endpoint.error()));
    QSettings().setValue(QStringLiteral("servers/endpoints"), QStringList{endpoint.hostPort()});
    QStringList questions;   // the flush question, answered with Esc: don't flush
    QTimer answerer;
    MainWindow window;
    openHashTtlDemo(window, answerer, questions);
    if (QTest::currentTestFailed())
        return;
    QTest::keyClick(&window, Qt::Key_F9);
    for (const QString &label : window.serversPanel()->labels())
        QVERIFY(window.serversPanel()->setChecked(label, label == launched.label || label == endpoint.hostPort()));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(2000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::keyClick(&window, Qt::Key_Space);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);

    ChartWidget *memory = window.resultsView()->chart(ChartKind::MemoryPerAttribute);
    memory->flush();
    const QStringList failures = memory->footnotes().filter(endpoint.hostPort());
    QCOMPARE(failures.size(), 1);
    QCOMPARE(failures.front().count(endpoint.hostPort()), 1);
    QVERIFY2(failures.front().contains(QStringLiteral("tick “Connect over TLS” if it is one")), qPrintable(failures.front()));
    QCOMPARE(window.progressList()->message(endpoint.hostPort()), QStringLiteral("the reason is under the chart"));
}

static int demoModeMain(int argc, char **argv)
{
    // The screens under test, for the offscreen platform: 1080p, and a smaller one beside it.
    QTemporaryDir folder;
    const QString config = folder.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(config));
    file.write(R"({"windowFrameMargins": false, "screens": [
        {"name": "hd", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "small", "x": 1920, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
    ]})");
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    DemoModeTest test;
    return QTest::qExec(&test, argc, argv);
}

VERSUS_TEST_FUNCTION(demoModeMain)

#include "tst_demomode.moc"
