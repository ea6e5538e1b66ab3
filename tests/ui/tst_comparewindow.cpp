// The compare window: two bundles side by side (a real run compared with itself, and a real
// hash-ttl run with a three-version one). The legend names each bundle in full, no two bar
// labels overlap, a version keeps its colour in both bundles (the second a shade of it), the
// exported title keeps its headline number, and the window opens on the screen and Esc or
// Ctrl+W close it.
#include "bundlefigures.h"
#include "fixturebundle.h"
#include "barchart.h"
#include "bundlefiles.h"
#include "bundlejson.h"
#include "bundlebuilders.h"
#include "bundlemerge.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "chartwidget.h"
#include "comparewindow.h"
#include "exportoptions.h"
#include "palette.h"
#include "presentation.h"
#include "resultsview.h"

#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLabel>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using BundleBuilders::withMemoryScaled;

class CompareWindowTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void legendNamesEachBundleInFull();
    void barLabelsDoNotOverlap();
    void thinBarsShareAMarkerLine();
    void versionsKeepTheirColourShadedPerBundle();
    void exportedComparisonKeepsTheHeadlineNumber();
    void differenceWithinNoiseIsNotARegression();
    void opensOnTheScreen();
    void escapeAndCtrlWClose_data();
    void escapeAndCtrlWClose();
    void savedComparisonKeepsItsBundles();

private:
    ResultsBundle m_a;
    ResultsBundle m_b;
    ResultsBundle m_hashA;   // Valkey 8.0.1 and 9.1.2
    ResultsBundle m_hashB;   // Valkey 8.0.1, 8.1.1 and 9.1.2
};

void CompareWindowTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_comparewindow"));
    QSettings().clear();
    m_a = fixtureBundle("real-ecommerce.json");
    m_b = fixtureBundle("real-ecommerce.json");
    m_hashA = fixtureBundle("real-hash-ttl.json");
    m_hashB = fixtureBundle("hash-ttl-3-versions.json");
}

void CompareWindowTest::legendNamesEachBundleInFull()
{
    CompareWindow window(m_a, QStringLiteral("fair-schedule-on-the-laptop"), m_b,
                         QStringLiteral("concurrent-schedule-on-the-server"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ChartWidget *chart = window.resultsView()->chart(ChartKind::MemoryPerAttribute);
    chart->flush();
    const QStringList expected = {
        QStringLiteral("Valkey 8.0.1 @ fair-schedule-on-the-laptop"), QStringLiteral("Valkey 8.0.1 @ concurrent-schedule-on-the-server"),
        QStringLiteral("Valkey 9.1.2 @ fair-schedule-on-the-laptop"), QStringLiteral("Valkey 9.1.2 @ concurrent-schedule-on-the-server")};
    QCOMPARE(chart->legendTexts(), expected);
    // 4 servers × 12 categories on this screen are too thin for labels, and the window says so.
    QTRY_VERIFY(!chart->barLabelsShown());
    QTRY_VERIFY(window.findChild<QLabel *>(QStringLiteral("chartFootnotes"))->text().contains(
        QStringLiteral("Bar labels left out")));
    const QList<QRectF> rects = chart->legendTextRects();
    QCOMPARE(rects.size(), expected.size());
    const QFontMetricsF metrics(chart->legendFont());
    for (int i = 0; i < rects.size(); ++i) {
        // Wide enough for the whole name, inside the chart, clear of the other names.
        QVERIFY2(rects[i].width() + 0.5 >= metrics.horizontalAdvance(expected[i]), qPrintable(expected[i]));
        QVERIFY2(QRectF(chart->rect()).contains(rects[i]), qPrintable(expected[i]));
        for (int j = i + 1; j < rects.size(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]), qPrintable(expected[i] + QStringLiteral(" / ") + expected[j]));
    }
}

// Every bar label and marker of the charts, as drawn, clear of every other: the ink of their
// glyphs does not touch.
void CompareWindowTest::barLabelsDoNotOverlap()
{
    CompareWindow window(m_hashA, QStringLiteral("results-2025-06-01-hash-ttl"), m_hashB,
                         QStringLiteral("results-2025-06-02-bench"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    for (ChartKind kind : everyBundleChartKinds()) {
        window.resultsView()->showChart(kind);
        ChartWidget *chart = window.resultsView()->chart(kind);
        chart->flush();
        QTRY_VERIFY(!chart->barLabels().empty());
        std::vector<QRectF> ink;
        QStringList texts;
        for (const PlacedLabel &label : chart->barLabels()) {
            const QFontMetricsF metrics(label.font);
            // Drawn vertically centred in its line box: the baseline sits at ascent from its top.
            const double baseline = label.rect.center().y() - metrics.height() / 2 + metrics.ascent();
            ink.push_back(metrics.tightBoundingRect(label.text).translated(label.rect.left(), baseline));
            texts << label.text;
        }
        for (size_t i = 0; i < ink.size(); ++i) {
            for (size_t j = i + 1; j < ink.size(); ++j)
                QVERIFY2(!ink[i].intersects(ink[j]), qPrintable(texts[int(i)] + QStringLiteral(" / ") + texts[int(j)]));
        }
    }
    // Five servers in 1 300 × 850: the hsetex markers of the three that refuse it still have a
    // line each, and name their bundles.
    const std::vector<PlacedLabel> labels = window.resultsView()->chart(ChartKind::MemoryPerAttribute)->barLabels();
    QStringList markers;
    for (const PlacedLabel &label : labels) {
        if (label.marker && label.category == 0)
            markers << label.text;
    }
    QCOMPARE(markers, QStringList({QStringLiteral("unsupported (Valkey 8.0.1 @ results-2025-06-01-hash-ttl)"),
                                   QStringLiteral("unsupported (Valkey 8.0.1 @ results-2025-06-02-bench)"),
                                   QStringLiteral("unsupported (Valkey 8.1.1 @ results-2025-06-02-bench)")}));
}

// In a small chart the refusing servers' markers share one line instead of overwriting each other.
void CompareWindowTest::thinBarsShareAMarkerLine()
{
    const ResultsBundle merged = mergeBundles(m_hashA, QStringLiteral("a"), m_hashB, QStringLiteral("b"));
    QGraphicsScene scene;
    auto *chart = new BarChart;   // the scene owns it
    scene.addItem(chart);
    chart->setData(buildChartData(merged, ChartKind::MemoryPerAttribute));
    chart->setStyleSize(QSizeF(600, 200));
    chart->setGeometry(QRectF(0, 0, 600, 200));
    chart->layout()->activate();
    QVERIFY(!chart->barLabelsShown());
    QStringList markers;
    for (const PlacedLabel &label : chart->placedLabels()) {
        if (label.marker && label.category == 0)
            markers << label.text;
    }
    QCOMPARE(markers, QStringList({QStringLiteral("unsupported (Valkey 8.0.1 @ a, Valkey 8.0.1 @ b, Valkey 8.1.1 @ b)")}));
}

// The first bundle's versions have the colours they have on their own, the second bundle's a
// shade of the same colour; the two of a version stand next to each other.
void CompareWindowTest::versionsKeepTheirColourShadedPerBundle()
{
    CompareWindow window(m_hashA, QStringLiteral("a"), m_hashB, QStringLiteral("b"));
    ChartWidget *chart = window.resultsView()->chart(ChartKind::MemoryPerAttribute);
    chart->flush();
    QCOMPARE(chart->seriesNames(), QStringList({QStringLiteral("Valkey 8.0.1 @ a"), QStringLiteral("Valkey 8.0.1 @ b"),
                                                QStringLiteral("Valkey 8.1.1 @ b"), QStringLiteral("Valkey 9.1.2 @ a"),
                                                QStringLiteral("Valkey 9.1.2 @ b")}));
    const std::map<QString, QColor> own = serverColors(m_hashB);
    const QColor blue = own.at(QStringLiteral("valkey-8.0.1"));
    const QColor orange = own.at(QStringLiteral("valkey-8.1.1"));
    const QColor green = own.at(QStringLiteral("valkey-9.1.2"));
    QCOMPARE(serverColors(m_hashA).at(QStringLiteral("valkey-9.1.2")), green);
    QCOMPARE(chart->seriesColor(0), blue);
    QCOMPARE(chart->seriesColor(1), blue.lighter(130));
    QCOMPARE(chart->seriesColor(2), orange.lighter(130));   // only in the second bundle: its shade
    QCOMPARE(chart->seriesColor(3), green);
    QCOMPARE(chart->seriesColor(4), green.lighter(130));
    // A light colour gets a darker shade, which still reads on white.
    ResultsBundle light = m_hashA;
    for (ServerRun &run : light.servers) {
        run.product = QStringLiteral("redis");
        run.version = run.version == QLatin1String("8.0.1") ? QStringLiteral("8.0.2") : QStringLiteral("7.0.15");
        run.id = run.product + QLatin1Char('-') + run.version;
    }
    const std::map<QString, QColor> pair = serverColors(mergeBundles(light, QStringLiteral("a"), light, QStringLiteral("b")));
    const QColor sky = serverColors(light).at(QStringLiteral("redis-8.0.2"));
    QVERIFY(sky.lightnessF() >= 0.55);
    QCOMPARE(pair.at(QStringLiteral("redis-8.0.2 @ a")), sky);
    QCOMPARE(pair.at(QStringLiteral("redis-8.0.2 @ b")), sky.darker(130));
}

// The title of an exported comparison ends with the headline change, however long the names:
// the difference between the two bundles (the same version in each), not a change inside one.
void CompareWindowTest::exportedComparisonKeepsTheHeadlineNumber()
{
    const ResultsBundle merged = mergeBundles(m_a, QStringLiteral("results-2025-06-01-ecommerce-on-the-laptop"),
                                              withMemoryScaled(m_b, 1.05),
                                              QStringLiteral("results-2025-06-02-ecommerce-on-the-server"));
    const std::optional<ChartHeadline> headline = chartHeadline(merged, ChartKind::MemoryPerAttribute);
    QVERIFY(headline);
    QCOMPARE(headline->change, QStringLiteral("+5.0%"));
    QCOMPARE(headline->versions, QStringLiteral("Valkey 8.0.1, results-2025-06-01-ecommerce-on-the-laptop → "
                                                "results-2025-06-02-ecommerce-on-the-server"));
    for (const SizePreset &preset : sizePresets()) {
        ExportOptions options;
        options.size = preset.size;
        ChartGeometry geometry;
        QVERIFY(renderChart(merged, ChartKind::MemoryPerAttribute, options, &geometry).ok());
        QVERIFY2(!geometry.titleLines.isEmpty(), qPrintable(preset.name));
        QVERIFY2(geometry.titleLines.last().endsWith(QStringLiteral(": 196.1\u00A0→\u00A0205.9\u00A0bytes, +5.0%")),
                 qPrintable(preset.name + QStringLiteral(": ") + geometry.titleLines.join(QLatin1Char('|'))));
    }
}

// The same servers measured twice, 0.1% apart in memory: the window's headline says the
// difference between the bundles, and neither it nor the bars colour that as a regression.
void CompareWindowTest::differenceWithinNoiseIsNotARegression()
{
    CompareWindow window(m_a, QStringLiteral("laptop"), withMemoryScaled(m_b, 1.001), QStringLiteral("server"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ResultsView *results = window.resultsView();
    results->showChart(ChartKind::MemoryPerAttribute);
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("headline"))->text(),
             QStringLiteral("Memory per stored attribute, Valkey 8.0.1, laptop → server: 196.1\u00A0→\u00A0196.3\u00A0bytes, +0.1%"));
    const std::optional<ChartHeadline> headline = chartHeadline(results->figures(), ChartKind::MemoryPerAttribute);
    QVERIFY(headline);
    QCOMPARE(headline->meaning, ChangeMeaning::Neutral);
    const ChartData data = buildChartData(results->figures(), ChartKind::MemoryPerAttribute);
    QCOMPARE(data.series[1].serverId, QStringLiteral("valkey-8.0.1 @ server"));
    QCOMPARE(data.series[1].bars[0].label, QStringLiteral("196.3  +0.1%"));
    QCOMPARE(data.series[1].bars[0].meaning, ChangeMeaning::Neutral);
}

void CompareWindowTest::opensOnTheScreen()
{
    QScreen *screen = QGuiApplication::primaryScreen();
    QWidget parent;
    parent.setGeometry(screen->availableGeometry());
    CompareWindow window(m_a, QStringLiteral("a"), m_b, QStringLiteral("b"), &parent);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(screen->availableGeometry().contains(window.frameGeometry()),
             qPrintable(QStringLiteral("%1x%2+%3+%4 on %5x%6")
                            .arg(window.frameGeometry().width()).arg(window.frameGeometry().height())
                            .arg(window.frameGeometry().x()).arg(window.frameGeometry().y())
                            .arg(screen->availableGeometry().width()).arg(screen->availableGeometry().height())));
    // Centred.
    QVERIFY(std::abs(window.geometry().center().x() - screen->availableGeometry().center().x()) <= 1);
}

void CompareWindowTest::escapeAndCtrlWClose_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::newRow("Esc") << int(Qt::Key_Escape) << int(Qt::NoModifier);
    QTest::newRow("Ctrl+W") << int(Qt::Key_W) << int(Qt::ControlModifier);
}

void CompareWindowTest::escapeAndCtrlWClose()
{
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QPointer<CompareWindow> window = new CompareWindow(m_a, QStringLiteral("a"), m_b, QStringLiteral("b"));
    window->show();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
    // Closed, and deleted on close.
    QTRY_VERIFY(window.isNull());
}

// Save merged results… and File ▸ Open: the servers still name their bundles and keep their
// own versions, so names, order and colours come back the same.
void CompareWindowTest::savedComparisonKeepsItsBundles()
{
    const ResultsBundle merged = mergeBundles(m_hashA, QStringLiteral("laptop"), m_hashB, QStringLiteral("server"));
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("merged.json"));
    const Status saved = saveBundleFile(merged, path);
    QVERIFY2(saved, qPrintable(saved.error()));
    const Outcome<ResultsBundle> loaded = loadBundleFile(path);
    QVERIFY2(loaded, qPrintable(loaded.error()));
    const ServerRun *run = loaded->server(QStringLiteral("valkey-9.1.2 @ server"));
    QVERIFY(run);
    QCOMPARE(run->version, QStringLiteral("9.1.2"));
    QCOMPARE(run->bundleName, QStringLiteral("server"));
    QCOMPARE(serverDisplayName(*run), QStringLiteral("Valkey 9.1.2 @ server"));
    QCOMPARE(orderedServerIds(loaded.value()), orderedServerIds(merged));
    QCOMPARE(serverColors(loaded.value()), serverColors(merged));
}

QTEST_MAIN(CompareWindowTest)
#include "tst_comparewindow.moc"
