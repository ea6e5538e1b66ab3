// The sweep figures are the figures of each point's own run: a real sweep bundle (hash-ttl
// over value-size 16, 64, 256 on Valkey 8.0.1 and 9.1.2) read back, and bundles of one run.

#include "bundlejson.h"
#include "bundlemerge.h"
#include "figuressweep.h"
#include "fixturebundle.h"
#include "sweepbundle.h"
#include "sweepmarkdown.h"

#include <QtTest>

class FiguresSweepTest : public QObject {
    Q_OBJECT

private slots:
    void pointsReadAsTheirOwnRuns()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        QVERIFY(bundle.isSweep());
        QCOMPARE(bundle.sweep.points.size(), size_t(3));
        // The top level is the shown point: what views of one run read.
        QCOMPARE(bundle.sweep.shown, 2);
        const ResultsBundle shown = sweepPointBundle(bundle, 2);
        QCOMPARE(bundle.workload.parameters, shown.workload.parameters);
        QCOMPARE(bundle.servers.size(), shown.servers.size());
        QCOMPARE(Figures(bundle).memory().at(1, QStringLiteral("valkey-9.1.2")).value,
                 Figures(shown).memory().at(1, QStringLiteral("valkey-9.1.2")).value);
        QVERIFY(!sweepPointBundle(bundle, 0).isSweep());
        QCOMPARE(sweepPointBundle(bundle, 0).workload.parameters.at(QStringLiteral("value-size")), QStringLiteral("16"));
    }

    void sweepFiguresEqualThePointFigures_data()
    {
        QTest::addColumn<int>("measure");
        QTest::newRow("bytes per key") << int(Measure::BytesPerKey);
        QTest::newRow("ratio to set-ex") << int(Measure::RatioToReference);
    }

    void sweepFiguresEqualThePointFigures()
    {
        QFETCH(int, measure);
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        const SweepTable table = sweepTable(bundle, Measure(measure));
        QCOMPARE(table.parameter, QStringLiteral("value-size"));
        QCOMPARE(table.values, (QStringList{QStringLiteral("16"), QStringLiteral("64"), QStringLiteral("256")}));
        QCOMPARE(table.numbers, (std::vector<double>{16, 64, 256}));
        // Per server and pattern: 3 patterns (2 ratios) on each of the two servers.
        QCOMPARE(table.lines.size(), size_t(Measure(measure) == Measure::BytesPerKey ? 6 : 4));
        QCOMPARE(table.lines.front().serverId, QStringLiteral("valkey-8.0.1"));
        int measured = 0;
        for (size_t i = 0; i < 3; ++i) {
            const Figures figures(sweepPointBundle(bundle, int(i)));
            const FigureTable point = Measure(measure) == Measure::BytesPerKey ? figures.memory() : figures.referenceRatios();
            for (const SweepLine &line : table.lines) {
                const Figure &expected = point.at(point.categoryIndex(line.categoryId), line.serverId);
                QCOMPARE(line.points[i].state, expected.state);
                QCOMPARE(line.points[i].value, expected.value);
                measured += line.points[i].hasValue() ? 1 : 0;
            }
        }
        // Valkey 8.0.1 refuses hsetex and hset-hexpire at every value.
        QCOMPARE(measured, Measure(measure) == Measure::BytesPerKey ? 3 * 4 : 3 * 2);
    }

    // The ratio is hsetex's bytes per key over set-ex's on the same server at the same value.
    void ratioComesFromTheTwoFigures()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        const SweepTable memory = sweepTable(bundle, Measure::BytesPerKey);
        const SweepTable ratios = sweepTable(bundle, Measure::RatioToReference);
        QCOMPARE(ratios.referenceType, QStringLiteral("set-ex"));
        const auto find = [](const SweepTable &table, const char *category) {
            for (const SweepLine &line : table.lines)
                if (line.serverId == QLatin1String("valkey-9.1.2") && line.categoryId == QLatin1String(category))
                    return line;
            return SweepLine();
        };
        const SweepLine hsetex = find(memory, "hsetex");
        const SweepLine setEx = find(memory, "set-ex");
        const SweepLine ratio = find(ratios, "hsetex");
        for (size_t i = 0; i < 3; ++i) {
            QVERIFY(ratio.points[i].hasValue());
            QCOMPARE(ratio.points[i].value, hsetex.points[i].value / setEx.points[i].value);
        }
        // The answer moves: HSETEX costs relatively less as values grow.
        QVERIFY(ratio.points[0].value > ratio.points[2].value);
    }

    // Two cluster series whose order reverses between the first and the last point are said in
    // words; a pair in different topologies, or in one order throughout, is not.
    void reversedOrderIsSaid()
    {
        const auto measured = [](double value) {
            Figure figure;
            figure.state = FigureState::Measured;
            figure.value = value;
            return figure;
        };
        const auto line = [&](const QString &id, const QString &name, int primaries, std::vector<double> values) {
            SweepLine made;
            made.serverId = id;
            made.serverName = name;
            made.categoryId = made.categoryLabel = QStringLiteral("set-ex");
            made.topology.primaries = primaries;
            for (double value : values)
                made.points.push_back(measured(value));
            return made;
        };
        SweepTable table;
        table.parameter = QStringLiteral("keys");
        table.values = {QStringLiteral("20000"), QStringLiteral("200000")};
        table.complete = {true, true};
        table.lines = {line(QStringLiteral("v9c"), QStringLiteral("Valkey 9.1.2 · cluster ×3"), 3, {312.4, 233.9}),
                       line(QStringLiteral("r7c"), QStringLiteral("Redis 7.0.15 · cluster ×3"), 3, {290.1, 287.5}),
                       line(QStringLiteral("v9"), QStringLiteral("Valkey 9.1.2"), 0, {280.0, 202.7}),
                       line(QStringLiteral("v8c"), QStringLiteral("Valkey 8.0.1 · cluster ×3"), 3, {330.0, 300.0})};
        QCOMPARE(rankingChanges(table),
                 QStringList{QStringLiteral("set-ex: Valkey 9.1.2 · cluster ×3 takes more than Redis 7.0.15 · cluster ×3 at "
                                            "keys=20000 (312.4 against 290.1 bytes per key) and less at keys=200000 (233.9 "
                                            "against 287.5)")});
    }

    // A version's time gap to the baseline is said where it differs between the ends of the
    // sweep, only where the run's repeats resolve the change at both ends.
    void depthGapIsSaidOnlyWhereBothEndsAreResolved_data()
    {
        QTest::addColumn<bool>("firstResolved");
        QTest::addColumn<bool>("lastResolved");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("both resolved") << true << true
                                       << QStringList{QStringLiteral(
                                              "Valkey 9.1.2 spends 3% less than Valkey 8.0.1 per command inside the commands "
                                              "(All writes) at batch=1 and 28% less at batch=256")};
        QTest::newRow("first within noise") << false << true << QStringList();
        QTest::newRow("last within noise") << true << false << QStringList();
    }

    void depthGapIsSaidOnlyWhereBothEndsAreResolved()
    {
        QFETCH(bool, firstResolved);
        QFETCH(bool, lastResolved);
        QFETCH(QStringList, said);
        const auto timed = [](double value, std::optional<double> change, bool resolved) {
            Figure figure;
            figure.state = FigureState::Measured;
            figure.value = value;
            figure.change = change;
            figure.withinNoise = change && !resolved;
            return figure;
        };
        const auto line = [](const QString &id, const QString &name, std::vector<Figure> points) {
            SweepLine made;
            made.serverId = id;
            made.serverName = name;
            made.categoryId = QStringLiteral("group:writes");
            made.categoryLabel = QStringLiteral("All writes");
            made.points = std::move(points);
            return made;
        };
        SweepTable table;
        table.measure = Measure::UsecPerCall;
        table.parameter = QStringLiteral("batch");
        table.values = {QStringLiteral("1"), QStringLiteral("16"), QStringLiteral("256")};
        table.complete = {true, true, true};
        table.lines = {line(QStringLiteral("v8"), QStringLiteral("Valkey 8.0.1"),
                            {timed(1.30, std::nullopt, true), timed(1.25, std::nullopt, true), timed(1.22, std::nullopt, true)}),
                       line(QStringLiteral("v9"), QStringLiteral("Valkey 9.1.2"),
                            {timed(1.26, -3.1, firstResolved), timed(1.0, -20.0, false), timed(0.88, -27.9, lastResolved)})};
        QCOMPARE(depthGapChanges(table, QStringLiteral("v8")), said);
    }

    // The headline speaks of the newest version run as the baseline was, as the ratio headline
    // of a single run does (Figures::referenceServer): not of a newer series run another way,
    // and, with that version hidden, of the next one.
    void headlineFollowsTheBaselinesKind()
    {
        ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        const auto headlineOf = [](const SweepTable &table) {
            if (!table.headline)
                return QStringLiteral("no headline");
            const SweepLine &line = table.lines[table.headline->line];
            return QStringLiteral("%1 on %2 from %3 to %4")
                .arg(line.categoryId, line.serverId, table.values[int(table.headline->first)], table.values[int(table.headline->last)]);
        };
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::BytesPerKey)), QStringLiteral("hsetex on valkey-9.1.2 from 16 to 256"));
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::RatioToReference)), QStringLiteral("hsetex on valkey-9.1.2 from 16 to 256"));
        FigureOptions hidden;
        hidden.hiddenServers = {QStringLiteral("valkey-9.1.2")};
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::BytesPerKey, hidden)), QStringLiteral("set-ex on valkey-8.0.1 from 16 to 256"));
        // 8.0.1 refuses the patterns: it has no ratio to speak of.
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::RatioToReference, hidden)), QStringLiteral("no headline"));

        // 9.1.2 measured nothing at the point the bundle shows, but has lines at every point: the
        // headline still finds them (8.0.1, compared, has no ratio).
        ResultsBundle unmeasuredShown = bundle;
        for (ServerRun &run : unmeasuredShown.servers)
            if (run.id == QLatin1String("valkey-9.1.2"))
                run.repeats.clear();
        QCOMPARE(headlineOf(sweepTable(unmeasuredShown, Measure::RatioToReference)), QStringLiteral("hsetex on valkey-9.1.2 from 16 to 256"));

        // 9.1.2 made a cluster series: 8.0.1, run as the baseline was (standalone), is spoken of.
        ResultsBundle clustered = bundle;
        changeServerRun(clustered, QStringLiteral("valkey-9.1.2"), [](ServerRun &run) { run.topology.primaries = 3; });
        QCOMPARE(headlineOf(sweepTable(clustered, Measure::BytesPerKey)), QStringLiteral("set-ex on valkey-8.0.1 from 16 to 256"));

        // 9.1.2 made another product: 8.0.1, the baseline's own kind, is spoken of, though older.
        changeServerRun(bundle, QStringLiteral("valkey-9.1.2"), [](ServerRun &run) { run.product = QStringLiteral("redis"); });
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::BytesPerKey)), QStringLiteral("set-ex on valkey-8.0.1 from 16 to 256"));
        // Without a final figure at two points on 8.0.1, the other product's is spoken of.
        for (SweepPoint &point : bundle.sweep.points)
            if (&point != &bundle.sweep.points.front())
                for (ServerRun &run : point.servers)
                    if (run.id == QLatin1String("valkey-8.0.1"))
                        run.repeats.clear();
        QCOMPARE(headlineOf(sweepTable(bundle, Measure::BytesPerKey)), QStringLiteral("hsetex on valkey-9.1.2 from 16 to 256"));
    }

    void bundleRoundTripsItsPoints()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        const Outcome<ResultsBundle> again = bundleFromJson(bundleToJson(bundle), QStringLiteral("again"));
        QVERIFY2(again, qPrintable(again ? QString() : again.error()));
        QCOMPARE(bundleToJson(again.value()), bundleToJson(bundle));
        QCOMPARE(again->sweep.points.size(), size_t(3));
        QCOMPARE(again->sweep.points[1].servers.size(), size_t(2));
        QCOMPARE(again->sweep.points[1].servers[1].repeats.front().byType.at(QStringLiteral("hsetex")).keys, 2000LL);
        // A batch sweep's depths are kept point by point, and shown with the point.
        ResultsBundle batch = bundle;
        batch.sweep.parameter = QStringLiteral("batch");
        batch.sweep.points[0].eventsPerBatch = 1;
        batch.sweep.points[1].eventsPerBatch = 16;
        const Outcome<ResultsBundle> batchAgain = bundleFromJson(bundleToJson(batch), QStringLiteral("batch"));
        QVERIFY2(batchAgain, qPrintable(batchAgain ? QString() : batchAgain.error()));
        QCOMPARE(batchAgain->sweep.points[0].eventsPerBatch, 1);
        QCOMPARE(batchAgain->sweep.points[1].eventsPerBatch, 16);
        QCOMPARE(sweepPointBundle(batchAgain.value(), 1).eventsPerBatch, 16);
        QCOMPARE(showingSweepPoint(batchAgain.value(), 0).eventsPerBatch, 1);
    }

    void oneRunIsNoSweep()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl.json");
        QVERIFY(!bundle.isSweep());
        QVERIFY(sweepTable(bundle, Measure::BytesPerKey).empty());
        QVERIFY(sweepToMarkdown(bundle).isEmpty());
        QVERIFY(!QString::fromUtf8(bundleToJson(bundle)).contains(QLatin1String("\"sweep\"")));
    }

    // Two bundles compared side by side compare their shown points: no sweep of one of them.
    void comparisonOfBundlesIsNoSweep()
    {
        const ResultsBundle sweep = fixtureBundle("real-hash-ttl-sweep.json");
        const ResultsBundle merged = mergeBundles(sweep, QStringLiteral("a"), fixtureBundle("real-hash-ttl.json"), QStringLiteral("b"));
        QVERIFY(!merged.isSweep());
        QCOMPARE(merged.servers.size(), size_t(4));
    }

    void defaultPointIsTheWorkloadsOwnValue()
    {
        SweepResults sweep;
        for (const char *value : {"16", "120", "1024"})
            sweep.points.push_back({QLatin1String(value), {}, true, {}});
        QCOMPARE(defaultSweepPoint(sweep, QStringLiteral("120")), 1);
        QCOMPARE(defaultSweepPoint(sweep, QStringLiteral("64")), 2);
        QCOMPARE(sweepPointLabel(QStringLiteral("value-size"), QStringLiteral("64"), 2, 7), QStringLiteral("value-size=64 (3 of 7)"));
    }

    void markdownTablesEveryPoint()
    {
        const QString markdown = sweepToMarkdown(fixtureBundle("real-hash-ttl-sweep.json"));
        QVERIFY(markdown.contains(QStringLiteral("| Pattern · server | value-size=16 | value-size=64 | value-size=256 |")));
        QVERIFY(markdown.contains(QStringLiteral("| set-ex · Valkey 8.0.1 | 144.5 | 192.5 | 432.5 |")));
        QVERIFY(markdown.contains(QStringLiteral("| hsetex · Valkey 9.1.2 | 2.79× | 2.20× | 1.44× |")));
        // A line with no figure at any value is one note, not a row.
        QVERIFY(!markdown.contains(QStringLiteral("| hsetex · Valkey 8.0.1 |")));
        QVERIFY(markdown.contains(QStringLiteral("No figure at any value: hsetex on Valkey 8.0.1 (unsupported), "
                                                 "hset-hexpire on Valkey 8.0.1 (unsupported).")));
        QVERIFY(markdown.contains(QLatin1String("### Sweep: memory against set-ex, against value-size")));
    }
};

QTEST_MAIN(FiguresSweepTest)
#include "tst_figuressweep.moc"
