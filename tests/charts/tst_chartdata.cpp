#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlejson.h"
#include "bundlemerge.h"
#include "chartdata.h"
#include "charttheme.h"
#include "palette.h"
#include "servertimebundle.h"

#include <QFile>
#include <QFontDatabase>
#include <QFontInfo>

#include <QtTest>

class TestChartData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A bundle from before Versus read the server's clock and its tails, without --profile: the
    // Why (time), tails and profile charts have no figures, and say why in the chart's place
    // instead of empty bars.
    void aViewTheBundleHasNoneOfSaysWhy()
    {
        const Figures figures(fixtureBundle("ecommerce-4-versions.json"));
        for (const ChartKind kind : {ChartKind::WhyTime, ChartKind::ServerTails, ChartKind::Profile}) {
            const ChartData data = buildChartData(figures, kind);
            QVERIFY2(data.series.empty(), qPrintable(figureView(kind).stem));
            QCOMPARE(data.emptyText, figureView(kind).whenAbsent);
        }
    }

    // The profile's chart stacks: a row per server, a series per category, each row's parts
    // adding up to all its samples; every part stays even when a small picture asks for fewer.
    void theProfileStacksItsPartsPerServer()
    {
        ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
        for (ServerRun &run : bundle.servers) {
            run.profile.samples = {{ProfileCategory::HashTable, 30}, {ProfileCategory::Networking, 50}, {ProfileCategory::Other, 20}};
            run.profile.totalSamples = 100;
            run.profile.rateHz = 499;
        }
        const Figures figures(bundle);
        ChartDataOptions options;
        options.topCategories = 1;
        const ChartData data = buildChartData(figures, ChartKind::Profile, options);
        QVERIFY(data.stacked);
        QCOMPARE(data.categories, (QStringList{figures.summary(bundle.servers[0].id).name, figures.summary(bundle.servers[1].id).name}));
        QStringList parts;
        for (const ChartSeries &part : data.series)
            parts << part.name;
        QCOMPARE(parts, (QStringList{QStringLiteral("hash table lookups"), QStringLiteral("networking and system calls"),
                                     QStringLiteral("other")}));
        QCOMPARE(data.series[1].bars[0].value, 50.0);
        QCOMPARE(data.largestExtent(), 100.0);
        QVERIFY(data.series[0].color != data.series[1].color);
    }

    // A chart without totals (the server-side tails: one bar per command) that shows fewer
    // categories says so, and does not speak of totals it has not got.
    void aSelectionWithoutTotalsSaysNoTotals()
    {
        ResultsBundle bundle = withServerTimes(1.0, 1.0, 1.0);
        for (RepeatResult &repeat : bundle.servers[0].repeats) {
            repeat.timing.tails.byCommand[QStringLiteral("incrby")] = LatencyBuckets{{{1, 980}, {2, 20}}};
            repeat.timing.tails.byCommand[QStringLiteral("lpush")] = LatencyBuckets{{{1, 900}, {4, 100}}};
        }
        ChartDataOptions options;
        options.topCategories = 1;
        const ChartData data = buildChartData(Figures(bundle), ChartKind::ServerTails, options);
        QCOMPARE(data.categories.size(), 1);
        QVERIFY2(data.footnotes.contains(QStringLiteral("Showing 1 of 14 categories.")), qPrintable(data.footnotes.join(QLatin1Char('\n'))));
    }

    void memoryCategoriesAndLabels()
    {
        const ChartData data = buildChartData(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute);
        QCOMPARE(data.categories, (QStringList{"All attributes", "counter", "sum", "mean", "category count",
                                               "approx distinct", "unique list", "window bucket"}));
        QStringList ids;
        for (const ChartSeries &series : data.series)
            ids << series.serverId;
        QCOMPARE(ids, (QStringList{"valkey-8.0.1", "valkey-8.1.1", "valkey-9.1.2", "redis-7.0.15"}));
        QCOMPARE(data.baselineId, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(data.series[0].bars[0].label, QStringLiteral("241.7"));
        QCOMPARE(data.series[2].bars[0].label, QStringLiteral("217.6  −10.0%"));
        QCOMPARE(data.series[2].bars[1].label, QStringLiteral("82.1  −14.5%"));
    }

    // A selection keeps the totals by what the figures layer says they are, not by their names.
    void selectionKeepsTotalsByKind()
    {
        ChartDataOptions only;
        only.onlyCategories = QStringList{QStringLiteral("sum")};
        const ChartData data = buildChartData(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, only);
        QCOMPARE(data.categories, (QStringList{"All attributes", "sum"}));
        QCOMPARE(data.categoryKinds, (std::vector<CategoryKind>{CategoryKind::Overall, CategoryKind::Type}));
        QCOMPARE(data.series[0].bars.size(), size_t(2));
    }

    void commandsMostFrequentFirstRestFolded()
    {
        const ChartData data = buildChartData(fixtureBundle("ecommerce-4-versions.json"), ChartKind::UsecPerCommand);
        QCOMPARE(data.categories, (QStringList{"All commands", "EXPIRE", "SISMEMBER", "INCRBY", "SADD", "HINCRBY", "PFADD",
                                               "ZADD", "ZREMRANGEBYRANK", "other (3)"}));
        QVERIFY(data.series[2].bars[2].label.endsWith(QStringLiteral("−52.2%")));
        QVERIFY(data.series[2].bars[8].label.endsWith(QStringLiteral("−50.0%")));
        QVERIFY(data.series[0].bars[0].hasRange);
        Figures::Options all;
        all.foldOther = false;
        QCOMPARE(buildChartData(Figures(fixtureBundle("ecommerce-4-versions.json"), all), ChartKind::UsecPerCommand).categories.size(), 12);
    }

    // A command the workload's description makes a claim about keeps its row however few its
    // calls: the study reports ZREMRANGEBYRANK −50%, and "other (6)" would hide it.
    void namedCommandIsNeverFolded()
    {
        ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        Figures::Options few;
        few.topCommands = 3;
        QCOMPARE(buildChartData(Figures(bundle, few), ChartKind::UsecPerCommand).categories,
                 (QStringList{"All commands", "EXPIRE", "SISMEMBER", "INCRBY", "other (8)"}));
        bundle.workload.namedCommands = {QStringLiteral("ZREMRANGEBYRANK")};
        const ChartData data = buildChartData(Figures(bundle, few), ChartKind::UsecPerCommand);
        QCOMPARE(data.categories, (QStringList{"All commands", "EXPIRE", "SISMEMBER", "INCRBY", "ZREMRANGEBYRANK", "other (7)"}));
        QVERIFY(data.series[2].bars[4].label.endsWith(QStringLiteral("−50.0%")));
        // Kept by the bundle, for every later export.
        const Outcome<ResultsBundle> reread = bundleFromJson(bundleToJson(bundle), QStringLiteral("named.json"));
        QVERIFY(reread);
        QCOMPARE(reread->workload.namedCommands, QStringList{QStringLiteral("ZREMRANGEBYRANK")});
    }

    void coloursStayWithTheirVersion()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        Figures::Options hidden;
        hidden.hiddenServers = {QStringLiteral("valkey-8.0.1")};
        const ChartData full = buildChartData(bundle, ChartKind::MemoryPerAttribute);
        const ChartData filtered = buildChartData(Figures(bundle, hidden), ChartKind::UsecPerEvent);
        QCOMPARE(filtered.series.size(), size_t(3));
        QCOMPARE(filtered.series[1].serverId, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(filtered.series[1].color, full.series[2].color);
        QSet<QRgb> distinct;
        for (const ChartSeries &series : full.series)
            distinct.insert(series.color.rgb());
        QCOMPARE(distinct.size(), 4);
    }

    void coloursFollowTheVersionAcrossBundles()
    {
        const ResultsBundle four = fixtureBundle("ecommerce-4-versions.json");
        const std::map<QString, QColor> inFour = serverColors(four);
        QCOMPARE(inFour.at(QStringLiteral("valkey-8.0.1")).name(), QStringLiteral("#0072b2"));
        QCOMPARE(inFour.at(QStringLiteral("valkey-8.1.1")).name(), QStringLiteral("#e69f00"));
        QCOMPARE(inFour.at(QStringLiteral("valkey-9.1.2")).name(), QStringLiteral("#009e73"));
        QCOMPARE(inFour.at(QStringLiteral("redis-7.0.15")).name(), QStringLiteral("#d55e00"));
        // A two-server bundle gives Valkey 9.1.2 the same green, not the second colour.
        const ResultsBundle two =
            withoutServers(four, {QStringLiteral("valkey-8.1.1"), QStringLiteral("redis-7.0.15")});
        const std::map<QString, QColor> inTwo = serverColors(two);
        QCOMPARE(inTwo.size(), size_t(2));
        QCOMPARE(inTwo.at(QStringLiteral("valkey-9.1.2")).name(), QStringLiteral("#009e73"));
        QCOMPARE(inTwo.at(QStringLiteral("valkey-8.0.1")).name(), QStringLiteral("#0072b2"));
        // Compared with itself, each version's second bundle is a shade of the same colour.
        const ResultsBundle merged = mergeBundles(two, QStringLiteral("laptop"), two, QStringLiteral("server"));
        const std::map<QString, QColor> inMerged = serverColors(merged);
        QCOMPARE(inMerged.size(), size_t(4));
        QSet<QString> names;
        for (const auto &entry : inMerged)
            names.insert(entry.second.name());
        QCOMPARE(names.size(), 4);
        for (const auto &entry : inMerged) {
            const ServerRun *run = merged.server(entry.first);
            QVERIFY(run);
            const QColor base = inTwo.at(entry.first.section(QStringLiteral(" @ "), 0, 0));
            QVERIFY2(std::abs(entry.second.hue() - base.hue()) <= 2, qPrintable(entry.first));
        }
    }

    // A comparison's footnote is true of both bundles: what they share is said once, what
    // differs (workload parameters, repeats, schedule, date) is said per bundle, and each
    // server's build is named with its bundle. Saving and loading the merged results keeps it.
    void mergedFootnoteIsTrueForBothBundles()
    {
        const ResultsBundle a = fixtureBundle("real-hash-ttl.json");
        const QString shared = QStringLiteral("AMD EPYC, 2 cores · 2026-12-01 · Versus 0.1.0");
        const ResultsBundle same = mergeBundles(a, QStringLiteral("laptop"), a, QStringLiteral("server"));
        QCOMPARE(defaultChartFootnote(Figures(same)),
                 QStringLiteral("Workload hash-ttl (keys 2,000, ttl 900, value-size 120), 2,000 events · one run, fair schedule · "
                                "Valkey 8.0.1 @ laptop (build 39f7c371), Valkey 8.0.1 @ server (build 39f7c371), "
                                "Valkey 9.1.2 @ laptop (build 9108e8f1), Valkey 9.1.2 @ server (build 9108e8f1) · ")
                     + shared);
        ResultsBundle b = a;
        b.schedule = Schedule::Concurrent;
        b.repeats = 5;
        b.workload.parameters[QStringLiteral("keys")] = QStringLiteral("20000");
        b.workload.events = 20000;
        b.created = b.created.addDays(1);
        for (ServerRun &run : b.servers)
            run.buildId = QStringLiteral("0123456789abcdef");
        const ResultsBundle merged = mergeBundles(a, QStringLiteral("laptop"), b, QStringLiteral("server"));
        const QString expected = QStringLiteral(
            "Workload laptop: hash-ttl (keys 2,000, ttl 900, value-size 120), 2,000 events; "
            "server: hash-ttl (keys 20,000, ttl 900, value-size 120), 20,000 events · "
            "laptop: one run, fair schedule; server: median of 5 repeats, concurrent schedule · "
            "Valkey 8.0.1 @ laptop (build 39f7c371), Valkey 8.0.1 @ server (build 01234567), "
            "Valkey 9.1.2 @ laptop (build 9108e8f1), Valkey 9.1.2 @ server (build 01234567) · "
            "AMD EPYC, 2 cores · laptop: 2026-12-01; server: 2026-12-02 · Versus 0.1.0");
        QCOMPARE(defaultChartFootnote(Figures(merged)), expected);
        const Outcome<ResultsBundle> loaded = bundleFromJson(bundleToJson(merged), QStringLiteral("merged.json"));
        QVERIFY2(loaded, qPrintable(loaded.error()));
        QCOMPARE(defaultChartFootnote(Figures(loaded.value())), expected);
        // A run's own bundle says nothing per bundle.
        QCOMPARE(defaultChartFootnote(Figures(b)).section(QStringLiteral(" · "), 1, 1), QStringLiteral("median of 5 repeats, concurrent schedule"));
    }

    void unsupportedPatternsAreMarked()
    {
        const ChartData data = buildChartData(fixtureBundle("hash-ttl-3-versions.json"), ChartKind::MemoryPerAttribute);
        QCOMPARE(data.categories, (QStringList{"set-ex", "hsetex", "hset-hexpire"}));
        for (int s : {0, 1}) {
            QVERIFY(data.series[size_t(s)].bars[1].unsupported);
            QVERIFY(data.series[size_t(s)].bars[2].unsupported);
            // No bar carries the version's colour, so the marker names the version.
            QCOMPARE(data.series[size_t(s)].bars[1].label,
                     QStringLiteral("unsupported (%1)").arg(data.series[size_t(s)].name));
        }
        QCOMPARE(data.series[0].bars[1].label, QStringLiteral("unsupported (Valkey 8.0.1)"));
        QCOMPARE(data.series[2].bars[1].value, 221.6);
    }

    void bundledFontIsUsed()
    {
        QCOMPARE(chartFontFamily(), QStringLiteral("DejaVu Sans"));
        QVERIFY(QFile::exists(QStringLiteral(":/fonts/DejaVuSans.ttf")));
        QVERIFY(QFile::exists(QStringLiteral(":/fonts/DejaVuSans-Bold.ttf")));
        const QFont font = chartFont(20, true);
        QCOMPARE(QFontInfo(font).family(), QStringLiteral("DejaVu Sans"));
        QCOMPARE(QFontInfo(font).pixelSize(), 20);
        QVERIFY(QFontInfo(font).bold());
    }

    void defaultTitles()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        QCOMPARE(defaultChartTitle(bundle, ChartKind::MemoryPerAttribute),
                 QStringLiteral("Memory per stored attribute, Valkey 8.0.1 → 9.1.2: 241.7\u00A0→\u00A0217.6\u00A0bytes, −10.0%"));
        QCOMPARE(defaultChartTitle(bundle, ChartKind::UsecPerCommand),
                 QStringLiteral("Time inside the commands, per command, Valkey 8.0.1 → 9.1.2: 1.22\u00A0→\u00A00.89\u00A0µs, −26.7%"));
        QVERIFY(defaultChartFootnote(Figures(bundle)).startsWith(QStringLiteral("Workload ecommerce (profiles 2,000, seed 42), 20,000 events · "
                                                                      "median of 3 repeats, fair schedule · Valkey 8.0.1 (build valkey-8)")));
    }

    // A published chart says why a bar is marked or a server is missing, once per server.
    void footnotesNameTheServerAndTheReason()
    {
        // A bundle of the removed speed guard: its slow passes are no reason to mark a bar.
        // What its time chart marks is a change its 3 repeats do not resolve, said once.
        const QStringList timeNotes = buildChartData(fixtureBundle("real-disturbed.json"), ChartKind::UsecPerCommand).footnotes;
        QCOMPARE(timeNotes.size(), 1);
        QVERIFY2(timeNotes.front().startsWith(QStringLiteral("† not resolved: this run's repeats do not rule out no change at 95%")),
                 qPrintable(timeNotes.front()));
        QVERIFY2(timeNotes.front().contains(QStringLiteral(": not resolvable with 3 repeats: the smallest change this run could detect is ")),
                 qPrintable(timeNotes.front()));
        QCOMPARE(buildChartData(fixtureBundle("real-disturbed.json"), ChartKind::MemoryPerAttribute).footnotes, QStringList());
        QCOMPARE(buildChartData(fixtureBundle("real-failed.json"), ChartKind::MemoryPerAttribute).footnotes,
                 (QStringList{QStringLiteral("Not shown: Valkey 9.9.9 failed: the server exited with code 1 during start-up (port 36805)"),
                              QStringLiteral("No total: each pattern stores the same keys its own way and is measured on its own.")}));
        const QStringList rejected = buildChartData(fixtureBundle("real-rejected-writes.json"), ChartKind::MemoryPerAttribute).footnotes;
        QCOMPARE(rejected.size(), 1);
        QVERIFY2(rejected[0].startsWith(QStringLiteral("Failed, Valkey 9.1.2 (127.0.0.1:")), qPrintable(rejected[0]));
        QVERIFY2(rejected[0].contains(QStringLiteral(" command errors the other servers did not get (first: SADD: OOM command not allowed")),
                 qPrintable(rejected[0]));
    }
};

QTEST_MAIN(TestChartData)
#include "tst_chartdata.moc"
