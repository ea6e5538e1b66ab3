// The Sort reaches the tables: the Markdown and the CSV list their categories in the order
// the window's Sort and --sort give the charts.

#include "fixturebundle.h"
#include "bundlecsv.h"
#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "categoryorder.h"

#include <QtTest>
#include <algorithm>

namespace {

// The first cell of each row of the Markdown section headed `heading`, header rows left out.
QStringList sectionLabels(const QString &markdown, const QString &heading)
{
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    QStringList labels;
    bool inside = false;
    int row = 0;
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("### ")))
            inside = line.startsWith(heading);
        else if (inside && line.startsWith(QLatin1Char('|')) && row++ >= 2)
            labels << line.section(QLatin1Char('|'), 1, 1).trimmed();
        if (!inside)
            row = 0;
    }
    return labels;
}

// The categories of the CSV's `metric` rows for `server`, in file order.
QStringList csvCategories(const QString &csv, const QString &server, const QString &metric)
{
    QStringList categories;
    for (const QString &line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList cells = line.split(QLatin1Char(','));
        if (cells.value(0) == server && cells.value(1) == metric)
            categories << cells.value(2);
    }
    return categories;
}

} // namespace

class TestCategoryOrder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip()
    {
        for (CategoryOrder order : {CategoryOrder::Workload, CategoryOrder::Value, CategoryOrder::Change, CategoryOrder::Name})
            QCOMPARE(int(categoryOrderNamed(categoryOrderName(order)).value()), int(order));
        QVERIFY(!categoryOrderNamed(QStringLiteral("size")));
    }

    // Largest first reads the baseline's figures; the total stays on top.
    void markdownFollowsLargestFirst()
    {
        const Figures figures(fixtureBundle("ecommerce-4-versions.json"));
        const FigureTable memory = figures.memory();
        QCOMPARE(memory.categories.front().id, QStringLiteral("all"));
        std::vector<std::pair<double, QString>> byValue;
        QStringList workload;
        for (size_t c = 1; c < memory.categories.size(); ++c) {
            byValue.emplace_back(memory.at(int(c), figures.baselineId()).value, memory.categories[c].label);
            workload << memory.categories[c].label;
        }
        std::stable_sort(byValue.begin(), byValue.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
        QStringList expected;
        for (const auto &entry : byValue)
            expected << entry.second;
        QVERIFY2(expected != workload, "the fixture's workload order is already by size: the test could not fail");

        const QString heading = QStringLiteral("### Memory per stored attribute");
        const QStringList asIs = sectionLabels(bundleToMarkdown(figures), heading);
        QCOMPARE(asIs.mid(1), workload);
        const QStringList sorted = sectionLabels(bundleToMarkdown(figures, CategoryOrder::Value), heading);
        QVERIFY(sorted.front().startsWith(QLatin1String("All attributes")));
        QCOMPARE(sorted.mid(1), expected);
    }

    void markdownCommandsByName()
    {
        const Figures figures(fixtureBundle("ecommerce-4-versions.json"));
        const QStringList labels = sectionLabels(bundleToMarkdown(figures, CategoryOrder::Name),
                                                 QStringLiteral("### Time inside the commands"));
        // The total first; the commands alphabetical, the folded rest and the per-event row last.
        QVERIFY(labels.size() > 4);
        QVERIFY(labels.front().startsWith(QLatin1String("All commands")));
        QCOMPARE(labels.back(), QStringLiteral("µs per event"));
        QStringList commands = labels.mid(1, labels.size() - 2);
        if (commands.last().startsWith(QLatin1String("other")))
            commands.removeLast();
        QStringList alphabetical = commands;
        std::sort(alphabetical.begin(), alphabetical.end(),
                  [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
        QCOMPARE(commands, alphabetical);
        const QStringList asIs = sectionLabels(bundleToMarkdown(figures), QStringLiteral("### Time inside the commands"));
        QVERIFY2(asIs != labels, "the workload order is already alphabetical: the test could not fail");
    }

    void csvFollowsTheOrder()
    {
        const Figures figures(fixtureBundle("ecommerce-4-versions.json"));
        const QString baseline = figures.baselineId();
        const FigureTable memory = inCategoryOrder(figures.memory(), baseline, CategoryOrder::Name);
        QStringList expected;
        for (const FigureCategory &category : memory.categories)
            expected << (category.id == QLatin1String("all") ? QStringLiteral("overall") : category.id);
        const QStringList sorted = csvCategories(bundleToCsv(figures, CategoryOrder::Name), baseline, QStringLiteral("bytes_per_key"));
        QCOMPARE(sorted, expected);
        QStringList rest = sorted.mid(1);
        QStringList alphabetical = rest;
        std::sort(alphabetical.begin(), alphabetical.end(),
                  [](const QString &a, const QString &b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
        QCOMPARE(rest, alphabetical);
        QVERIFY(csvCategories(bundleToCsv(figures), baseline, QStringLiteral("bytes_per_key")) != sorted);
    }

    // Largest change first: the category whose versions moved most, either way, leads.
    void changeOrderLeadsWithTheLargestMove()
    {
        const Figures figures(fixtureBundle("ecommerce-4-versions.json"));
        const FigureTable memory = figures.memory();
        const std::vector<int> order = orderedCategories(memory, figures.baselineId(), CategoryOrder::Change);
        QCOMPARE(order.front(), 0);   // the total
        auto largest = [&](int c) {
            double move = -1;
            for (const QString &id : memory.servers)
                if (id != figures.baselineId() && memory.at(c, id).change)
                    move = std::max(move, std::abs(*memory.at(c, id).change));
            return move;
        };
        for (size_t i = 2; i < order.size(); ++i)
            QVERIFY(largest(order[i - 1]) >= largest(order[i]));
    }
};

QTEST_MAIN(TestCategoryOrder)
#include "tst_categoryorder.moc"
