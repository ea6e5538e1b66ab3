#include "latencyhistogram.h"

#include <algorithm>

namespace {

Outcome<long long> latencyInteger(const Reply &reply, const QString &what)
{
    if (reply.kind != Reply::Kind::Integer)
        return Error{QStringLiteral("%1 is %2, not an integer").arg(what, describeReply(reply))};
    return reply.integer;
}

Outcome<CumulativeLatency> parseOneCommand(const QString &name, const Reply &body)
{
    const QString where = QStringLiteral("LATENCY HISTOGRAM %1").arg(name);
    if (body.kind != Reply::Kind::Array || body.elements.size() != 4 || body.elements[0].text != "calls"
        || body.elements[2].text != "histogram_usec")
        return Error{QStringLiteral("%1 is %2, not calls and histogram_usec").arg(where, describeReply(body))};
    Outcome<long long> calls = latencyInteger(body.elements[1], where + QStringLiteral(" calls"));
    if (!calls)
        return Error{calls.error()};
    const Reply &buckets = body.elements[3];
    if (buckets.kind != Reply::Kind::Array || buckets.elements.size() % 2 != 0)
        return Error{QStringLiteral("%1 histogram_usec is %2, not bound and count pairs").arg(where, describeReply(buckets))};
    CumulativeLatency histogram;
    histogram.calls = calls.value();
    long long bound = 0;
    long long count = 0;
    for (size_t at = 0; at < buckets.elements.size(); at += 2) {
        Outcome<long long> nextBound = latencyInteger(buckets.elements[at], where + QStringLiteral(" bucket bound"));
        if (!nextBound)
            return Error{nextBound.error()};
        Outcome<long long> nextCount = latencyInteger(buckets.elements[at + 1], where + QStringLiteral(" bucket count"));
        if (!nextCount)
            return Error{nextCount.error()};
        if (nextBound.value() <= bound || nextBound.value() > kLongestLatencyBucketUs)
            return Error{QStringLiteral("%1: bucket bound %2 µs does not follow %3 µs within %4 µs: not a bucket of the server's")
                             .arg(where).arg(nextBound.value()).arg(bound).arg(kLongestLatencyBucketUs)};
        if (nextCount.value() <= count)
            return Error{QStringLiteral("%1: %2 calls up to %3 µs after %4 up to %5 µs: cumulative counts only grow")
                             .arg(where).arg(nextCount.value()).arg(nextBound.value()).arg(count).arg(bound)};
        bound = nextBound.value();
        count = nextCount.value();
        histogram.cumulative.emplace_back(bound, count);
    }
    if (count != histogram.calls)
        return Error{QStringLiteral("%1: the buckets hold %2 calls, calls says %3").arg(where).arg(count).arg(histogram.calls)};
    return histogram;
}

// The cumulative count at `bound`: that of the last bucket at or below it (a bucket left out of
// the reply did not grow).
long long cumulativeAt(const CumulativeLatency &histogram, long long bound)
{
    long long count = 0;
    for (const auto &[upper, cumulative] : histogram.cumulative) {
        if (upper > bound)
            break;
        count = cumulative;
    }
    return count;
}

} // namespace

Outcome<LatencyHistograms> parseLatencyHistogram(const Reply &reply)
{
    if (reply.kind != Reply::Kind::Array || reply.elements.size() % 2 != 0)
        return Error{QStringLiteral("LATENCY HISTOGRAM answered %1, not command and histogram pairs").arg(describeReply(reply))};
    LatencyHistograms histograms;
    for (size_t at = 0; at < reply.elements.size(); at += 2) {
        const Reply &name = reply.elements[at];
        if (name.kind != Reply::Kind::String || name.text.empty())
            return Error{QStringLiteral("LATENCY HISTOGRAM named a command with %1").arg(describeReply(name))};
        const QString command = QString::fromStdString(name.text).toLower();
        Outcome<CumulativeLatency> histogram = parseOneCommand(command, reply.elements[at + 1]);
        if (!histogram)
            return Error{histogram.error()};
        if (!histograms.emplace(command, std::move(histogram.value())).second)
            return Error{QStringLiteral("LATENCY HISTOGRAM named %1 twice").arg(command)};
    }
    return histograms;
}

Outcome<LatencyBuckets> latencyChange(const CumulativeLatency &before, const CumulativeLatency &after)
{
    std::vector<long long> bounds;
    for (const auto &bucket : before.cumulative)
        bounds.push_back(bucket.first);
    for (const auto &bucket : after.cumulative)
        bounds.push_back(bucket.first);
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    LatencyBuckets change;
    long long below = 0;   // calls of the pass up to the bucket before
    for (long long bound : bounds) {
        const long long upTo = cumulativeAt(after, bound) - cumulativeAt(before, bound);
        if (upTo < below)
            return Error{QStringLiteral("the calls up to %1 µs went back from %2 to %3 (the statistics were reset in between)")
                             .arg(bound).arg(below).arg(upTo)};
        if (upTo > below)
            change.counts.emplace_back(bound, upTo - below);
        below = upTo;
    }
    return change;
}
