// A hash-ttl run's results opened in the window (fixtures of real runs), read as a user reads
// them: the µs per command chart says why a command was not run in one pair of parentheses, the
// Why tab explains the server the answer names, the Table tab carries the answer's figures
// (set-ex's bytes per key and hsetex's multiple of them), and the Configuration tab does not call
// an unset hash-seed a setting that bears on memory or server time.
#include "fixturebundle.h"
#include "chartwidget.h"
#include "figures.h"
#include "mainwindow.h"
#include "presentation.h"
#include "resultstablemodel.h"
#include "resultsview.h"
#include "whychart.h"
#include "whychartwidget.h"
#include "whyview.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>

namespace {

void showTab(ResultsView *view, const QString &title)
{
    auto *tabs = view->findChild<QTabWidget *>(QStringLiteral("resultTabs"));
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i) == title)
            tabs->setCurrentIndex(i);
    }
    QCOMPARE(tabs->tabText(tabs->currentIndex()), title);
}

// The section of the Configuration tab that holds `setting`, or empty.
QString sectionOf(const QTreeWidget *tree, const QString &setting)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *section = tree->topLevelItem(i);
        for (int row = 0; row < section->childCount(); ++row) {
            if (section->child(row)->text(0) == setting)
                return section->text(0);
        }
    }
    return QString();
}

// The table's text as shown: header, then the row of `server`, column by column, hidden ones left out.
QStringList shownRow(const QTableView *table, const QString &server)
{
    QStringList header, cells;
    const QAbstractItemModel *model = table->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, ResultsTableModel::ServerColumn).data().toString() != server)
            continue;
        for (int column = 0; column < model->columnCount(); ++column) {
            if (!table->isColumnHidden(column))
                cells << model->headerData(column, Qt::Horizontal).toString() + QStringLiteral(": ")
                             + model->index(row, column).data().toString();
        }
    }
    return cells;
}

// Picks `id` in the Why tab's chooser as a user does, and lets the tab lay it out.
void chooseWhyCategory(WhyView *why, const QString &id)
{
    auto *chooser = why->findChild<QComboBox *>(QStringLiteral("whyCategory"));
    const int index = chooser->findData(id);
    QVERIFY2(index >= 0, qPrintable(id));
    chooser->setCurrentIndex(index);
    Q_EMIT chooser->activated(index);
    why->flush();
}

} // namespace

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

    // With Redis 8.0 beside the Valkey versions, the answer quotes Valkey 9.1.2 (the newest of the
    // baseline's product); the Why tab's line about hsetex against set-ex was about Redis 8.0.2.
    void whyExplainsTheServerTheAnswerNames()
    {
        const ResultsBundle bundle = hashTtlBundleWithRedis();
        const Figures figures(bundle);
        QVERIFY2(figures.answer().startsWith(QStringLiteral("On Valkey 9.1.2, hsetex takes ")), qPrintable(figures.answer()));

        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.showResults(bundle, QStringLiteral("hash-ttl.json"));
        ResultsView *view = window.resultsView();
        showTab(view, QStringLiteral("Why"));
        WhyView *why = view->whyView();
        chooseWhyCategory(why, QStringLiteral("hsetex"));
        QCOMPARE(why->categoryId(), QStringLiteral("hsetex"));
        const QString sentences = why->sentencesText();
        QVERIFY2(sentences.contains(QStringLiteral("On Valkey 9.1.2, of the ")), qPrintable(sentences));
        QVERIFY2(sentences.contains(QStringLiteral(" a hsetex key takes beyond a set-ex key")), qPrintable(sentences));
        QVERIFY2(!sentences.contains(QStringLiteral("On Redis 8.0.2")), qPrintable(sentences));
    }

    // With only Valkey 8.0.1 shown, no server ran hsetex: the Why tab showed two set-ex bars and
    // no sentence. An empty comparison says why it is empty, and draws no bar of another type.
    void anEmptyComparisonSaysWhy()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-hash-ttl.json");
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.showResults(bundle, QStringLiteral("hash-ttl.json"));
        ResultsView *view = window.resultsView();
        view->setHiddenVersions({QStringLiteral("valkey-9.1.2")});
        showTab(view, QStringLiteral("Why"));
        WhyView *why = view->whyView();
        why->flush();
        // Opened on the one category that has parts: set-ex, alone.
        QCOMPARE(why->categoryId(), QStringLiteral("set-ex"));
        QCOMPARE(why->chartWidget()->chart()->data().bars.size(), size_t(1));
        chooseWhyCategory(why, QStringLiteral("hsetex"));
        QCOMPARE(why->categoryId(), QStringLiteral("hsetex"));
        QCOMPARE(why->chartWidget()->chart()->data().bars.size(), size_t(0));
        QCOMPARE(why->emptyText(), QStringLiteral("No shown server measured hsetex: Valkey 8.0.1 does not support it "
                                                  "(ERR unknown command 'HSETEX'). Choose set-ex to see its parts."));
        QCOMPARE(why->titleText(), QStringLiteral("Where each key's bytes go — hsetex"));
    }

    // hash-ttl has no total: the table showed "–" for bytes per key and µs per command on every
    // server. The answer's figures are there now: set-ex's bytes per key and µs per command, and
    // hsetex as a multiple of set-ex's bytes (summaryfigures.h).
    void theTableCarriesTheAnswersFigures()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl.json");
        const Figures figures(bundle);
        const FigureTable memory = figures.memory();
        const FigureTable ratios = figures.referenceRatios();
        const QString newer = QStringLiteral("valkey-9.1.2");
        const double setEx = memory.at(memory.categoryIndex(QStringLiteral("set-ex")), newer).value;
        const double ratio = ratios.at(ratios.categoryIndex(QStringLiteral("hsetex")), newer).value;

        MainWindow window;
        window.show();
        window.showResults(bundle, QStringLiteral("hash-ttl.json"));
        showTab(window.resultsView(), QStringLiteral("Table"));
        auto *table = window.resultsView()->findChild<QTableView *>(QStringLiteral("resultsTable"));
        QVERIFY(table);
        const QStringList row = shownRow(table, QStringLiteral("Valkey 9.1.2"));
        QVERIFY2(row.contains(QStringLiteral("Bytes per key, set-ex: %1").arg(formatFigure(setEx))), qPrintable(row.join(" | ")));
        QVERIFY2(row.contains(QStringLiteral("hsetex ÷ set-ex: %1").arg(formatMultiple(ratio))), qPrintable(row.join(" | ")));
        // µs per command: set-ex's too (SET, its one command), where "–" stood.
        const FigureTable times = figures.commandTime();
        const double setExTime = times.at(times.categoryIndex(QStringLiteral("set")), newer).value;
        QVERIFY2(row.contains(QStringLiteral("µs inside the commands (commandstats), SET: %1").arg(formatFigure(setExTime))),
                 qPrintable(row.join(" | ")));
        // Valkey 8.0.1 has no HSETEX: its set-ex figure, and the ratio said unsupported.
        const QStringList older = shownRow(table, QStringLiteral("Valkey 8.0.1"));
        QVERIFY2(older.contains(QStringLiteral("hsetex ÷ set-ex: unsupported")), qPrintable(older.join(" | ")));
        QVERIFY2(!older.contains(QStringLiteral("Bytes per key, set-ex: –")), qPrintable(older.join(" | ")));

        // A workload without a reference type has no such column.
        window.showResults(fixtureBundle("real-ecommerce.json"), QStringLiteral("ecommerce.json"));
        QVERIFY(table->isColumnHidden(ResultsTableModel::ReferenceRatioColumn));
        QCOMPARE(table->model()->headerData(ResultsTableModel::BytesPerKeyColumn, Qt::Horizontal).toString(), QStringLiteral("Bytes per key"));
    }

    // hash-seed exists from Valkey 9.0; left empty it is a random seed at every start, as on 8.0.
    void anUnsetHashSeedBearsOnNoFigure()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-hash-ttl.json");
        QCOMPARE(bundle.server(QStringLiteral("valkey-9.1.2"))->config.at(QStringLiteral("hash-seed")), QString());
        QVERIFY(!bundle.server(QStringLiteral("valkey-8.0.1"))->config.count(QStringLiteral("hash-seed")));
        MainWindow window;
        window.show();
        window.showResults(bundle, QStringLiteral("hash-ttl.json"));
        showTab(window.resultsView(), QStringLiteral("Configuration"));
        auto *tree = window.resultsView()->findChild<QTreeWidget *>(QStringLiteral("configuration"));
        QVERIFY(tree);
        QCOMPARE(sectionOf(tree, QStringLiteral("hash-seed")), QStringLiteral("Only some versions have"));
    }
};

QTEST_MAIN(WindowHashTtlTest)
#include "tst_windowhashttl.moc"
