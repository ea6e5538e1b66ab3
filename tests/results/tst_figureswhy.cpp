// The Why view's figures (figureswhy.cpp) over a bundle of a real run
// (real-why-builds.json: Valkey 8.0.1 as Debian's package and as the upstream build, and 9.1.2,
// two repeats): the parts add up to the figure they split, the median's repeats are the ones
// split, a server without accounting or one that refused it is said so, and a hostile
// accounting member fails the read with its path.

#include "bundlejson.h"
#include "figures.h"
#include "fixturebundle.h"
#include "jsonsupport.h"
#include "memoryexplanation.h"
#include "whymarkdown.h"

#include <QtTest>
#include <cmath>

namespace WhyFixture {

ResultsBundle bundle()
{
    return fixtureBundle("real-why-builds.json");
}

double sumOf(const MemoryBreakdown &server)
{
    double sum = 0;
    for (const MemoryPart &part : server.parts)
        sum += part.bytesPerKey;
    return sum;
}

// The main table's bytes per key in one repeat's combined pass, from the bundle itself.
double mainTablePerKey(const RepeatResult &repeat)
{
    return double(repeat.accounting->field("db.overhead.hashtable.main")) / double(repeat.keys);
}

} // namespace WhyFixture

using namespace WhyFixture;

class TestFiguresWhy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partsAddUpToEveryFigure()
    {
        const Figures figures(bundle());
        const FigureTable memory = figures.memory();
        QCOMPARE(int(memory.categories.size()), 12);   // the total and 11 types
        for (size_t category = 0; category < memory.categories.size(); ++category) {
            const MemoryExplanation why = figures.explainMemory(memory.categories[category].id);
            QCOMPARE(int(why.servers.size()), 3);
            for (const MemoryBreakdown &server : why.servers) {
                const Figure &figure = memory.at(int(category), server.serverId);
                QCOMPARE(server.bytesPerKey, figure.value);
                QVERIFY(std::fabs(sumOf(server) - figure.value) < 1e-9);
                QCOMPARE(server.parts.back().id, QStringLiteral("not-attributed"));
                // On a launched server the accounting covers the figure to the byte.
                QVERIFY2(std::fabs(server.part(QStringLiteral("not-attributed"))) < 1e-9,
                         qPrintable(server.serverId + QLatin1Char('/') + why.category.id));
            }
            QVERIFY2(!why.sentence.isEmpty(), qPrintable(why.category.id));
        }
    }

    // Two repeats: the figure is their mean, and so are its parts.
    void partsAreThoseOfTheMedianRepeats()
    {
        const ResultsBundle runs = bundle();
        const ServerRun &run = *runs.server(QStringLiteral("valkey-9.1.2"));
        QCOMPARE(int(run.repeats.size()), 2);
        const MemoryExplanation why = Figures(runs).explainMemory(QStringLiteral("all"));
        const MemoryBreakdown &server = *why.server(run.id);
        const double expected = (mainTablePerKey(run.repeats[0]) + mainTablePerKey(run.repeats[1])) / 2;
        QVERIFY(std::fabs(server.part(QStringLiteral("main-table")) - expected) < 1e-9);
        QVERIFY(server.keys >= 30000);
    }

    void sentencesSayWhichPartsCarryTheDifference()
    {
        const Figures figures(bundle());
        const MemoryExplanation why = figures.explainMemory(QStringLiteral("all"));
        QCOMPARE(why.fromId, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(why.toId, QStringLiteral("valkey-9.1.2"));
        const double total = why.server(why.toId)->bytesPerKey - why.server(why.fromId)->bytesPerKey;
        QVERIFY(total < -1);
        QVERIFY2(why.sentence.startsWith(QStringLiteral("Of the %1 bytes per key Valkey 9.1.2 saves over Valkey 8.0.1 (Debian package), ")
                                             .arg(QString::number(-total, 'f', 1))),
                 qPrintable(why.sentence));
        // 9.1 keeps the key in its value object: the tables shrink and keys and values grow.
        QVERIFY2(why.sentence.contains(QStringLiteral("; keys and values take ")), qPrintable(why.sentence));
        QVERIFY2(why.allocations.startsWith(QStringLiteral("Valkey 9.1.2 makes ")), qPrintable(why.allocations));

        Figures::Options builds;
        builds.hiddenServers = {QStringLiteral("valkey-9.1.2")};
        const MemoryExplanation sameSource = Figures(bundle(), builds).explainMemory(QStringLiteral("all"));
        QVERIFY2(sameSource.allocations.contains(QStringLiteral("come from the allocator's size classes (its rounding), not from the version")),
                 qPrintable(sameSource.allocations));
    }

    void aServerWithoutAccountingIsSaidSo()
    {
        ResultsBundle runs = bundle();
        ServerRun &refusing = runs.servers.back();
        for (RepeatResult &repeat : refusing.repeats) {
            repeat.accounting->statsUnavailable = QStringLiteral("MEMORY STATS: \"NOPERM this user has no permissions\"");
            repeat.accounting->stats.clear();
        }
        const Figures figures(runs);
        const MemoryExplanation why = figures.explainMemory(QStringLiteral("all"));
        const MemoryBreakdown *server = why.server(refusing.id);
        QVERIFY(server);
        QVERIFY(server->parts.empty());
        QVERIFY(server->hasSizeClasses);
        QCOMPARE(server->unavailable, QStringList{refusing.repeats[0].accounting->statsUnavailable});
        QVERIFY(why.toId != refusing.id);
        const QString markdown = whyMarkdown(figures);
        QVERIFY2(markdown.contains(QStringLiteral("Not reported:")) && markdown.contains(QStringLiteral("NOPERM")), qPrintable(markdown));

        // A bundle from before the Why view: nothing to explain, and no section.
        ResultsBundle old = bundle();
        for (ServerRun &run : old.servers) {
            for (RepeatResult &repeat : run.repeats) {
                repeat.accounting.reset();
                for (auto &[type, memory] : repeat.byType)
                    memory.accounting.reset();
            }
        }
        const Figures before(old);
        QVERIFY(before.explainMemory(QStringLiteral("all")).servers.empty());
        QCOMPARE(whyMarkdown(before), QString());
    }

    void accountingSurvivesTheBundle()
    {
        const ResultsBundle runs = bundle();
        const Outcome<ResultsBundle> again = bundleFromJson(bundleToJson(runs), QStringLiteral("again.json"));
        QVERIFY2(again, qPrintable(again ? QString() : again.error()));
        const MemoryAccounting &before = *runs.servers[0].repeats[0].accounting;
        const MemoryAccounting &after = *again->servers[0].repeats[0].accounting;
        QVERIFY(before.stats == after.stats);
        QVERIFY(before.regions == after.regions);
        QVERIFY(!after.regions.empty());
    }

    void hostileAccountingFailsWithItsPath_data()
    {
        QTest::addColumn<QByteArray>("accounting");
        QTest::addColumn<QString>("message");
        QTest::newRow("size class not a number") << QByteArray(R"({"size_classes": {"abc": 1}})") << QStringLiteral("size class \"abc\"");
        QTest::newRow("size class zero") << QByteArray(R"({"size_classes": {"0": 1}})") << QStringLiteral("size class \"0\"");
        QTest::newRow("size class huge") << QByteArray(R"({"size_classes": {"99999999999999": 1}})") << QStringLiteral("from 1 to 2^40");
        QTest::newRow("count not an integer") << QByteArray(R"({"size_classes": {"32": 1.5}})") << QStringLiteral("expected an integer");
        QTest::newRow("field not an integer") << QByteArray(R"({"memory_stats": {"dataset.bytes": "x"}})") << QStringLiteral("expected an integer");
        QTest::newRow("not an object") << QByteArray(R"([1, 2])") << QStringLiteral("expected an object");
    }

    void hostileAccountingFailsWithItsPath()
    {
        QFETCH(QByteArray, accounting);
        QFETCH(QString, message);
        Json document = Json::parse(bundleToJson(bundle()).toStdString());
        document["runs"]["valkey-9.1.2"][0]["accounting"] = Json::parse(accounting.toStdString());
        const QByteArray json = QByteArray::fromStdString(document.dump());
        const Outcome<ResultsBundle> loaded = bundleFromJson(json, QStringLiteral("hostile.json"));
        QVERIFY(!loaded);
        QVERIFY2(loaded.error().contains(QStringLiteral("hostile.json")) && loaded.error().contains(message), qPrintable(loaded.error()));
        QVERIFY2(loaded.error().contains(QStringLiteral("/accounting")), qPrintable(loaded.error()));
    }
};

QTEST_GUILESS_MAIN(TestFiguresWhy)
#include "tst_figureswhy.moc"
