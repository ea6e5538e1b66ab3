// The Run panel's Profile (perf) box does what versus run --profile does: the run ends with an
// untimed pass under perf, the Profile tab charts its categories, and the choice is remembered.
// Before a profile the tab says how to get one. A short real run on a server from the per-user
// cache.
#include "figureviews.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "runpanel.h"
#include "servercatalog.h"
#include "serverspanel.h"
#include "windowrun.h"

#include "chartwidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

class WindowProfileTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowprofile"));
        QSettings().clear();
        QString missing;
        m_label = WindowRun::usableServerLabel(QStringLiteral("valkey-9.1."), missing);
        if (m_label.isEmpty())
            VERSUS_SERVER_MISSING(missing);
    }

    void tickedProfileChartsTheCategories()
    {
        MainWindow window;
        window.show();
        ChartWidget *chart = window.resultsView()->chart(ChartKind::Profile);
        QVERIFY(chart);
        chart->flush();
        QVERIFY2(chart->emptyText().contains(QStringLiteral("--profile")) || chart->emptyText().startsWith(QStringLiteral("No results")),
                 qPrintable(chart->emptyText()));

        QVERIFY(WindowRun::prepareHashTtlRun(window, m_label, 20000, 1));

        auto *profile = window.runPanel()->findChild<QCheckBox *>(QStringLiteral("profile"));
        QVERIFY(profile);
        QVERIFY(!profile->isChecked());
        QTest::mouseClick(profile, Qt::LeftButton, {}, QPoint(8, profile->height() / 2));
        QVERIFY(window.runPanel()->profile());

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QVERIFY(WindowRun::clickRunOnceReady(window));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const ResultsBundle results = finished.first().first().value<ResultsBundle>();
        QVERIFY(results.complete);
        const ServerProfile &recorded = results.servers.front().profile;
        if (QStandardPaths::findExecutable(QStringLiteral("perf")).isEmpty()) {
            QVERIFY2(recorded.unavailable.contains(QStringLiteral("perf is not installed")), qPrintable(recorded.unavailable));
        } else {
            QVERIFY2(recorded.recorded(), qPrintable(recorded.unavailable));
            chart->flush();
            QVERIFY2(chart->emptyText().isEmpty(), qPrintable(chart->emptyText()));
            // One stacked bar, its parts the categories.
            QCOMPARE(chart->categories().size(), 1);
            QVERIFY(chart->seriesNames().contains(QStringLiteral("hash table lookups")));
        }

        // Remembered: the next window starts with it ticked.
        QCOMPARE(QSettings().value(QStringLiteral("run/profile")).toBool(), true);
        RunPanel next;
        QVERIFY(next.profile());
    }

private:
    QString m_label;
};

QTEST_MAIN(WindowProfileTest)
#include "tst_windowprofile.moc"
