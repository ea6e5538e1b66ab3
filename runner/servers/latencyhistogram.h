#pragma once
// LATENCY HISTOGRAM <command>…: the server's per-command latency, as cumulative calls at each
// bucket's upper bound in whole µs (Valkey and Redis 7.0+, src/latency.c fillCommandCDF):
//   1) "set"  2) 1) "calls"  2) (integer) 20000  3) "histogram_usec"  4) 1) (integer) 1  2) (integer) 19876
//                                                                        3) (integer) 2  4) (integer) 19990 …
// A bucket whose cumulative count did not grow is left out of the reply, and a command with no
// histogram (latency tracking off since its last reset, or never called) is left out too.
// A pass's calls per bucket are the difference of two readings (latencyChange). Every reply is
// checked against what a server can answer: a malformed or impossible one is an error naming
// what is wrong, never a figure.

#include "outcome.h"
#include "redisconnection.h"
#include "servertails.h"
#include <QString>
#include <map>
#include <utility>
#include <vector>

struct CumulativeLatency {
    long long calls = 0;
    std::vector<std::pair<long long, long long>> cumulative;   // (bound µs, calls ≤ bound), ascending
};
using LatencyHistograms = std::map<QString, CumulativeLatency>;

// The server's histograms track up to 1 s (LATENCY_HISTOGRAM_MAX_VALUE), whose bucket is named
// 1,082,130 µs: a bound past 2 s is no bucket of theirs.
constexpr long long kLongestLatencyBucketUs = 2'000'000;

// The reply by command name (as the server spells it: "set", "config|get").
Outcome<LatencyHistograms> parseLatencyHistogram(const Reply &reply);
// after − before: the calls of each bucket made in between. A command missing before had no
// histogram yet (all its calls are new). Counts that went back (a reset in between) are an error.
Outcome<LatencyBuckets> latencyChange(const CumulativeLatency &before, const CumulativeLatency &after);
