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
#include <algorithm>
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

// The same default workload with the keys with a TTL read beside the accounting, on Valkey 8.0.1
// (Debian package, upstream build), 9.1.2 and Redis 7.0.15 (make-real-fixtures.sh).
ResultsBundle roundingBundle()
{
    return fixtureBundle("real-why-rounding.json");
}

// A part's bytes per key as MEMORY STATS counts it, in the combined pass of every repeat the
// figure comes from (two repeats: both).
double reportedPerKey(const ServerRun &run, const char *field)
{
    double sum = 0;
    for (const RepeatResult &repeat : run.repeats)
        sum += double(repeat.accounting->field(field)) / double(repeat.keys);
    return sum / double(run.repeats.size());
}

double expiringShare(const ServerRun &run)
{
    double sum = 0;
    for (const RepeatResult &repeat : run.repeats)
        sum += double(repeat.accounting->keysWithExpiry().value_or(-1)) / double(repeat.keys);
    return sum / double(run.repeats.size());
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

    // Debian's 16-byte quantum serves each 24 B dict entry from 32 B; the upstream 8-byte one
    // from 24 B; Valkey 9.1 has no entries of their own. The rounding moves from keys and values
    // into the table, the parts still add up to the figure, and every view says so.
    void tableEntriesAreCountedAtTheirSizeClass()
    {
        const ResultsBundle runs = roundingBundle();
        const Figures figures(runs);
        const MemoryExplanation why = figures.explainMemory(QStringLiteral("all"));
        const ServerRun &debianRun = *runs.server(QStringLiteral("valkey-8.0.1"));
        QVERIFY(expiringShare(debianRun) > 0.99 && expiringShare(debianRun) <= 1.0);
        const MemoryBreakdown &debian = *why.server(QStringLiteral("valkey-8.0.1"));
        const double expiresRounding = 8.0 * expiringShare(debianRun);
        QVERIFY(std::fabs(debian.part(QStringLiteral("expires-table"))
                          - (reportedPerKey(debianRun, "db.overhead.hashtable.expires") + expiresRounding)) < 1e-9);
        QVERIFY(std::fabs(debian.part(QStringLiteral("keys-values")) - (reportedPerKey(debianRun, "dataset.bytes") - expiresRounding)) < 1e-9);
        // Valkey 8.0 embeds the key in its main-table entries: not corrected.
        QVERIFY(std::fabs(debian.part(QStringLiteral("main-table")) - reportedPerKey(debianRun, "db.overhead.hashtable.main")) < 1e-9);
        QCOMPARE(debian.rounding, QStringLiteral("Corrected for the allocator: on Valkey 8.0.1 (Debian package) the expires table "
                                                 "holds %1 bytes per key more than MEMORY STATS counts, moved from keys and values, "
                                                 "as jemalloc (quantum 16 B) serves each 24 B table entry from its 32 B class.")
                                      .arg(QString::number(expiresRounding, 'f', 1)));
        // Redis 7.0: main-table entries are 24 B dict entries too.
        const ServerRun &redisRun = *runs.server(QStringLiteral("redis-7.0.15"));
        const MemoryBreakdown &redis = *why.server(redisRun.id);
        QVERIFY(std::fabs(redis.part(QStringLiteral("main-table")) - (reportedPerKey(redisRun, "db.overhead.hashtable.main") + 8.0)) < 1e-9);
        QVERIFY(redis.rounding.contains(QStringLiteral(" the main table holds 8.0 and the expires table ")));
        for (const char *id : {"valkey-8.0.1-upstream", "valkey-9.1.2"}) {
            const MemoryBreakdown &server = *why.server(QLatin1String(id));
            QCOMPARE(server.rounding, QString());
            for (const MemoryPart &part : server.parts)
                QCOMPARE(part.allocatorRounding, 0.0);
        }
        for (const MemoryBreakdown &server : why.servers)
            QVERIFY(std::fabs(sumOf(server) - server.bytesPerKey) < 1e-9);

        // The compared pair's sentence says it; report.md and results.json say it of every server.
        QVERIFY2(why.sentence.endsWith(QLatin1Char(' ') + debian.rounding), qPrintable(why.sentence));
        const QString markdown = whyMarkdown(figures);
        QVERIFY2(markdown.contains(QStringLiteral("Counted at the allocator's size classes:\n\n- ") + debian.rounding.left(40)), qPrintable(markdown));
        QVERIFY(markdown.contains(redis.rounding.left(60)));
        const Json derived = Json::parse(bundleToJson(runs, figures).toStdString());
        const Json &entry = derived["why"]["all"]["servers"]["valkey-8.0.1"];
        QCOMPARE(entry["allocator_rounding_per_key"]["expires-table"].get<double>(), debian.part(QStringLiteral("expires-table"))
                                                                                     - reportedPerKey(debianRun, "db.overhead.hashtable.expires"));
        QCOMPARE(QString::fromStdString(entry["rounding"].get<std::string>()), debian.rounding);
        QVERIFY(!derived["why"]["all"]["servers"]["valkey-9.1.2"].contains("rounding"));
    }

    // The issue's case: between Debian's and the upstream 8.0.1, the expires table carries the
    // allocator's 8 bytes per key with a TTL, not keys and values.
    void buildsOfOneReleaseDifferInTheExpiresTable()
    {
        Figures::Options builds;
        builds.hiddenServers = {QStringLiteral("valkey-9.1.2"), QStringLiteral("redis-7.0.15")};
        const MemoryExplanation why = Figures(roundingBundle(), builds).explainMemory(QStringLiteral("all"));
        QCOMPARE(why.fromId, QStringLiteral("valkey-8.0.1"));
        QVERIFY2(why.sentence.contains(QStringLiteral(" come from the expires table")), qPrintable(why.sentence));
        const MemoryBreakdown &debian = *why.server(why.fromId);
        const MemoryBreakdown &upstream = *why.server(why.toId);
        const double expires = upstream.part(QStringLiteral("expires-table")) - debian.part(QStringLiteral("expires-table"));
        QVERIFY2(expires < -7.9 && expires > -8.05, qPrintable(QString::number(expires)));
        QCOMPARE(upstream.part(QStringLiteral("main-table")), debian.part(QStringLiteral("main-table")));
    }

    // Results without the count of keys with a TTL (bundles from before it was read): the expires
    // table stays as MEMORY STATS counts it, and the sentence says why.
    void expiresTableWithoutItsCountIsSaidSo()
    {
        const Figures figures(bundle());
        const MemoryExplanation why = figures.explainMemory(QStringLiteral("all"));
        const MemoryBreakdown &debian = *why.server(QStringLiteral("valkey-8.0.1"));
        for (const MemoryPart &part : debian.parts)
            QCOMPARE(part.allocatorRounding, 0.0);
        QCOMPARE(debian.rounding, QStringLiteral("On Valkey 8.0.1 (Debian package) the expires table is as MEMORY STATS counts it, "
                                                 "24 B per entry where jemalloc (quantum 16 B) serves 32 B: these results do not "
                                                 "hold how many keys had a TTL."));
        QCOMPARE(why.server(QStringLiteral("valkey-8.0.1-upstream"))->rounding, QString());
    }

    // A count of keys with a TTL that no pass can have (more than its keys) corrects nothing.
    void impossibleCountOfKeysWithTtlCorrectsNothing()
    {
        ResultsBundle runs = roundingBundle();
        ServerRun &debian = *std::find_if(runs.servers.begin(), runs.servers.end(),
                                          [](const ServerRun &run) { return run.id == QLatin1String("valkey-8.0.1"); });
        for (RepeatResult &repeat : debian.repeats)
            repeat.accounting->stats[QStringLiteral("keyspace.expires")] = repeat.keys + 1;
        const MemoryBreakdown &server = *Figures(runs).explainMemory(QStringLiteral("all")).server(debian.id);
        QCOMPARE(server.part(QStringLiteral("expires-table")), reportedPerKey(debian, "db.overhead.hashtable.expires"));
        QVERIFY2(server.rounding.contains(QStringLiteral("do not hold how many keys had a TTL")), qPrintable(server.rounding));
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
        // A lag of −2^63 once read would have overflowed the overheads it is taken from.
        QTest::newRow("clients' lag beyond a process") << QByteArray(R"({"memory_stats": {"clients.normal.lag": -9223372036854775808}})")
                                                     << QStringLiteral("memory_stats \"clients.normal.lag\" is -9223372036854775808, beyond the 2^57 bytes");
        QTest::newRow("field beyond a process") << QByteArray(R"({"memory_stats": {"dataset.bytes": 144115188075855873}})")
                                              << QStringLiteral("memory_stats \"dataset.bytes\" is 144115188075855873");
        QTest::newRow("regions beyond a process") << QByteArray(R"({"size_classes": {"32": 9223372036854775807}})")
                                                << QStringLiteral("the regions of size class 32 is 9223372036854775807");
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
