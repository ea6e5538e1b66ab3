// The figures layer: which repeats count, which totals compare like with like, and the state
// of every figure, on bundles built here so each rule is seen on its own.

#include "figures.h"
#include "markdowntable.h"

#include "bundlebuilders.h"
#include "fixturebundle.h"

#include <QtTest>

namespace {

using namespace BundleBuilders;

PassTiming timing(std::map<QString, CommandStat> stats, long long events, double seconds)
{
    PassTiming result;
    result.byCommand = std::move(stats);
    result.events = events;
    for (const auto &entry : result.byCommand)
        result.commands += entry.second.calls;
    result.seconds = seconds;
    result.latencyP99Usec = 100;
    return result;
}

ServerRun server(const QString &version)
{
    ServerRun run;
    run.id = QStringLiteral("valkey-") + version;
    run.product = QStringLiteral("valkey");
    run.version = version;
    return run;
}

// Combined pass: overall memory and timing, then two types measured alone. `factor` scales time.
RepeatResult ecommerceRepeat(int repeat, double bytes, double factor)
{
    RepeatResult result;
    result.repeat = repeat;
    result.keys = 300;
    result.usedMemoryDelta = (long long)(bytes * 300);
    result.timing = timing({{QStringLiteral("incrby"), stat(1000, (long long)(1000 * factor))},
                            {QStringLiteral("expire"), stat(1000, (long long)(500 * factor))}},
                           500, 0.01);
    result.byType[QStringLiteral("counter")] = typeMemory(200, bytes * 0.8);
    result.byType[QStringLiteral("sum")] = typeMemory(100, bytes * 1.4);
    return result;
}

ResultsBundle ecommerce(int repeats)
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("ecommerce");
    bundle.workload.events = 500;
    bundle.workload.commands = 2000;
    bundle.workload.types = {QStringLiteral("counter"), QStringLiteral("sum")};
    bundle.repeats = repeats;
    // The machine drifts by ±20% between repeats; 9.1.2 always takes 80% of 8.0.1's time.
    const double machine[] = {1.0, 1.2, 0.8, 1.1, 0.9};
    for (const auto &[version, bytes, speed] : {std::tuple{QStringLiteral("8.0.1"), 200.0, 1.0}, {QStringLiteral("9.1.2"), 180.0, 0.8}}) {
        ServerRun run = server(version);
        for (int r = 0; r < repeats; ++r)
            run.repeats.push_back(ecommerceRepeat(r, bytes, speed * machine[r]));
        bundle.servers.push_back(run);
    }
    return bundle;
}

// hash-ttl: each pattern timed alone; 8.0.1 refuses hsetex and hset-hexpire.
ResultsBundle hashTtl()
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("hash-ttl");
    bundle.workload.categoryNoun = QStringLiteral("pattern");
    bundle.workload.events = 100;
    bundle.workload.commands = 400;
    bundle.workload.types = {QStringLiteral("hsetex"), QStringLiteral("set-ex"), QStringLiteral("hset-hexpire")};
    bundle.workload.typesTimedAlone = true;
    for (const QString &version : {QStringLiteral("8.0.1"), QStringLiteral("9.1.2")}) {
        ServerRun run = server(version);
        RepeatResult repeat;
        const bool old = version == QLatin1String("8.0.1");
        TypeMemory setEx = typeMemory(100, old ? 90 : 80);
        setEx.timing = timing({{QStringLiteral("set"), stat(100, old ? 100 : 80)}}, 100, 0.001);
        repeat.byType[QStringLiteral("set-ex")] = setEx;
        if (old) {
            repeat.byType[QStringLiteral("hsetex")] = refused(QStringLiteral("HSETEX"));
            TypeMemory hexpire = refused(QStringLiteral("HEXPIRE"));
            // HSET ran fine before HEXPIRE was refused: its time is measured but belongs to a refused pattern.
            hexpire.timing = timing({{QStringLiteral("hset"), stat(100, 500)}}, 100, 0.001);
            repeat.byType[QStringLiteral("hset-hexpire")] = hexpire;
        } else {
            TypeMemory hsetex = typeMemory(100, 200);
            hsetex.timing = timing({{QStringLiteral("hsetex"), stat(100, 200)}}, 100, 0.002);
            repeat.byType[QStringLiteral("hsetex")] = hsetex;
            TypeMemory hexpire = typeMemory(100, 300);
            hexpire.timing = timing({{QStringLiteral("hset"), stat(100, 150)}, {QStringLiteral("hexpire"), stat(100, 250)}}, 100, 0.004);
            repeat.byType[QStringLiteral("hset-hexpire")] = hexpire;
        }
        run.repeats.push_back(repeat);
        bundle.servers.push_back(run);
    }
    return bundle;
}

} // namespace

class TestFigures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void completeRunIsMeasured()
    {
        const Figures figures(ecommerce(5));
        QCOMPARE(figures.baselineId(), QStringLiteral("valkey-8.0.1"));
        const FigureTable memory = figures.memory();
        QCOMPARE(memory.categories.front().id, QStringLiteral("all"));
        QCOMPARE(memory.categories.front().label, QStringLiteral("All attributes"));
        QVERIFY(memory.categories.front().scope.isEmpty());
        const Figure &total = memory.at(0, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(total.state, FigureState::Measured);
        QCOMPARE(total.value, 180.0);
        QCOMPARE(*total.change, -10.0);
        QCOMPARE(total.spread.n, 5);

        const FigureTable times = figures.commandTime();
        QCOMPARE(times.categories.front().id, QStringLiteral("all"));
        const Figure &usec = times.at(0, QStringLiteral("valkey-9.1.2"));
        // The medians move with the machine; the paired change does not.
        QCOMPARE(usec.pairedRatio.n, 5);
        QVERIFY(qAbs(usec.pairedRatio.median - 0.8) < 1e-12);
        QVERIFY(qAbs(usec.pairedRatio.ciHigh - usec.pairedRatio.ciLow) < 1e-9);
        QCOMPARE(times.at(0, QStringLiteral("valkey-8.0.1")).change.has_value(), false);
        QCOMPARE(figures.summary(QStringLiteral("valkey-9.1.2")).verdict, ServerVerdict::Completed);
        QVERIFY(figures.dataProblems().isEmpty());
    }

    // Totals over different work are never shown: only what every server ran counts.
    // The answer first, in the figures layer's words: the memory and time headlines of a run,
    // a reference pattern's ratios where there is no memory headline, nothing while live.
    void answerIsOneSentence_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ecommerce") << QStringLiteral("ecommerce-4-versions.json") << QStringLiteral("Valkey 9.1.2 stores the same attributes in 10.0% less memory than Valkey 8.0.1 "
                                                                                     "and spends 26.7% less time inside its commands.");
        QTest::newRow("hash-ttl") << QStringLiteral("real-hash-ttl.json") << QStringLiteral("On Valkey 9.1.2, hsetex takes 1.83× and hset-hexpire takes 1.83× the memory of set-ex.");
    }
    void answerIsOneSentence()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, expected);
        QCOMPARE(Figures(fixtureBundle(fixture)).answer(), expected);
    }

    void liveRunHasNoAnswerYet()
    {
        ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        bundle.running = true;
        QCOMPARE(Figures(bundle).answer(), QString());
    }

    void hashTtlTotalsCompareOnlyCommonWork()
    {
        const Figures figures(hashTtl());
        const FigureTable memory = figures.memory();
        QCOMPARE(memory.categoryIndex(QStringLiteral("all")), -1);   // only set-ex is common: no total to speak of
        // The patterns store the same keys each its own way, one after the other: no total.
        QCOMPARE(memory.note, QStringLiteral("No total: each pattern stores the same keys its own way and is measured on its own."));
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-8.0.1")).state,
                 FigureState::Unsupported);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("set-ex")), QStringLiteral("valkey-9.1.2")).value, 80.0);

        const FigureTable perEvent = figures.perEvent();
        QCOMPARE(perEvent.categories.size(), size_t(1));
        QCOMPARE(perEvent.categories.front().scope, QStringLiteral("over set-ex, the pattern every server supports"));
        QCOMPARE(perEvent.categories.front().label, QStringLiteral("Events of set-ex"));
        QCOMPARE(perEvent.categories.front().over, QStringList{QStringLiteral("set-ex")});
        // The denominator is the events of the work it sums: 100 events of set-ex, not 3 × 100.
        QCOMPARE(perEvent.at(0, QStringLiteral("valkey-8.0.1")).value, 1.0);
        QCOMPARE(perEvent.at(0, QStringLiteral("valkey-9.1.2")).value, 0.8);
        QCOMPARE(*perEvent.at(0, QStringLiteral("valkey-9.1.2")).change, -20.0);

        const FigureTable times = figures.commandTime();
        QCOMPARE(times.categoryIndex(QStringLiteral("all")), -1);
        const int hset = times.categoryIndex(QStringLiteral("hset"));
        QVERIFY(hset >= 0);
        // Valkey 8.x knows HSET: hset-hexpire was refused for HEXPIRE, so HSET was not run there,
        // which is not "unsupported" (every view printed "HSET | unsupported" before).
        QCOMPARE(times.at(hset, QStringLiteral("valkey-8.0.1")).state, FigureState::NotRun);
        QCOMPARE(times.at(hset, QStringLiteral("valkey-8.0.1")).note, QStringLiteral("not run: hset-hexpire is unsupported"));
        QCOMPARE(markdownCell(times.at(hset, QStringLiteral("valkey-8.0.1"))), QStringLiteral("not run: hset-hexpire is unsupported"));
        const int hexpire = times.categoryIndex(QStringLiteral("hexpire"));
        QVERIFY(hexpire >= 0);
        QCOMPARE(times.at(hexpire, QStringLiteral("valkey-8.0.1")).state, FigureState::Unsupported);
        QCOMPARE(times.at(times.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-8.0.1")).state, FigureState::Unsupported);
        QCOMPARE(times.at(hset, QStringLiteral("valkey-9.1.2")).value, 1.5);
        QCOMPARE(times.at(times.categoryIndex(QStringLiteral("set")), QStringLiteral("valkey-9.1.2")).value, 0.8);

        // With the old version hidden every pattern is common again, and still has no memory
        // total (it read 193.3, the average of three states no server held at once); the time
        // per event covers all the work again.
        Figures::Options options;
        options.hiddenServers = {QStringLiteral("valkey-8.0.1")};
        const Figures newOnly(hashTtl(), options);
        const FigureTable all = newOnly.memory();
        QCOMPARE(all.categoryIndex(QStringLiteral("all")), -1);
        QCOMPARE(newOnly.perEvent().categories.front().label, QStringLiteral("All events"));
    }

    // A live snapshot: figures are provisional, a memory figure whose pass still runs waits for
    // it ("pending", never the reading of a half-written pass), and an unsupported pattern is
    // unsupported as soon as the server said so.
    void liveSnapshotIsProvisional()
    {
        ResultsBundle bundle = hashTtl();
        bundle.running = true;
        bundle.complete = false;
        for (ServerRun &run : bundle.servers) {
            run.status = RunStatus::Incomplete;
            run.repeats.front().status = RepeatStatus::Incomplete;
            run.repeats.front().unfinishedType = QStringLiteral("set-ex");
        }
        const Figures figures(bundle);
        const FigureTable memory = figures.memory();
        const Figure &growing = memory.at(memory.categoryIndex(QStringLiteral("set-ex")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(growing.state, FigureState::Pending);
        QVERIFY(growing.growing);
        QVERIFY(!growing.change);
        QVERIFY(!growing.hasValue());
        const Figure &settled = memory.at(memory.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(settled.state, FigureState::Provisional);
        QVERIFY(!settled.growing);
        QCOMPARE(memory.at(memory.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-8.0.1")).state,
                 FigureState::Unsupported);
        // set-ex is not finished anywhere, so no total covers it yet.
        QVERIFY(figures.perEvent().categories.empty());
        QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1")).verdict, ServerVerdict::Running);
    }

    // A cancelled run keeps its last figures, marked incomplete; the one that never got a
    // figure has none (never a zero).
    void cancelledRunKeepsItsFigures()
    {
        ResultsBundle bundle = ecommerce(3);
        bundle.complete = false;
        for (ServerRun &run : bundle.servers) {
            run.status = RunStatus::Incomplete;
            run.repeats.resize(1);
            RepeatResult &repeat = run.repeats.front();
            repeat.status = RepeatStatus::Incomplete;
            repeat.byType.erase(QStringLiteral("sum"));
            repeat.unfinishedType = QStringLiteral("counter");
        }
        const Figures figures(bundle);
        const FigureTable memory = figures.memory();
        const Figure &total = memory.at(0, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(total.state, FigureState::Incomplete);
        QCOMPARE(total.value, 180.0);
        QCOMPARE(total.note, QStringLiteral("repeat 1 did not finish"));
        QVERIFY(total.change);
        const Figure &sum = memory.at(memory.categoryIndex(QStringLiteral("sum")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(sum.state, FigureState::Absent);
        QCOMPARE(figures.summary(QStringLiteral("valkey-9.1.2")).verdict, ServerVerdict::Cancelled);
    }

    // While the run goes on, a figure its server has not measured yet is pending, in every view.
    void figureNotMeasuredYetIsPending()
    {
        ResultsBundle bundle = ecommerce(3);
        bundle.running = true;
        bundle.complete = false;
        for (ServerRun &run : bundle.servers) {
            run.status = RunStatus::Incomplete;
            run.repeats.resize(1);
            RepeatResult &repeat = run.repeats.front();
            repeat.status = RepeatStatus::Incomplete;
            repeat.byType.erase(QStringLiteral("sum"));
            repeat.unfinishedType = QStringLiteral("counter");
        }
        const FigureTable memory = Figures(bundle).memory();
        const Figure &sum = memory.at(memory.categoryIndex(QStringLiteral("sum")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(figureStateName(sum.state), QStringLiteral("pending"));
        QVERIFY(!sum.hasValue());
        QVERIFY(!sum.change);
        QCOMPARE(markdownCell(sum), QStringLiteral("pending"));
    }

    void failedServerHasNoFigures()
    {
        ResultsBundle bundle = ecommerce(1);
        ServerRun &broken = bundle.servers[1];
        broken.status = RunStatus::Failed;
        broken.error = QStringLiteral("valkey-9.1.2: exited with code 1");
        broken.repeats.front() = RepeatResult();
        broken.repeats.front().status = RepeatStatus::Failed;
        const Figures figures(bundle);
        QCOMPARE(figures.summary(QStringLiteral("valkey-9.1.2")).verdict, ServerVerdict::Failed);
        QCOMPARE(figures.comparedServerIds(), QStringList{QStringLiteral("valkey-8.0.1")});
        const Figure &figure = figures.memory().at(0, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(figure.state, FigureState::Failed);
        QCOMPARE(figure.note, QStringLiteral("failed: valkey-9.1.2: exited with code 1"));
    }

    // The server that rejected writes is named from its own error counts.
    void rejectedWritesAreNamed()
    {
        ResultsBundle bundle = ecommerce(1);
        RepeatResult &full = bundle.servers[1].repeats.front();
        full.errors[QStringLiteral("INCRBY: OOM command not allowed when used memory > 'maxmemory'.")] = 390;
        full.firstError = QStringLiteral("INCRBY: OOM command not allowed when used memory > 'maxmemory'.");
        full.keys = 250;
        full.byType[QStringLiteral("counter")].keys = 150;
        const Figures figures(bundle);
        const ServerSummary &summary = figures.summary(QStringLiteral("valkey-9.1.2"));
        QCOMPARE(summary.verdict, ServerVerdict::RejectedWrites);
        QCOMPARE(summary.ownErrorCount, 390LL);
        QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1")).verdict, ServerVerdict::Completed);
        QCOMPARE(figures.memory().at(0, QStringLiteral("valkey-9.1.2")).state, FigureState::Failed);
        const QStringList problems = figures.dataProblems();
        QVERIFY2(problems.size() >= 2, qPrintable(problems.join('\n')));
        QVERIFY2(problems[0].startsWith(QStringLiteral("valkey-9.1.2 rejected writes: 390 command errors")), qPrintable(problems[0]));
        for (const QString &problem : problems.mid(1))
            QVERIFY2(problem.endsWith(QStringLiteral("— valkey-9.1.2 rejected writes")), qPrintable(problem));
    }

    // Errors every server got alike belong to the workload: figures stay.
    void sharedErrorsAreTheWorkloads()
    {
        ResultsBundle bundle = ecommerce(1);
        for (ServerRun &run : bundle.servers)
            run.repeats.front().errors[QStringLiteral("INCR: ERR value is not an integer or out of range")] = 2;
        const Figures figures(bundle);
        QCOMPARE(figures.summary(QStringLiteral("valkey-9.1.2")).verdict, ServerVerdict::WorkloadErrors);
        QCOMPARE(figures.memory().at(0, QStringLiteral("valkey-9.1.2")).state, FigureState::Measured);
        QVERIFY(figures.dataProblems().isEmpty());
    }

    // Key counts that differ with no server reporting an error blame nobody.
    void differentCountsWithoutErrorsBlameNobody()
    {
        ResultsBundle bundle = ecommerce(1);
        bundle.servers[1].repeats.front().byType[QStringLiteral("sum")].keys = 99;
        const QStringList problems = Figures(bundle).dataProblems();
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.front(), QStringLiteral("repeat 1: sum keys differ between servers (valkey-8.0.1 100, valkey-9.1.2 99) — no "
                                                  "server reported an error, so none is blamed (keys may have expired or been evicted)"));
    }

    // A combined timed pass on a server that refused a type has no comparable time total.
    void combinedPassWithARefusedTypeHasNoTimeTotal()
    {
        ResultsBundle bundle = ecommerce(1);
        bundle.servers[0].repeats.front().byType[QStringLiteral("sum")] = refused(QStringLiteral("SUMX"));
        const Figures figures(bundle);
        QCOMPARE(figures.commandTime().categoryIndex(QStringLiteral("all")), -1);
        QVERIFY(figures.perEvent().categories.empty());
        // Memory has one common type: no total either.
        QCOMPARE(figures.memory().categoryIndex(QStringLiteral("all")), -1);
    }

    void baselineIsTheOldestValkeyUnlessChosen()
    {
        ResultsBundle bundle = ecommerce(1);
        ServerRun redis = server(QStringLiteral("7.0.15"));
        redis.id = QStringLiteral("redis-7.0.15");
        redis.product = QStringLiteral("redis");
        bundle.servers.push_back(redis);
        QCOMPARE(effectiveBaseline(bundle, QString()), QStringLiteral("valkey-8.0.1"));
        QCOMPARE(effectiveBaseline(bundle, QStringLiteral("valkey-9.1.2")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(effectiveBaseline(bundle, QStringLiteral("gone")), QStringLiteral("valkey-8.0.1"));
        Figures::Options options;
        options.hiddenServers = {QStringLiteral("valkey-8.0.1")};
        QCOMPARE(Figures(bundle, options).baselineId(), QStringLiteral("valkey-9.1.2"));
    }
};

QTEST_GUILESS_MAIN(TestFigures)
#include "tst_figures.moc"
