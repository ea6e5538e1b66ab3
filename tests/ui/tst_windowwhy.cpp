// The Why tab: always there beside the chart tabs, empty with a sentence before any results; with
// real results (fixtures made by real runs) it offers All attributes and each type as the memory
// chart has them, and its chart, title and sentences follow the category chosen.
#include "figures.h"
#include "fixturebundle.h"
#include "memoryexplanation.h"
#include "presentation.h"
#include "resultsview.h"
#include "whychart.h"
#include "whychartwidget.h"
#include "whyview.h"

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

class WindowWhyTest : public QObject {
    Q_OBJECT

private:
    static QTabWidget *tabsOf(ResultsView &view) { return view.findChild<QTabWidget *>(QStringLiteral("resultTabs")); }

    static int tabIndex(QTabWidget *tabs, const QString &title)
    {
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == title)
                return i;
        return -1;
    }

private Q_SLOTS:
    void theTabIsThereBeforeAnyResults()
    {
        ResultsView view;
        view.resize(1200, 800);
        view.show();
        QTabWidget *tabs = tabsOf(view);
        const int why = tabIndex(tabs, QStringLiteral("Why"));
        QVERIFY(why >= 0);
        // Beside the charts: after the server-side tails, before the time Why, the profile and the table.
        QCOMPARE(tabs->tabText(why - 1), QStringLiteral("Server-side p99"));
        QCOMPARE(tabs->tabText(why + 1), QStringLiteral("Why (time)"));
        QCOMPARE(tabs->tabText(why + 2), QStringLiteral("Profile"));
        QCOMPARE(tabs->tabText(why + 3), QStringLiteral("Table"));
        tabs->setCurrentIndex(why);
        view.whyView()->flush();
        QVERIFY(view.whyView()->emptyText().startsWith(QStringLiteral("No results yet")));
        QVERIFY(view.whyView()->chartWidget()->chart()->data().bars.empty());
        QVERIFY(!view.whyView()->allocationsTable()->isVisible());
    }

    void followsTheCategoryChosen()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-ecommerce.json");
        ResultsView view;
        view.resize(1400, 900);
        view.show();
        view.showOpenedBundle(bundle);
        QTabWidget *tabs = tabsOf(view);
        tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Why")));
        WhyView *why = view.whyView();
        why->flush();
        const Figures figures(bundle);
        QStringList labels;
        for (const FigureCategory &category : figures.memory().categories)
            labels << category.label;
        QCOMPARE(why->categoryLabels(), labels);
        QCOMPARE(why->categoryId(), QStringLiteral("all"));
        QCOMPARE(why->titleText(), QStringLiteral("Where each key's bytes go — All attributes: 191.4 → 175.4 B per key"));
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("headline"))->text(), why->titleText());
        QCOMPARE(why->chartWidget()->chart()->data().bars.size(), size_t(3));
        QVERIFY(why->sentencesText().contains(figures.explainMemory(QStringLiteral("all")).sentence.toHtmlEscaped()));

        // The chooser drives the chart: a type's own parts, title and sentence.
        auto *chooser = why->findChild<QComboBox *>(QStringLiteral("whyCategory"));
        const int counter = chooser->findData(QStringLiteral("counter"));
        QVERIFY(counter > 0);
        chooser->setCurrentIndex(counter);
        Q_EMIT chooser->activated(counter);
        QCOMPARE(why->categoryId(), QStringLiteral("counter"));
        QCOMPARE(why->titleText(), QStringLiteral("Where each key's bytes go — counter: 132.7 → 113.0 B per key"));
        const MemoryExplanation expected = figures.explainMemory(QStringLiteral("counter"));
        const WhyChartData &shown = why->chartWidget()->chart()->data();
        QCOMPARE(shown.categoryId, QStringLiteral("counter"));
        QCOMPARE(shown.bars.size(), expected.servers.size());
        for (size_t i = 0; i < shown.bars.size(); ++i)
            QCOMPARE(shown.bars[i].bytesPerKey, expected.servers[i].bytesPerKey);
        QVERIFY(why->sentencesText().contains(expected.sentence.toHtmlEscaped()));

        // New results keep the category chosen.
        view.setBundle(bundle);
        why->flush();
        QCOMPARE(why->categoryId(), QStringLiteral("counter"));

        // Allocations per key by size class: a row per server with MALLOC-STATS, its total last.
        const QTableWidget *table = why->allocationsTable();
        QVERIFY(table->isVisible());
        QCOMPARE(table->rowCount(), int(expected.servers.size()));
        QCOMPARE(table->item(0, 0)->text(), figures.summary(expected.servers[0].serverId).name);
        const int last = table->columnCount() - 1;
        QCOMPARE(table->horizontalHeaderItem(last)->text(), QStringLiteral("every class"));
        QCOMPARE(table->item(0, last)->text(), formatFigure(expected.servers[0].allocationsPerKey));
    }
};

QTEST_MAIN(WindowWhyTest)
#include "tst_windowwhy.moc"
