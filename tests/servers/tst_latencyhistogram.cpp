// LATENCY HISTOGRAM replies (latencyhistogram.h): parsed as the server sends them, every
// impossible reply refused with what is wrong, and a pass's calls per bucket from the
// difference of two cumulative readings, bucket by bucket.

#include "latencyhistogram.h"
#include "replyvalues.h"

#include <QtTest>
#include <climits>

namespace {

// One command's entry as the server writes it: calls, then bound and cumulative count pairs.
std::vector<Reply> histEntry(const std::string &name, long long calls, const std::vector<long long> &pairs)
{
    std::vector<Reply> buckets;
    for (long long value : pairs)
        buckets.push_back(ReplyValues::number(value));
    return {ReplyValues::text(name),
            ReplyValues::list({ReplyValues::text("calls"), ReplyValues::number(calls), ReplyValues::text("histogram_usec"), ReplyValues::list(buckets)})};
}

Reply histReply(const std::vector<std::vector<Reply>> &entries)
{
    std::vector<Reply> all;
    for (const std::vector<Reply> &entry : entries)
        all.insert(all.end(), entry.begin(), entry.end());
    return ReplyValues::list(all);
}

CumulativeLatency histCumulative(long long calls, std::vector<std::pair<long long, long long>> buckets)
{
    return CumulativeLatency{calls, std::move(buckets)};
}

// The replies refusesImpossibleReplies_data() names by their place, in its order.
std::vector<Reply> hostileReplies()
{
    return {
        ReplyValues::text("OK"),
        ReplyValues::list({ReplyValues::text("set")}),
        histReply({{ReplyValues::number(5), histEntry("set", 1, {1, 1})[1]}}),
        histReply({{ReplyValues::text("set"), ReplyValues::list({ReplyValues::text("calls"), ReplyValues::text("12"),
                                                                 ReplyValues::text("histogram_usec"), ReplyValues::list({})})}}),
        histReply({{ReplyValues::text("set"), ReplyValues::list({ReplyValues::text("calls"), ReplyValues::number(1), ReplyValues::text("histogram_usec"),
                                                                 ReplyValues::list({ReplyValues::text("1"), ReplyValues::number(1)})})}}),
        histReply({histEntry("set", 5, {1, 7, 2, 5})}),
        histReply({histEntry("set", 9, {4, 7, 2, 9})}),
        histReply({histEntry("set", 1, {0, 1})}),
        histReply({histEntry("set", 1, {LLONG_MAX, 1})}),
        histReply({histEntry("set", LLONG_MAX, {1, 3})}),
        histReply({histEntry("set", -1, {1, -1})}),
        histReply({histEntry("set", 1, {1, 1}), histEntry("SET", 1, {1, 1})})};
}

} // namespace

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesTheServersReply()
    {
        const Reply reply = histReply({histEntry("SET", 20000, {1, 19876, 2, 19990, 16, 20000}),
                                            histEntry("config|get", 1, {4, 1})});
        const Outcome<LatencyHistograms> parsed = parseLatencyHistogram(reply);
        QVERIFY2(parsed, qPrintable(parsed.error()));
        QCOMPARE(parsed->size(), size_t(2));
        const CumulativeLatency &set = parsed->at(QStringLiteral("set"));
        QCOMPARE(set.calls, 20000LL);
        const std::vector<std::pair<long long, long long>> expected{{1, 19876}, {2, 19990}, {16, 20000}};
        QCOMPARE(set.cumulative, expected);
        QCOMPARE(parsed->at(QStringLiteral("config|get")).calls, 1LL);
        QVERIFY(parseLatencyHistogram(ReplyValues::list({}))->empty());   // no command had a histogram
    }

    void refusesImpossibleReplies_data()
    {
        QTest::addColumn<int>("reply");   // its place in hostileReplies()
        QTest::addColumn<QString>("says");
        int at = 0;
        QTest::newRow("not an array") << at++
                                        << QStringLiteral("not command and histogram pairs");
        QTest::newRow("odd length") << at++
                                        << QStringLiteral("not command and histogram pairs");
        QTest::newRow("name not a string") << at++
                                        << QStringLiteral("named a command with the integer 5");
        QTest::newRow("calls as text") << at++
                                        << QStringLiteral("calls is the bulk string \"12\", not an integer");
        QTest::newRow("bound as text") << at++
                                        << QStringLiteral("bucket bound is the bulk string \"1\"");
        QTest::newRow("counts go back") << at++
                                        << QStringLiteral("5 calls up to 2 µs after 7 up to 1 µs");
        QTest::newRow("bounds go back") << at++
                                        << QStringLiteral("bucket bound 2 µs does not follow 4 µs");
        QTest::newRow("bound zero") << at++
                                        << QStringLiteral("bucket bound 0 µs does not follow 0 µs");
        QTest::newRow("bound past the histogram") << at++
                                        << QStringLiteral("not a bucket of the server's");
        QTest::newRow("calls not the buckets'") << at++
                                        << QStringLiteral("the buckets hold 3 calls, calls says 9223372036854775807");
        QTest::newRow("negative count") << at++
                                        << QStringLiteral("-1 calls up to 1 µs after 0");
        QTest::newRow("named twice") << at++
                                        << QStringLiteral("named set twice");
    }

    void refusesImpossibleReplies()
    {
        QFETCH(int, reply);
        QFETCH(QString, says);
        const Outcome<LatencyHistograms> parsed = parseLatencyHistogram(hostileReplies().at(size_t(reply)));
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(says), qPrintable(parsed.error()));
    }

    void aPassIsTheDifferenceBucketByBucket()
    {
        // Before: 10 calls ≤ 1 µs, 2 more ≤ 4 µs. After: 110 ≤ 1, 111 ≤ 2 (a bucket the first reading
        // left out, as it had not grown), 115 ≤ 4, 116 ≤ 33.
        const CumulativeLatency before = histCumulative(12, {{1, 10}, {4, 12}});
        const CumulativeLatency after = histCumulative(116, {{1, 110}, {2, 111}, {4, 115}, {33, 116}});
        const Outcome<LatencyBuckets> change = latencyChange(before, after);
        QVERIFY2(change, qPrintable(change.error()));
        const std::vector<std::pair<long long, long long>> expected{{1, 100}, {2, 1}, {4, 2}, {33, 1}};
        QCOMPARE(change->counts, expected);
        QCOMPARE(change->calls(), 104LL);
        QVERIFY(change->problem().isEmpty());
        // Nothing before (no histogram yet): the whole reading is the pass's.
        const Outcome<LatencyBuckets> fresh = latencyChange(CumulativeLatency(), after);
        const std::vector<std::pair<long long, long long>> whole{{1, 110}, {2, 1}, {4, 4}, {33, 1}};
        QCOMPARE(fresh->counts, whole);
        // The same reading twice: no calls at all.
        QVERIFY(latencyChange(after, after)->counts.empty());
    }

    void countsThatGoBackAreNoChange()
    {
        // A reset in between: the second reading holds fewer calls up to 1 µs than the first.
        const Outcome<LatencyBuckets> change = latencyChange(histCumulative(50, {{1, 50}}), histCumulative(20, {{1, 5}, {2, 20}}));
        QVERIFY(!change);
        QVERIFY2(change.error().contains(QStringLiteral("went back from 0 to -45")), qPrintable(change.error()));
        // Fewer calls in a higher bucket only: the step at 2 µs went back.
        const Outcome<LatencyBuckets> higher = latencyChange(histCumulative(10, {{1, 4}, {2, 10}}), histCumulative(11, {{1, 9}, {2, 11}}));
        QVERIFY(!higher);
        QVERIFY2(higher.error().contains(QStringLiteral("up to 2 µs went back from 5 to 1")), qPrintable(higher.error()));
    }

    void nodesAddUpWithin64Bits()
    {
        const LatencyBuckets one{{{1, 3}, {8, 1}}};
        const LatencyBuckets other{{{2, 5}, {8, 2}}};
        const Outcome<LatencyBuckets> sum = addLatencyBuckets(one, other);
        const std::vector<std::pair<long long, long long>> expected{{1, 3}, {2, 5}, {8, 3}};
        QCOMPARE(sum->counts, expected);
        const Outcome<LatencyBuckets> overflow = addLatencyBuckets(LatencyBuckets{{{1, LLONG_MAX}}}, LatencyBuckets{{{1, 1}}});
        QVERIFY(!overflow);
        QVERIFY2(overflow.error().contains(QStringLiteral("pass 2^63 − 1")), qPrintable(overflow.error()));
        // Two buckets whose calls together pass 2^63 − 1.
        const Outcome<LatencyBuckets> total = addLatencyBuckets(LatencyBuckets{{{1, LLONG_MAX}}}, LatencyBuckets{{{2, 1}}});
        QVERIFY(!total);
        QCOMPARE(LatencyBuckets({{{1, LLONG_MAX}, {2, 1}}}).calls(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
