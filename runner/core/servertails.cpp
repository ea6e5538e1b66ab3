#include "servertails.h"

Outcome<LatencyBuckets> addLatencyBuckets(const LatencyBuckets &one, const LatencyBuckets &other)
{
    std::map<long long, long long> merged(one.counts.begin(), one.counts.end());
    for (const auto &[bound, count] : other.counts) {
        long long &sum = merged[bound];
        if (__builtin_add_overflow(sum, count, &sum))
            return Error{QStringLiteral("the calls up to %1 µs pass 2^63 − 1 over the nodes").arg(bound)};
    }
    LatencyBuckets sum{{merged.begin(), merged.end()}};
    if (const QString problem = sum.problem(); !problem.isEmpty())
        return Error{problem};
    return sum;
}
