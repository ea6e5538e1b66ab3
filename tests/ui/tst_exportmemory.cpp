// The export dialog remembers its scale, format and theme (in settings of the test's own, in a
// temporary folder), follows the window's dark charts unless a theme was picked, asks before
// replacing files, and the window's Copy lists categories in its Sort order.
#include "fixturebundle.h"
#include "bundlejson.h"
#include "chartwidget.h"
#include "exportdialog.h"
#include "mainwindow.h"
#include "resultsview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Answers the replace question the next time it shows; records what it said.
struct ReplaceAnswer {
    bool asked = false;
    QString text;
    QString files;

    void answerNext(bool replace)
    {
        QTimer::singleShot(0, [this, replace] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("replaceQuestion"))
                return;
            asked = true;
            text = box->text();
            files = box->informativeText();
            box->findChild<QPushButton *>(replace ? QStringLiteral("replaceButton") : QStringLiteral("keepButton"))->click();
        });
    }
};

// The first cell of the rows of a Markdown section, its header rows and the total left out.
QStringList memoryRows(const QString &markdown)
{
    QStringList labels;
    bool inside = false;
    int row = 0;
    for (const QString &line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("### "))) {
            inside = line.startsWith(QLatin1String("### Memory per stored attribute"));
            row = 0;
        } else if (inside && line.startsWith(QLatin1Char('|')) && row++ >= 3) {
            labels << line.section(QLatin1Char('|'), 1, 1).trimmed().replace(QLatin1Char('_'), QLatin1Char(' '));
        }
    }
    return labels;
}

} // namespace

class ExportMemoryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void remembersScaleFormatAndTheme();
    void followsTheDarkWindowUnlessPicked();
    void aPickWithTheKeyboardIsRemembered();
    void asksBeforeReplacingAChart();
    void asksBeforeReplacingOnExportAll();
    void asksBeforeReplacingASweepChart();
    void copyFollowsTheSort();
    void fewerCategoriesKeepTheirFigures();
    void unpickedSizeIsTheCommandLines();

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_folder;
};

void ExportMemoryTest::initTestCase()
{
    QVERIFY(m_settings.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_exportmemory"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QCOMPARE(QSettings().fileName(), m_settings.filePath(QStringLiteral("versus-tests/tst_exportmemory.conf")));
}

void ExportMemoryTest::init()
{
    QSettings().clear();
    QSettings().sync();
}

void ExportMemoryTest::remembersScaleFormatAndTheme()
{
    const ResultsBundle bundle = fixtureBundle("hash-ttl-3-versions.json");
    {
        ExportDialog first(Figures(bundle), ChartKind::MemoryPerAttribute);
        QCOMPARE(first.options().scale, 1.0);
        QCOMPARE(int(first.options().formats.front()), int(ImageFormat::Png));
        QCOMPARE(int(first.theme()), int(ColorTheme::Light));
        first.setPreset(QStringLiteral("slide"));
        first.setScale(2);
        first.setFormat(ImageFormat::Svg);
        first.setTheme(ColorTheme::TransparentDark);
    }
    QSettings().sync();
    // What a later launch reads: the file in the settings folder.
    QSettings file(m_settings.filePath(QStringLiteral("versus-tests/tst_exportmemory.conf")), QSettings::IniFormat);
    QCOMPARE(file.value(QStringLiteral("export/scale")).toDouble(), 2.0);
    QCOMPARE(file.value(QStringLiteral("export/format")).toString(), QStringLiteral("svg"));
    QCOMPARE(file.value(QStringLiteral("export/theme")).toString(), QStringLiteral("transparent-dark"));

    ExportDialog second(Figures(bundle), ChartKind::UsecPerCommand);
    const ExportOptions options = second.options();
    QCOMPARE(options.size, QSize(1920, 1080));
    QCOMPARE(options.scale, 2.0);
    QCOMPARE(int(options.formats.front()), int(ImageFormat::Svg));
    QCOMPARE(int(options.theme), int(ColorTheme::TransparentDark));
    QVERIFY(second.outputPath().endsWith(QLatin1String("usec-per-command.svg")));
}

void ExportMemoryTest::followsTheDarkWindowUnlessPicked()
{
    const ResultsBundle bundle = fixtureBundle("hash-ttl-3-versions.json");
    {
        ExportDialog dialog(Figures(bundle), ChartKind::MemoryPerAttribute);
        dialog.setViewTheme(ColorTheme::Dark);
        QCOMPARE(int(dialog.theme()), int(ColorTheme::Dark));
        QCOMPARE(int(dialog.options().theme), int(ColorTheme::Dark));
    }
    {
        // The window's theme was a default, not a pick: light charts export light again.
        ExportDialog dialog(Figures(bundle), ChartKind::MemoryPerAttribute);
        dialog.setViewTheme(ColorTheme::Light);
        QCOMPARE(int(dialog.theme()), int(ColorTheme::Light));
        // Picked under dark charts: the pick holds while the charts stay dark.
        dialog.setViewTheme(ColorTheme::Dark);
        dialog.setTheme(ColorTheme::Transparent);
        dialog.setViewTheme(ColorTheme::Dark);   // changed in the dialog: the window does not undo it
        QCOMPARE(int(dialog.theme()), int(ColorTheme::Transparent));
    }
    ExportDialog dark(Figures(bundle), ChartKind::MemoryPerAttribute);
    dark.setViewTheme(ColorTheme::Dark);
    QCOMPARE(int(dark.theme()), int(ColorTheme::Transparent));
    ExportDialog light(Figures(bundle), ChartKind::MemoryPerAttribute);
    light.setViewTheme(ColorTheme::Light);
    QCOMPARE(int(light.theme()), int(ColorTheme::Light));
}

void ExportMemoryTest::aPickWithTheKeyboardIsRemembered()
{
    const ResultsBundle bundle = fixtureBundle("hash-ttl-3-versions.json");
    {
        ExportDialog dialog(Figures(bundle), ChartKind::MemoryPerAttribute);
        dialog.setViewTheme(ColorTheme::Dark);
        auto *theme = dialog.findChild<QComboBox *>(QStringLiteral("theme"));
        QVERIFY(theme);
        QTest::keyClick(theme, Qt::Key_Down);   // dark → transparent, as a user picks it
        QCOMPARE(int(dialog.theme()), int(ColorTheme::Transparent));
        QTest::keyClick(theme, Qt::Key_Down);
        QCOMPARE(int(dialog.theme()), int(ColorTheme::TransparentDark));
    }
    ExportDialog next(Figures(bundle), ChartKind::MemoryPerAttribute);
    next.setViewTheme(ColorTheme::Dark);
    QCOMPARE(int(next.theme()), int(ColorTheme::TransparentDark));
}

void ExportMemoryTest::asksBeforeReplacingAChart()
{
    QTemporaryDir folder;
    ExportDialog dialog(Figures(fixtureBundle("hash-ttl-3-versions.json")), ChartKind::MemoryPerAttribute);
    dialog.setFolder(folder.path());
    const QString path = folder.filePath(QStringLiteral("memory-per-attribute.png"));
    const QByteArray earlier = QByteArray("an earlier chart\n").repeated(20);
    QVERIFY(writeFile(path, earlier));

    ReplaceAnswer keep;
    keep.answerNext(false);
    QVERIFY(!dialog.exportCurrent().ok());
    QVERIFY(keep.asked);
    QCOMPARE(keep.text, QStringLiteral("This file in %1 would be replaced:").arg(folder.path()));
    QCOMPARE(keep.files, QStringLiteral("• memory-per-attribute.png"));
    QCOMPARE(readFile(path), earlier);
    QCOMPARE(dialog.findChild<QLabel *>(QStringLiteral("exportMessage"))->text(),
             QStringLiteral("Nothing written: memory-per-attribute.png is kept."));
    QCOMPARE(dialog.errorText(), QString());

    ReplaceAnswer replace;
    replace.answerNext(true);
    const Status written = dialog.exportCurrent();
    QVERIFY2(written.ok(), qPrintable(written.error()));
    QVERIFY(replace.asked);
    QCOMPARE(QImage(path).size(), QSize(1200, 675));

    // A new file is written without a question.
    ReplaceAnswer none;
    none.answerNext(false);
    dialog.setChartKind(ChartKind::Throughput);
    QVERIFY(dialog.exportCurrent().ok());
    QTest::qWait(0);
    QVERIFY(!none.asked);
    QVERIFY(QFileInfo::exists(folder.filePath(QStringLiteral("throughput.png"))));
}

void ExportMemoryTest::asksBeforeReplacingOnExportAll()
{
    QTemporaryDir folder;
    const Figures figures(fixtureBundle("hash-ttl-3-versions.json"));
    ExportDialog dialog(figures, ChartKind::MemoryPerAttribute);
    dialog.setFolder(folder.path());
    for (const char *name : {"throughput.png", "results.csv"})
        QVERIFY(writeFile(folder.filePath(QLatin1String(name)), "earlier\n"));

    ReplaceAnswer keep;
    keep.answerNext(false);
    QVERIFY(!dialog.exportEverything().ok());
    QCOMPARE(keep.text, QStringLiteral("These 2 files in %1 would be replaced:").arg(folder.path()));
    QCOMPARE(keep.files, QStringLiteral("• throughput.png\n• results.csv"));
    QCOMPARE(QDir(folder.path()).entryList(QDir::Files, QDir::Name),
             (QStringList{QStringLiteral("results.csv"), QStringLiteral("throughput.png")}));
    QCOMPARE(readFile(folder.filePath(QStringLiteral("results.csv"))), QByteArray("earlier\n"));

    ReplaceAnswer replace;
    replace.answerNext(true);
    const Outcome<QStringList> written = dialog.exportEverything();
    QVERIFY2(written.ok(), qPrintable(written.error()));
    QVERIFY(replace.asked);
    // Each view the bundle has, results.csv, results.json, report.md.
    QCOMPARE(int(written->size()), int(chartKindsOf(figures).size()) + 3);
    QVERIFY(readFile(folder.filePath(QStringLiteral("results.csv"))).startsWith("server,metric,category"));
}

// A sweep's bundle exports its sweep charts too, and asks before replacing one.
void ExportMemoryTest::asksBeforeReplacingASweepChart()
{
    QTemporaryDir folder;
    const Figures figures(fixtureBundle("real-hash-ttl-sweep.json"));
    ExportDialog dialog(figures, ChartKind::MemoryPerAttribute);
    dialog.setFolder(folder.path());
    QVERIFY(writeFile(folder.filePath(QStringLiteral("sweep-ratio.png")), "earlier\n"));

    ReplaceAnswer keep;
    keep.answerNext(false);
    QVERIFY(!dialog.exportEverything().ok());
    QCOMPARE(keep.files, QStringLiteral("• sweep-ratio.png"));
    QCOMPARE(readFile(folder.filePath(QStringLiteral("sweep-ratio.png"))), QByteArray("earlier\n"));

    ReplaceAnswer replace;
    replace.answerNext(true);
    const Outcome<QStringList> written = dialog.exportEverything();
    QVERIFY2(written.ok(), qPrintable(written.error()));
    // Each view the bundle has, results.csv, results.json, report.md, 4 sweep charts (memory,
    // ratio, two of time).
    QCOMPARE(int(written->size()), int(chartKindsOf(figures).size()) + 3 + 4);
    QCOMPARE(QImage(folder.filePath(QStringLiteral("sweep-ratio.png"))).size(), QSize(1200, 675));
}

// Copy gives the tables in the order the charts show under the window's Sort.
void ExportMemoryTest::copyFollowsTheSort()
{
    ResultsView view;
    view.setBundle(fixtureBundle("ecommerce-4-versions.json"));
    ChartWidget *chart = view.chart(ChartKind::MemoryPerAttribute);
    chart->flush();
    const QStringList workload = memoryRows(view.tableAsMarkdown());
    QCOMPARE(workload, chart->categories().mid(1));

    view.setCategoryOrder(CategoryOrder::Value);
    QCOMPARE(int(view.categoryOrder()), int(CategoryOrder::Value));
    chart->flush();
    const QStringList largest = memoryRows(view.tableAsMarkdown());
    QCOMPARE(largest, chart->categories().mid(1));
    QVERIFY(largest != workload);

    view.copyMarkdown();
    QCOMPARE(memoryRows(QApplication::clipboard()->text()), largest);
    view.copyCsv();
    const QStringList csv = QApplication::clipboard()->text().split(QLatin1Char('\n'));
    QStringList csvMemory;
    for (const QString &line : csv) {
        if (line.startsWith(QLatin1String("valkey-8.0.1,bytes_per_key,")) && !line.contains(QLatin1String(",overall,")))
            csvMemory << line.section(QLatin1Char(','), 2, 2).replace(QLatin1Char('_'), QLatin1Char(' '));
    }
    QCOMPARE(csvMemory, largest);
}

// The dialog offers --top and --categories: a crowded chart whose bars lost their figures gets
// them back with fewer categories, and a misspelt name is said with the names there are.
void ExportMemoryTest::fewerCategoriesKeepTheirFigures()
{
    ExportDialog dialog(Figures(fixtureBundle("ecommerce-4-versions.json")), ChartKind::MemoryPerAttribute);
    dialog.setPreset(QStringLiteral("blog"));
    auto *legibility = dialog.findChild<QLabel *>(QStringLiteral("legibility"));
    auto *top = dialog.findChild<QSpinBox *>(QStringLiteral("topCategories"));
    auto *only = dialog.findChild<QLineEdit *>(QStringLiteral("onlyCategories"));
    QVERIFY(legibility && top && only);
    QTRY_VERIFY2(legibility->text().contains(QLatin1String("bar labels left out")), qPrintable(legibility->text()));
    top->setValue(2);
    QTRY_COMPARE(legibility->text(), QString());
    QCOMPARE(dialog.options().topCategories, 2);
    only->setText(QStringLiteral("counter, cpu"));
    QTRY_VERIFY2(legibility->text().startsWith(QStringLiteral("Categories: 'cpu' is not a category of these charts (they have: "
                                                              "All attributes, counter,")),
                 qPrintable(legibility->text()));
    QCOMPARE(dialog.options().onlyCategories, (QStringList{QStringLiteral("counter"), QStringLiteral("cpu")}));
}

// Until a preset is picked, a chart is drawn as versus export draws it without --preset: at
// blog, or at blog-tall where its bars would lose their figures (the dialog started at blog,
// which left every figure off the memory chart of four versions). File ▸ Export chart… as a
// user opens it; a preset picked is kept.
void ExportMemoryTest::unpickedSizeIsTheCommandLines()
{
    const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    ExportOptions blog;
    QVERIFY(!legibilityProblems(Figures(bundle), ChartKind::MemoryPerAttribute, blog).filter(QStringLiteral("bar labels left out")).isEmpty());
    QVERIFY(legibilityProblems(Figures(bundle), ChartKind::Throughput, blog).isEmpty());
    QTemporaryDir folder;
    MainWindow window;
    window.show();
    window.showResults(bundle, QStringLiteral("four.json"));
    window.resultsView()->showChart(ChartKind::MemoryPerAttribute);
    QAction *exportAction = nullptr;
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->text() == QStringLiteral("&Export chart…"))
            exportAction = action;
    }
    QVERIFY(exportAction);

    QStringList presets;   // the preset box as shown: memory chart, then throughput
    QStringList written;
    auto *poll = new QTimer(&window);
    connect(poll, &QTimer::timeout, [&] {
        auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        poll->stop();
        auto *preset = dialog->findChild<QComboBox *>(QStringLiteral("preset"));
        auto *chart = dialog->findChild<QComboBox *>(QStringLiteral("chart"));
        dialog->setFolder(folder.path());
        presets << preset->currentData().toString();
        if (dialog->exportCurrent().ok())
            written << QStringLiteral("memory-per-attribute.png");
        chart->setCurrentIndex(chart->findData(int(ChartKind::Throughput)));
        QTest::qWait(400);   // the preview, and the size shown with it, follow the chart chosen
        presets << preset->currentData().toString();
        dialog->setFolder(folder.filePath(QStringLiteral("all")));
        const Outcome<QStringList> all = dialog->exportEverything();
        if (all)
            written << QStringLiteral("all");
        dialog->reject();
    });
    poll->start(20);
    exportAction->trigger();
    QCOMPARE(presets, (QStringList{QStringLiteral("blog-tall"), QStringLiteral("blog")}));
    QCOMPARE(written, (QStringList{QStringLiteral("memory-per-attribute.png"), QStringLiteral("all")}));
    QCOMPARE(QImage(folder.filePath(QStringLiteral("memory-per-attribute.png"))).size(), QSize(1200, 1500));
    // Export all fits each chart alone.
    QCOMPARE(QImage(folder.filePath(QStringLiteral("all/memory-per-attribute.png"))).size(), QSize(1200, 1500));
    QCOMPARE(QImage(folder.filePath(QStringLiteral("all/throughput.png"))).size(), QSize(1200, 675));
    QVERIFY(!QSettings().contains(QStringLiteral("export/picked-preset")));

    // Picked in the box: kept for every chart, and for the next export.
    {
        ExportDialog dialog(Figures(bundle), ChartKind::MemoryPerAttribute);
        auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("preset"));
        preset->setCurrentIndex(preset->findData(QStringLiteral("blog")));
        Q_EMIT preset->activated(preset->currentIndex());
        QCOMPARE(dialog.options().size, QSize(1200, 675));
    }
    QTemporaryDir later;
    ExportDialog next(Figures(bundle), ChartKind::MemoryPerAttribute);
    QCOMPARE(next.findChild<QComboBox *>(QStringLiteral("preset"))->currentData().toString(), QStringLiteral("blog"));
    next.setFolder(later.path());
    QVERIFY(next.exportCurrent().ok());
    QCOMPARE(QImage(later.filePath(QStringLiteral("memory-per-attribute.png"))).size(), QSize(1200, 675));
}

QTEST_MAIN(ExportMemoryTest)
#include "tst_exportmemory.moc"
