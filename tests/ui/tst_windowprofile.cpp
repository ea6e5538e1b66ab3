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
        ServerCatalog catalog;
        catalog.discover();
        for (const CatalogEntry &entry : catalog.entries()) {
            if (entry.usable() && entry.spec.label.startsWith(QLatin1String("valkey-9.1.")))
                m_label = entry.spec.label;
        }
        if (m_label.isEmpty()) {
            const QString missing = QStringLiteral("a valkey-9.1.x is needed in %1 (scripts/fetch-servers)").arg(ServerCatalog::defaultCacheDir());
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(missing));
            QSKIP(qPrintable(missing));
        }
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

        ServersPanel *servers = window.serversPanel();
        QTRY_VERIFY_WITH_TIMEOUT(!servers->isDiscovering(), 60000);
        for (const QString &label : servers->labels())
            servers->setChecked(label, label == m_label);
        auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
        window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(20000);
        QTRY_VERIFY_WITH_TIMEOUT(window.isReady(), 60000);

        auto *profile = window.runPanel()->findChild<QCheckBox *>(QStringLiteral("profile"));
        QVERIFY(profile);
        QVERIFY(!profile->isChecked());
        QTest::mouseClick(profile, Qt::LeftButton, {}, QPoint(8, profile->height() / 2));
        QVERIFY(window.runPanel()->profile());

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QTest::mouseClick(window.runPanel()->runButton(), Qt::LeftButton);
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
