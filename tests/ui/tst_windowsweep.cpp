// The window starts a sweep from the workload panel's Sweep field and draws it: real servers
// from the per-user cache (Valkey 8.1.1 and 9.1.x), a small hash-ttl swept over value-size.

#include "mainwindow.h"
#include "presentation.h"
#include "progresslist.h"
#include "resultsview.h"
#include "runcoordinator.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverspanel.h"
#include "sweepbundle.h"
#include "sweepchartwidget.h"
#include "workloadpanel.h"
#include "servertesthelpers.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

class WindowSweepTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void badSweepKeepsTheRunButtonOff();
    void runsASweepAndDrawsIt();

private:
    void prepare(MainWindow &window, const QString &sweep);

    QString m_old;
    QString m_new;
    QString m_newVersion;
};

void WindowSweepTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowsweep"));
    VERSUS_REQUIRE_SERVER(older, "valkey-8.1.1");
    VERSUS_REQUIRE_SERVER(newer, "valkey-9.1.");
    m_old = older.label;
    m_new = newer.label;
    m_newVersion = newer.identity.version;
}

// The two servers, hash-ttl with 300 keys and `sweep` in the Sweep field, through the controls.
void WindowSweepTest::prepare(MainWindow &window, const QString &sweep)
{
    ServersPanel *servers = window.serversPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!servers->isDiscovering(), 60000);
    for (const QString &label : servers->labels())
        servers->setChecked(label, label == m_old || label == m_new);
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(300);
    auto *field = window.findChild<QLineEdit *>(QStringLiteral("hashTtlSweep"));
    QVERIFY(field);
    field->setText(sweep);
    Q_EMIT field->editingFinished();
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
}

void WindowSweepTest::badSweepKeepsTheRunButtonOff()
{
    MainWindow window;
    window.show();
    prepare(window, QStringLiteral("value-size=16"));
    QVERIFY(!window.workloadPanel()->workload());
    QCOMPARE(window.workloadPanel()->error(),
             QStringLiteral("--sweep value-size: a sweep needs at least two values, got one (16)"));
    QVERIFY(!window.runPanel()->runButton()->isEnabled());
}

void WindowSweepTest::runsASweepAndDrawsIt()
{
    MainWindow window;
    window.show();
    prepare(window, QStringLiteral("value-size=16,64"));
    QVERIFY(window.isReady());
    QVERIFY(window.workloadPanel()->sweep());
    QVERIFY2(window.workloadPanel()->summaryText().contains(QLatin1String("Sweep of value-size over 16, 64: 2 runs")),
             qPrintable(window.workloadPanel()->summaryText()));

    auto *coordinator = window.findChild<RunCoordinator *>();
    QVERIFY(coordinator);
    QSignalSpy points(coordinator, &RunCoordinator::sweepPointStarted);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(WindowRun::clickRunOnceReady(window));
    QVERIFY(window.isRunning());
    QCOMPARE(window.progressList()->sweepPoint(), QStringLiteral("Sweep: value-size=16 (1 of 2)"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);
    QCOMPARE(points.count(), 2);
    QCOMPARE(points.at(1).first().toString(), QStringLiteral("value-size=64 (2 of 2)"));
    // The sweep ends once: not also at its last point.
    QTest::qWait(300);
    QCOMPARE(finished.count(), 1);
    QVERIFY(!window.isRunning());

    const ResultsBundle results = finished.first().first().value<ResultsBundle>();
    QVERIFY(results.isSweep());
    QVERIFY(results.complete);
    QCOMPARE(results.sweep.points.size(), size_t(2));
    for (int i = 0; i < 2; ++i) {
        const ResultsBundle point = sweepPointBundle(results, i);
        QCOMPARE(point.workload.parameters.at(QStringLiteral("value-size")), i == 0 ? QStringLiteral("16") : QStringLiteral("64"));
        QCOMPARE(point.server(m_new)->repeats.front().byType.at(QStringLiteral("hsetex")).keys, 300LL);
        QCOMPARE(point.server(m_old)->repeats.front().byType.at(QStringLiteral("set-ex")).keys, 300LL);
    }

    // The Sweep tab is shown, its lines named by pattern and version.
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    SweepChartWidget *sweep = window.resultsView()->sweepView();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(sweep));
    QVERIFY(tabs->isTabVisible(tabs->indexOf(sweep)));
    QCOMPARE(sweep->lineLabels(),
             (QStringList{QStringLiteral("set-ex · 8.1.1"), QStringLiteral("hsetex · ") + m_newVersion,
                          QStringLiteral("set-ex · ") + m_newVersion, QStringLiteral("hset-hexpire · ") + m_newVersion}));
    QVERIFY(sweep->titleText().contains(QLatin1String("Memory per key against value-size, hash-ttl")));
    sweep->setKind(SweepChartKind::Ratio);
    QCOMPARE(sweep->lineLabels(), (QStringList{QStringLiteral("hsetex · ") + m_newVersion,
                                               QStringLiteral("hset-hexpire · ") + m_newVersion}));
}

QTEST_MAIN(WindowSweepTest)
#include "tst_windowsweep.moc"
#include "windowrun.h"
