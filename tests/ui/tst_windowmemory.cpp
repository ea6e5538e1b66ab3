// What the window keeps and what it resets, in settings of the test's own in a temporary
// folder: the baseline box fits its names, an opened bundle brings its own baseline and shows
// every version, recent files, and a restart that restores the view and the window's size.
#include "fixturebundle.h"
#include "bundlefiles.h"
#include "bundlejson.h"
#include "chartwidget.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "uisettings.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QMenu>
#include <QToolButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QStringList recentMenuPaths(MainWindow &window)
{
    QMenu *menu = window.recentFilesMenu();
    Q_EMIT menu->aboutToShow();   // as when the user opens it
    QStringList paths;
    for (QAction *action : menu->actions()) {
        if (!action->data().toString().isEmpty())
            paths << action->data().toString();
    }
    return paths;
}

} // namespace

class WindowMemoryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void baselineBoxFitsItsLongestName();
    void openingABundleBringsItsOwnBaseline();
    void recentFilesKeepEightThatExist();
    void restartRestoresTheView();
    void restoredBaselineWaitsForItsServer();

private:
    QTemporaryDir m_settings;
};

void WindowMemoryTest::initTestCase()
{
    QVERIFY(m_settings.isValid());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowmemory"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QVERIFY(QSettings().fileName().startsWith(m_settings.path()));
}

void WindowMemoryTest::init()
{
    QSettings().clear();
}

// The box is as wide as its widest entry, swatch included, even in a window too narrow for
// the row (it used to shrink to its minimum and cut the name).
void WindowMemoryTest::baselineBoxFitsItsLongestName()
{
    ResultsView view;
    view.resize(420, 480);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // Long names: a merged comparison names each version with its bundle.
    const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    view.setBundle(bundle);
    view.setBaseline(QStringLiteral("redis-7.0.15"));
    QApplication::processEvents();
    auto *box = view.findChild<QComboBox *>(QStringLiteral("baseline"));
    QVERIFY(box);
    QCOMPARE(box->count(), 5);
    const QFontMetrics metrics(box->font());
    int widest = 0;
    QString widestText;
    for (int i = 0; i < box->count(); ++i) {
        const int width = metrics.horizontalAdvance(box->itemText(i)) + (box->itemIcon(i).isNull() ? 0 : box->iconSize().width() + 4);
        if (width > widest) {
            widest = width;
            widestText = box->itemText(i);
        }
    }
    QVERIFY2(box->width() >= widest + 20,
             qPrintable(QStringLiteral("box %1 px, \"%2\" needs %3 px").arg(box->width()).arg(widestText).arg(widest)));
    QCOMPARE(box->currentText(), QStringLiteral("Redis 7.0.15"));
}

void WindowMemoryTest::openingABundleBringsItsOwnBaseline()
{
    MainWindow window;
    ResultsView *view = window.resultsView();
    ResultsBundle first = fixtureBundle("ecommerce-4-versions.json");
    window.showResults(first, QStringLiteral("first.json"));
    view->setBaseline(QStringLiteral("valkey-9.1.2"));
    view->setHiddenVersions({QStringLiteral("redis-7.0.15")});
    QCOMPARE(view->chart(ChartKind::MemoryPerAttribute)->barSetCount(), 3);

    // The same servers, saved with a baseline of their own.
    ResultsBundle second = first;
    second.baseline = QStringLiteral("valkey-8.1.1");
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("second.json"));
    QVERIFY(saveBundleFile(second, path).ok());
    QVERIFY(window.openBundleFile(path));
    QCOMPARE(view->baseline(), QStringLiteral("valkey-8.1.1"));
    QCOMPARE(view->hiddenVersions(), QStringList());
    QCOMPARE(view->chart(ChartKind::MemoryPerAttribute)->barSetCount(), 4);
    QCOMPARE(view->findChild<QComboBox *>(QStringLiteral("baseline"))->currentText(), QStringLiteral("Valkey 8.1.1"));
    QCOMPARE(shownResults(view->figures()).baseline, QStringLiteral("valkey-8.1.1"));

    // Without one: the oldest version, not the one chosen for the bundle before.
    view->setBaseline(QStringLiteral("valkey-9.1.2"));
    window.showResults(first, QStringLiteral("first.json"));
    QCOMPARE(view->baseline(), QString());
    QCOMPARE(view->findChild<QComboBox *>(QStringLiteral("baseline"))->currentIndex(), 0);
    QCOMPARE(shownResults(view->figures()).baseline, first.baseline);
}

void WindowMemoryTest::recentFilesKeepEightThatExist()
{
    QTemporaryDir folder;
    const ResultsBundle bundle = fixtureBundle("hash-ttl-3-versions.json");
    MainWindow window;
    QCOMPARE(recentMenuPaths(window), QStringList());
    QStringList opened;
    for (int i = 0; i < 10; ++i) {
        const QString path = folder.filePath(QStringLiteral("run-%1.json").arg(i));
        QVERIFY(saveBundleFile(bundle, path).ok());
        QVERIFY(window.openBundleFile(path));
        opened.prepend(path);
    }
    QCOMPARE(recentMenuPaths(window), opened.mid(0, 8));
    // Opened again: to the front, not twice.
    QVERIFY(window.openBundleFile(opened[5]));
    const QStringList reordered = QStringList{opened[5], opened[0], opened[1], opened[2], opened[3], opened[4], opened[6], opened[7]};
    QCOMPARE(recentMenuPaths(window), reordered);

    // A deleted file leaves the menu and the settings.
    QVERIFY(QFile::remove(opened[1]));
    QStringList remaining = reordered;
    remaining.removeAll(opened[1]);
    QCOMPARE(recentMenuPaths(window), remaining);
    QCOMPARE(QSettings().value(QStringLiteral("files/recent")).toStringList(), remaining);

    // What the menu entry does: open that file.
    QAction *entry = window.recentFilesMenu()->actions().at(1);
    QCOMPARE(entry->data().toString(), opened[0]);
    entry->trigger();
    QCOMPARE(window.windowTitle(), QStringLiteral("run-9.json"));

    MainWindow later;   // the next launch
    QCOMPARE(recentMenuPaths(later).front(), opened[0]);
}

void WindowMemoryTest::restartRestoresTheView()
{
    const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resultsView()->setBundle(bundle);
        window.resultsView()->setBaseline(QStringLiteral("valkey-8.1.1"));
        window.resultsView()->setHiddenVersions({QStringLiteral("redis-7.0.15")});
        window.resultsView()->setCategoryOrder(CategoryOrder::Name);
        window.findChild<QActionGroup *>()->actions().at(1)->trigger();   // View ▸ Dark charts
        QCOMPARE(int(window.resultsView()->theme()), int(ColorTheme::Dark));
        window.resize(1111, 777);
        QApplication::processEvents();
        window.close();
    }
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1111, 777));
    ResultsView *view = window.resultsView();
    QCOMPARE(int(view->categoryOrder()), int(CategoryOrder::Name));
    QCOMPARE(int(view->theme()), int(ColorTheme::Dark));
    QVERIFY(window.findChild<QActionGroup *>()->actions().at(1)->isChecked());
    // The results of the next run (a run hands the view its results as setBundle does).
    view->setBundle(bundle);
    QCOMPARE(view->baseline(), QStringLiteral("valkey-8.1.1"));
    QCOMPARE(view->hiddenVersions(), QStringList{QStringLiteral("redis-7.0.15")});
    ChartWidget *chart = view->chart(ChartKind::MemoryPerAttribute);
    chart->flush();
    QCOMPARE(chart->barSetCount(), 3);
    QStringList rest = chart->categories().mid(1);
    QStringList sorted = rest;
    std::sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    QCOMPARE(rest, sorted);
}

// A remembered baseline the results do not have is not shown (the oldest version is) and waits
// for results that have it.
void WindowMemoryTest::restoredBaselineWaitsForItsServer()
{
    ResultsViewState remembered;
    remembered.baseline = QStringLiteral("redis-7.0.15");
    remembered.hidden = {QStringLiteral("valkey-7.2.4")};
    UiSettings::setResultsView(remembered);
    MainWindow window;
    ResultsView *view = window.resultsView();
    view->setBundle(fixtureBundle("hash-ttl-3-versions.json"));
    QVERIFY(!view->bundle().server(QStringLiteral("redis-7.0.15")));
    QCOMPARE(view->baseline(), QString());
    QCOMPARE(view->findChild<QComboBox *>(QStringLiteral("baseline"))->currentIndex(), 0);
    // A hidden version these results lack is not counted as hidden.
    QCOMPARE(view->hiddenVersions(), QStringList());
    QCOMPARE(view->findChild<QToolButton *>(QStringLiteral("versions"))->text(), QStringLiteral("Versions ▾"));
    // Results that have it (the next run, with Redis selected again) take it up.
    view->setBundle(fixtureBundle("ecommerce-4-versions.json"));
    QCOMPARE(view->baseline(), QStringLiteral("redis-7.0.15"));
    QCOMPARE(view->findChild<QComboBox *>(QStringLiteral("baseline"))->currentText(), QStringLiteral("Redis 7.0.15"));
}

QTEST_MAIN(WindowMemoryTest)
#include "tst_windowmemory.moc"
