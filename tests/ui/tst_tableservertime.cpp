// The Table tab says which time each column is: the time inside the commands (commandstats)
// and the server's main-thread CPU per command in all, both read from the figures layer. Fixed
// bundles: no time here is measured.

#include "figures.h"
#include "presentation.h"
#include "resultstablemodel.h"

#include "servertimebundle.h"

#include <QAbstractItemModelTester>
#include <QtTest>

class TestTableServerTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headersSayWhichTime()
    {
        ResultsTableModel model;
        model.setFigures(Figures(withServerTimes(0.9, 1.15, 1.35)));
        const auto header = [&](int column, int role = Qt::DisplayRole) {
            return model.headerData(column, Qt::Horizontal, role).toString();
        };
        QCOMPARE(header(ResultsTableModel::UsecPerCommandColumn), QStringLiteral("µs per command inside the commands (commandstats)"));
        QCOMPARE(header(ResultsTableModel::ServerCpuPerCommandColumn), QStringLiteral("Server CPU µs per command in all (main thread)"));
        QVERIFY2(header(ResultsTableModel::ServerCpuPerCommandColumn, Qt::ToolTipRole).contains(QStringLiteral("INFO cpu")),
                 qPrintable(header(ResultsTableModel::ServerCpuPerCommandColumn, Qt::ToolTipRole)));
    }

    // Each server's cell is the figures layer's main-thread CPU per command, 0.6 µs on 8.0.1 and
    // 15% more on 9.1.2.
    void serverCpuColumnReadsTheFigures()
    {
        const Figures figures(withServerTimes(0.9, 1.15, 1.35));
        ResultsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setFigures(figures);
        const FigureTable cpu = figures.serverTime(Measure::MainThreadCpuPerCall);
        const QStringList ids = figures.serverIds();
        QCOMPARE(model.rowCount(), 2);
        for (int row = 0; row < ids.size(); ++row) {
            const Figure &figure = cpu.at(0, ids[row]);
            QVERIFY(figure.hasValue());
            const QModelIndex cell = model.index(row, ResultsTableModel::ServerCpuPerCommandColumn);
            QCOMPARE(cell.data().toString(), formatFigure(figure.value));
            QCOMPARE(cell.data(ResultsTableModel::SortRole).toDouble(), figure.value);
            QCOMPARE(model.figureAt(row, ResultsTableModel::ServerCpuPerCommandColumn)->value, figure.value);
        }
        QCOMPARE(model.index(0, ResultsTableModel::ServerCpuPerCommandColumn).data().toString(), QStringLiteral("0.60"));
        QCOMPARE(model.index(1, ResultsTableModel::ServerCpuPerCommandColumn).data().toString(), formatFigure(0.6 * 1.15));
    }

    // A bundle from before Versus read the server's clock: no figure, and the cell says why.
    void absentServerCpuSaysWhy()
    {
        ResultsTableModel model;
        model.setFigures(Figures(fixtureBundle("real-ecommerce.json")));
        const QModelIndex cell = model.index(1, ResultsTableModel::ServerCpuPerCommandColumn);
        QCOMPARE(cell.data().toString(), QStringLiteral("–"));
        QCOMPARE(cell.data(Qt::ToolTipRole).toString(), QStringLiteral("not recorded in this bundle"));
    }
};

QTEST_MAIN(TestTableServerTime)
#include "tst_tableservertime.moc"
