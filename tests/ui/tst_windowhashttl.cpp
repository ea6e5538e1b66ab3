// A hash-ttl run's results opened in the window (fixtures of real runs), read as a user reads
// them: the µs per command chart says why a command was not run in one pair of parentheses.
#include "fixturebundle.h"
#include "chartwidget.h"
#include "figures.h"
#include "mainwindow.h"
#include "presentation.h"
#include "resultstablemodel.h"
#include "resultsview.h"
#include "whyview.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>

class WindowHashTtlTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowhashttl"));
        QSettings().clear();
    }

    // Valkey 8.0.1 refused hset-hexpire for HEXPIRE, so it never ran HSET: the bar's marker says
    // so, and names the server, in one pair of parentheses ("not run (…) (Valkey 8.0.1)" before).
    void aCommandNotRunIsSaidOnce()
    {
        MainWindow window;
        window.show();
        window.showResults(fixtureBundle("real-hash-ttl.json"), QStringLiteral("hash-ttl.json"));
        ResultsView *view = window.resultsView();
        view->showChart(ChartKind::UsecPerCommand);
        ChartWidget *chart = view->chart(ChartKind::UsecPerCommand);
        chart->flush();
        QStringList notRun;
        for (const PlacedLabel &label : chart->barLabels()) {
            if (label.text.contains(QLatin1String("not run")))
                notRun << label.text;
        }
        QCOMPARE(notRun, QStringList{QStringLiteral("not run: hset-hexpire is unsupported (Valkey 8.0.1)")});
    }

};

QTEST_MAIN(WindowHashTtlTest)
#include "tst_windowhashttl.moc"
