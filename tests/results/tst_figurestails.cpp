// Server-side tails in the figures layer (figurestails.cpp): each percentile is the bucket it
// falls in, counted exactly from the calls per bucket; the median over repeats stays a bucket
// bound; a server without tails, or with too few calls, says why; no change is computed against
// the baseline; and the bundle keeps the buckets, refusing impossible ones. Nothing is measured.

#include "bundlejson.h"
#include "jsonsupport.h"
#include "figures.h"
#include "servertimebundle.h"
#include "tailsmarkdown.h"

#include <QtTest>
#include <climits>

namespace {

// incrby's buckets in one repeat: 1,000 calls, 980 of them ≤ 1 µs, 15 ≤ 2, 4 ≤ 16 and 1 ≤ 33,
// its p99 bucket moved to `p99Bound` (2 by default).
LatencyBuckets incrbyTail(long long p99Bound = 2)
{
    return LatencyBuckets{{{1, 980}, {p99Bound, 15}, {16, 4}, {33, 1}}};
}

// The fixture's two servers over three repeats, with tails on the first; the second's were refused.
ResultsBundle tailsBundle(const std::vector<long long> &p99Bounds = {2, 2, 2})
{
    ResultsBundle bundle = withServerTimes(1.0, 1.0, 1.0);
    for (size_t r = 0; r < bundle.servers[0].repeats.size(); ++r) {
        ServerTails &tails = bundle.servers[0].repeats[r].timing.tails;
        tails.byCommand[QStringLiteral("incrby")] = incrbyTail(p99Bounds[r]);
        tails.byCommand[QStringLiteral("lpush")] = LatencyBuckets{{{1, 900}, {4, 82}}};   // 982 calls: no p99.9
        bundle.servers[1].repeats[r].timing.tails.unavailable = QStringLiteral("LATENCY HISTOGRAM refused: \"ERR unknown command\"");
    }
    return bundle;
}

const Figure &tailOf(const FigureTable &table, const QString &command, const QString &server)
{
    return table.at(table.categoryIndex(command), server);
}

} // namespace

class TestFiguresTails : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachPercentileIsItsBucket()
    {
        const ResultsBundle bundle = tailsBundle();
        const Figures figures(bundle);
        const QString id = bundle.servers[0].id;
        // p50: rank 500, in the first bucket; p99: rank 990, past the first 980; p99.9: rank
        // 999, the 999th call is the last of the 16 µs bucket.
        const Figure p50 = tailOf(figures.serverTails(Measure::ServerP50Usec), QStringLiteral("incrby"), id);
        const Figure p99 = tailOf(figures.serverTails(Measure::ServerP99Usec), QStringLiteral("incrby"), id);
        const Figure p999 = tailOf(figures.serverTails(Measure::ServerP999Usec), QStringLiteral("incrby"), id);
        QCOMPARE(p50.value, 1.0);
        QCOMPARE(p99.value, 2.0);
        QCOMPARE(p999.value, 16.0);
        QCOMPARE(Figures::serverTailText(p50), QStringLiteral("≤ 1 µs"));
        QCOMPARE(Figures::serverTailText(p999), QStringLiteral("≤ 16 µs"));
        QCOMPARE(p50.state, FigureState::Measured);
        // The chart's table is the p99.
        QCOMPARE(tailOf(figures.serverTailsP99(), QStringLiteral("incrby"), id).value, 2.0);
    }

    void theMedianOfRepeatsStaysABucketBound()
    {
        const QString incrby = QStringLiteral("incrby");
        ResultsBundle three = tailsBundle({2, 8, 4});
        QCOMPARE(tailOf(Figures(three).serverTails(Measure::ServerP99Usec), incrby, three.servers[0].id).value, 4.0);
        // Two repeats: the higher middle one, not 5.
        ResultsBundle two = tailsBundle({2, 8, 4});
        two.repeats = 2;
        for (ServerRun &run : two.servers)
            run.repeats.pop_back();
        QCOMPARE(tailOf(Figures(two).serverTails(Measure::ServerP99Usec), incrby, two.servers[0].id).value, 8.0);
    }

    void aServerWithoutTailsSaysWhy()
    {
        const ResultsBundle bundle = tailsBundle();
        const Figures figures(bundle);
        const FigureTable p99 = figures.serverTails(Measure::ServerP99Usec);
        const Figure &refused = tailOf(p99, QStringLiteral("incrby"), bundle.servers[1].id);
        QCOMPARE(refused.state, FigureState::Absent);
        QVERIFY2(refused.note.contains(QStringLiteral("LATENCY HISTOGRAM refused")), qPrintable(refused.note));
        QVERIFY(Figures::serverTailText(refused).isEmpty());
        // 982 calls give a p99 but no p99.9, which would be the slowest call.
        QCOMPARE(tailOf(p99, QStringLiteral("lpush"), bundle.servers[0].id).value, 4.0);
        const Figure &few = tailOf(figures.serverTails(Measure::ServerP999Usec), QStringLiteral("lpush"), bundle.servers[0].id);
        QCOMPARE(few.state, FigureState::Absent);
        QVERIFY2(few.note.contains(QStringLiteral("982 calls: a server-side p99.9 needs 1000")), qPrintable(few.note));
        // A command the pass sent but whose histogram was not the workload's alone.
        ResultsBundle mixed = tailsBundle();
        for (RepeatResult &repeat : mixed.servers[0].repeats)
            repeat.timing.tails.commandUnavailable[QStringLiteral("set")] = QStringLiteral("not the workload's alone");
        const Figure &set = tailOf(Figures(mixed).serverTails(Measure::ServerP50Usec), QStringLiteral("set"), mixed.servers[0].id);
        QVERIFY2(set.note.contains(QStringLiteral("not the workload's alone")), qPrintable(set.note));
        // A bundle from before Versus read them.
        const ResultsBundle old = withServerTimes(1.0, 1.0, 1.0);
        const Figure &none = tailOf(Figures(old).serverTails(Measure::ServerP50Usec), QStringLiteral("incrby"), old.servers[0].id);
        QCOMPARE(none.note, QStringLiteral("server-side tails not recorded in this bundle"));
    }

    void noChangeIsComputedBetweenBuckets()
    {
        ResultsBundle bundle = tailsBundle();
        for (RepeatResult &repeat : bundle.servers[1].repeats) {
            repeat.timing.tails.unavailable.clear();
            repeat.timing.tails.byCommand[QStringLiteral("incrby")] = incrbyTail(4);
        }
        const Figures figures(bundle);
        const Figure &newer = tailOf(figures.serverTails(Measure::ServerP99Usec), QStringLiteral("incrby"), bundle.servers[1].id);
        QCOMPARE(newer.value, 4.0);
        QVERIFY(!newer.change);
        QVERIFY(!newer.ratio);
        QVERIFY(newer.unresolved.isEmpty());
    }

    void markdownSaysServerSideAndTheBucket()
    {
        const ResultsBundle bundle = tailsBundle();
        const Figures figures(bundle);
        const QString markdown = serverTailsMarkdown(figures, figures.serverIds(), QStringLiteral("##"));
        QVERIFY2(markdown.contains(QStringLiteral("## Server-side latency per command")), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("| INCRBY p99.9 | ≤ 16 µs |")), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("LATENCY HISTOGRAM refused")), qPrintable(markdown));
        QVERIFY(!markdown.contains(QStringLiteral("0.001")));
    }

    void theBundleKeepsTheBucketsAndRefusesImpossibleOnes()
    {
        const ResultsBundle bundle = tailsBundle();
        const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("tails.json"));
        QVERIFY2(read, qPrintable(read.error()));
        QCOMPARE(read->servers[0].repeats[1].timing.tails.byCommand.at(QStringLiteral("incrby")), incrbyTail());
        QCOMPARE(read->servers[1].repeats[0].timing.tails.unavailable, bundle.servers[1].repeats[0].timing.tails.unavailable);

        const Json json = Json::parse(bundleToJson(bundle).toStdString());
        const std::string id = bundle.servers[0].id.toStdString();
        QCOMPARE(json["runs"][id][0]["server_tails"]["by_command"]["incrby"].dump(), std::string("[[1,980],[2,15],[16,4],[33,1]]"));
        const std::pair<const char *, QString> hostile[] = {
            {"[[2,980],[1,15],[16,4],[33,1]]", QStringLiteral("does not follow")},
            {"[[1,980],[2,0],[16,4],[33,1]]", QStringLiteral("holds 0 calls")},
            {"[[1,9223372036854775807],[2,15],[16,4],[33,1]]", QStringLiteral("pass 2^63 − 1")},
            {"[[1,18446744073709551615],[2,15],[16,4],[33,1]]", QStringLiteral("passes 2^63 − 1")},
            {"[[1,\"980\"],[2,15],[16,4],[33,1]]", QStringLiteral("whole numbers")},
            {"{\"1\":980}", QStringLiteral("not a list")},
        };
        for (const auto &[replacement, says] : hostile) {
            Json edited = json;
            edited["runs"][id][0]["server_tails"]["by_command"]["incrby"] = Json::parse(replacement);
            const Outcome<ResultsBundle> bad = bundleFromJson(QByteArray::fromStdString(edited.dump()), QStringLiteral("tails.json"));
            QVERIFY2(bad, qPrintable(bad.error()));
            const ServerTails &tails = bad->servers[0].repeats[0].timing.tails;
            QVERIFY(!tails.byCommand.count(QStringLiteral("incrby")));
            QVERIFY2(tails.commandUnavailable.at(QStringLiteral("incrby")).contains(says),
                     qPrintable(tails.commandUnavailable.at(QStringLiteral("incrby"))));
            // And no view publishes it: the figure comes from the other repeats alone.
            const Figure figure = tailOf(Figures(bad.value()).serverTails(Measure::ServerP50Usec), QStringLiteral("incrby"), bad->servers[0].id);
            QCOMPARE(figure.byRepeat.size(), size_t(2));
            QVERIFY(!figure.byRepeat.count(0));
        }
    }
};

QTEST_GUILESS_MAIN(TestFiguresTails)
#include "tst_figurestails.moc"
