// The line under the workload: events, commands and, for a workload timed in one pass, commands
// per event. hash-ttl replays each pattern alone (hsetex, set-ex, hset-hexpire), so the commands
// of all three over the events of one ("4.00 commands per event") described none of its passes.
#include "workloadpanel.h"

#include <QSettings>
#include <QtTest>

class WorkloadSummaryTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void summarySaysWhatOnePassIs_data();
    void summarySaysWhatOnePassIs();
};

void WorkloadSummaryTest::init()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_workloadsummary"));
    QSettings().clear();
}

void WorkloadSummaryTest::summarySaysWhatOnePassIs_data()
{
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QString>("firstLine");
    QTest::newRow("ecommerce") << QStringLiteral("ecommerce")
                               << QStringLiteral("<b>20,000</b> events · <b>535,380</b> commands · "
                                                 "<b>26.8</b> commands per event");
    QTest::newRow("hash-ttl") << QStringLiteral("hash-ttl")
                              << QStringLiteral("<b>20,000</b> events per pattern · <b>80,000</b> commands in all · "
                                                "each pattern is replayed and timed on its own");
}

void WorkloadSummaryTest::summarySaysWhatOnePassIs()
{
    QFETCH(QString, workload);
    QFETCH(QString, firstLine);
    WorkloadPanel panel;
    panel.startFromDefaults();
    panel.choose(workload);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isPreparing() && panel.workload(), 60000);
    const QString summary = panel.summaryText();
    QCOMPARE(summary.section(QStringLiteral("<br>"), 0, 0), firstLine);
    QVERIFY2(workload != QLatin1String("hash-ttl") || !summary.contains(QLatin1String("per event")),
             qPrintable(summary));
}

QTEST_MAIN(WorkloadSummaryTest)
#include "tst_workloadsummary.moc"
