// The window runs a version standalone and as a cluster from the Run panel's Topology field:
// a real Valkey 9.1 from the per-user cache, a small hash-ttl, standalone,cluster:1. A bad
// topology keeps Run off with the reason; a good one gives a series per topology, progress
// rows named by topology, and the Cost of cluster mode tab (with its bars, or saying why it has none).

#include "chartwidget.h"
#include "mainwindow.h"
#include "progresslist.h"
#include "resultstablemodel.h"
#include "resultsview.h"
#include "runpanel.h"
#include "serverspanel.h"
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

#include <algorithm>

class WindowClusterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void badTopologyKeepsTheRunButtonOff();
    void runsBothTopologiesAndShowsTheCost();
    void hashTagChoicesReachTheWorkload();

private:
    void prepare(MainWindow &window, const QString &topology);

    QString m_server;
};

void WindowClusterTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_windowcluster"));
    VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
    m_server = server.label;
}

// The one server, hash-ttl with 300 keys and `topology` in the Topology field, through the controls.
void WindowClusterTest::prepare(MainWindow &window, const QString &topology)
{
    ServersPanel *servers = window.serversPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!servers->isDiscovering(), 60000);
    for (const QString &label : servers->labels())
        servers->setChecked(label, label == m_server);
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    window.findChild<QSpinBox *>(QStringLiteral("hashTtlKeys"))->setValue(300);
    auto *field = window.findChild<QLineEdit *>(QStringLiteral("topology"));
    QVERIFY(field);
    field->setText(topology);
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
}

void WindowClusterTest::badTopologyKeepsTheRunButtonOff()
{
    MainWindow window;
    window.show();
    prepare(window, QStringLiteral("standalone,ring"));
    QVERIFY(!window.runPanel()->runButton()->isEnabled());
    QVERIFY2(window.runBlocker().contains(QLatin1String("'ring' is not a topology (expected standalone, cluster or cluster:N)")),
             qPrintable(window.runBlocker()));
    // Fixed in place: Run comes back, and the field is remembered for the next start.
    window.findChild<QLineEdit *>(QStringLiteral("topology"))->setText(QStringLiteral("standalone,cluster:1"));
    QTRY_VERIFY(window.runPanel()->runButton()->isEnabled());
    QCOMPARE(QSettings().value(QStringLiteral("run/topology")).toString(), QStringLiteral("standalone,cluster:1"));
}

void WindowClusterTest::runsBothTopologiesAndShowsTheCost()
{
    MainWindow window;
    window.show();
    prepare(window, QStringLiteral("standalone,cluster:1"));
    QVERIFY(window.isReady());
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(WindowRun::clickRunOnceReady(window));
    QVERIFY(window.isRunning());
    const QString cluster = m_server + QStringLiteral("-cluster-1");
    QVERIFY(window.progressList()->percent(cluster) >= 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);

    const ResultsBundle results = finished.first().first().value<ResultsBundle>();
    QVERIFY(results.complete);
    QCOMPARE(int(results.servers.size()), 2);
    for (const QString &id : {m_server, cluster}) {
        const ServerRun *run = results.server(id);
        QVERIFY2(run && run->error.isEmpty(), qPrintable(id));
        QCOMPARE(run->repeats.front().byType.at(QStringLiteral("set-ex")).keys, 300LL);
    }
    QCOMPARE(results.server(cluster)->topology.primaries, 1);
    QCOMPARE(results.server(cluster)->repeats.front().byType.at(QStringLiteral("set-ex")).nodes.size(), size_t(1));

    // The table's bytes-per-key cell of the cluster says how its one primary held the keys.
    auto *table = window.findChild<ResultsTableModel *>();
    QVERIFY(table);
    QString tip;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->index(r, ResultsTableModel::ServerColumn).data().toString().endsWith(QStringLiteral("cluster ×1")))
            tip = table->index(r, ResultsTableModel::BytesPerKeyColumn).data(Qt::ToolTipRole).toString();
    QStringList names;
    for (int r = 0; r < table->rowCount(); ++r)
        names << table->index(r, ResultsTableModel::ServerColumn).data().toString();
    QVERIFY2(tip.startsWith(QStringLiteral("Summed over 1 primary; per primary: hsetex: 300–300 keys")) && tip.contains(QStringLiteral("; set-ex: 300–300 keys, ")),
             qPrintable(tip + QLatin1Char('|') + names.join(QLatin1Char(','))));

    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    ChartWidget *cost = window.resultsView()->chart(ChartKind::ClusterOverhead);
    QVERIFY(cost);
    QVERIFY(tabs->isTabVisible(tabs->indexOf(cost)));
    QCOMPARE(tabs->tabText(tabs->indexOf(cost)), QStringLiteral("Cost of cluster mode"));

    // Results without a standalone partner keep the tab, which says why it has no bars.
    ResultsBundle clusterOnly = results;
    clusterOnly.servers.erase(std::remove_if(clusterOnly.servers.begin(), clusterOnly.servers.end(),
                                             [](const ServerRun &run) { return !run.topology.isCluster(); }),
                              clusterOnly.servers.end());
    clusterOnly.baseline = cluster;
    window.showResults(clusterOnly, QStringLiteral("cluster only"));
    QVERIFY(tabs->isTabVisible(tabs->indexOf(cost)));
    cost->flush();
    QCOMPARE(cost->barSetCount(), 0);
    QCOMPARE(cost->emptyText(), QStringLiteral("No version ran both standalone and as a cluster: run with the "
                                               "topology standalone,cluster:1 to see what cluster mode costs."));
}

// The Hash tag boxes: ecommerce without its per-shopper tag, hash-ttl with a per-user one.
void WindowClusterTest::hashTagChoicesReachTheWorkload()
{
    MainWindow window;
    window.show();
    WorkloadPanel *panel = window.workloadPanel();
    auto *kind = window.findChild<QComboBox *>(QStringLiteral("workloadKind"));
    const auto firstKey = [panel] {
        EventCommands event;
        Outcome<std::unique_ptr<CommandSource>> source = panel->workload()->open();
        return source && source.value()->next(event) ? QString::fromStdString(event.commands.front().args[1]) : QString();
    };
    kind->setCurrentIndex(kind->findData(QStringLiteral("ecommerce")));
    auto *shopper = window.findChild<QComboBox *>(QStringLiteral("ecommerceHashTag"));
    QVERIFY(shopper);
    QCOMPARE(shopper->currentData().toString(), QStringLiteral("shopper"));
    QTRY_VERIFY_WITH_TIMEOUT(panel->workload(), 60000);
    QVERIFY2(firstKey().contains(QLatin1Char('{')), qPrintable(firstKey()));
    shopper->setCurrentIndex(shopper->findData(QStringLiteral("none")));
    QTRY_VERIFY_WITH_TIMEOUT(panel->workload(), 60000);
    QCOMPARE(panel->workload()->describe().parameters.at(QStringLiteral("hash-tag")), QStringLiteral("none"));
    QVERIFY2(firstKey().startsWith(QLatin1String("p:")) && !firstKey().contains(QLatin1Char('{')), qPrintable(firstKey()));

    kind->setCurrentIndex(kind->findData(QStringLiteral("hash-ttl")));
    auto *user = window.findChild<QComboBox *>(QStringLiteral("hashTtlHashTag"));
    QVERIFY(user);
    user->setCurrentIndex(user->findData(QStringLiteral("user")));
    QTRY_VERIFY_WITH_TIMEOUT(panel->workload(), 60000);
    QCOMPARE(firstKey(), QStringLiteral("user:{0}"));
    QCOMPARE(QSettings().value(QStringLiteral("workload/hashTtlHashTag")).toString(), QStringLiteral("user"));
}

QTEST_MAIN(WindowClusterTest)
#include "tst_windowcluster.moc"
#include "windowrun.h"
