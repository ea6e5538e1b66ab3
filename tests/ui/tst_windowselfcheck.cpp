// The Run panel's Self-check does what versus run --self-check does: the run carries the first
// server's build a second time as a series of its own, the result holds that series and the
// self-check figure every view reads, and the choice is remembered for the next start. A short
// real run on a server from the per-user cache.
#include "figures.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverspanel.h"
#include "windowrun.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

class WindowSelfCheckTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowselfcheck"));
        QSettings().clear();
        QString missing;
        m_label = WindowRun::usableServerLabel(QStringLiteral("valkey-9.1."), missing);
        if (m_label.isEmpty())
            VERSUS_SERVER_MISSING(missing);
    }

    void tickedSelfCheckRunsTheFirstServerTwice()
    {
        MainWindow window;
        window.show();
        QVERIFY(WindowRun::prepareHashTtlRun(window, m_label, 300, 2));

        auto *selfCheck = window.runPanel()->findChild<QCheckBox *>(QStringLiteral("selfCheck"));
        QVERIFY(selfCheck);
        QVERIFY(!selfCheck->isChecked());
        // On its box: the row is wider than the box and its text.
        QTest::mouseClick(selfCheck, Qt::LeftButton, {}, QPoint(8, selfCheck->height() / 2));
        QVERIFY(window.runPanel()->selfCheck());
        QVERIFY(window.runPanel()->runButton()->isEnabled());

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(WindowRun::clickRunOnceReady(window));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);

        // The request carried the A/A series: the run measured both, the copy marked as such.
        const QString copyId = m_label + QStringLiteral("-self-check");
        const ResultsBundle results = finished.first().first().value<ResultsBundle>();
        QVERIFY(results.complete);
        QCOMPARE(results.servers.size(), size_t(2));
        const ServerRun *original = results.server(m_label);
        const ServerRun *copy = results.server(copyId);
        QVERIFY(original && copy);
        QVERIFY(!original->selfCheck);
        QVERIFY(copy->selfCheck);
        QCOMPARE(copy->binarySha256, original->binarySha256);
        QCOMPARE(copy->repeats.size(), size_t(2));

        // The self-check figure the views read is the copy against its original.
        const std::optional<SelfCheck> check = window.resultsView()->figures().selfCheck();
        QVERIFY(check);
        QCOMPARE(check->serverId, copyId);
        QCOMPARE(check->ofId, m_label);
        QCOMPARE(check->test.repeats, 2);
        QVERIFY(window.resultsView()->figures().selfCheckSentence().startsWith(QLatin1String("Self-check: Valkey ")));

        // Remembered: the next window starts with it ticked.
        QCOMPARE(QSettings().value(QStringLiteral("run/selfCheck")).toBool(), true);
        RunPanel next;
        QVERIFY(next.selfCheck());
    }

private:
    QString m_label;
};

QTEST_MAIN(WindowSelfCheckTest)
#include "tst_windowselfcheck.moc"
