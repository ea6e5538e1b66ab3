#pragma once
// The server-side latency of each command over a timed pass, as the server's own LATENCY
// HISTOGRAM counted it: calls per bucket, the difference of the cumulative buckets read at the
// pass's edges (runner/servers/latencyhistogram.h). A bucket is named by its upper bound in whole
// microseconds as the server names it (1, 2, 4, 8, 16, 33, 66, 132, …): the server times a
// command in whole µs, so a command faster than 1 µs is in the first bucket, "≤ 1 µs". These are
// the server's times inside each command, not the client's round trip (PassTiming's latency).

#include "outcome.h"
#include <QString>
#include <map>
#include <utility>
#include <vector>

struct LatencyBuckets {
    // (upper bound in µs, calls in the bucket), bounds ascending, every count above 0.
    std::vector<std::pair<long long, long long>> counts;

    // The calls of every bucket; 0 when they do not add up within 64 bits (problem() says so).
    long long calls() const
    {
        long long total = 0;
        for (const auto &bucket : counts) {
            if (__builtin_add_overflow(total, bucket.second, &total))
                return 0;
        }
        return total;
    }
    // What makes these buckets no reading a server could give (a bound not above the one before
    // or not positive, a count not above 0, calls past 2^63 − 1); empty when none.
    QString problem() const
    {
        long long previous = 0;
        long long total = 0;
        for (const auto &[bound, count] : counts) {
            if (bound <= previous)
                return QStringLiteral("bucket bound %1 µs does not follow %2").arg(bound).arg(previous);
            if (count <= 0)
                return QStringLiteral("bucket ≤ %1 µs holds %2 calls").arg(bound).arg(count);
            if (__builtin_add_overflow(total, count, &total))
                return QStringLiteral("the calls pass 2^63 − 1");
            previous = bound;
        }
        return QString();
    }
    bool operator==(const LatencyBuckets &other) const { return counts == other.counts; }
};

struct ServerTails {
    // By command as commandstats names it ("set", "config|get"): the pass's calls per bucket.
    std::map<QString, LatencyBuckets> byCommand;
    // A command of the pass whose histogram is no figure of the workload's, and why ("the
    // server's histogram counted 20,002 calls where the workload made 20,000: not the
    // workload's alone").
    std::map<QString, QString> commandUnavailable;
    // Why no tails were read at all, naming the server's refusal or setting; empty when they were.
    QString unavailable;

    // Nothing recorded: a bundle from before Versus read the histograms, or a pass not timed.
    bool empty() const { return byCommand.empty() && commandUnavailable.empty() && unavailable.isEmpty(); }
};

// Two sets of buckets together (a cluster's primaries, or the passes of several patterns that
// sent one command); an error when the calls pass 2^63 − 1.
Outcome<LatencyBuckets> addLatencyBuckets(const LatencyBuckets &one, const LatencyBuckets &other);
