#pragma once
// One command's row of INFO commandstats: how often it ran and its execution time, summed.

struct CommandStat {
    long long calls = 0;
    long long usec = 0;
    double usecPerCall() const { return calls > 0 ? double(usec) / double(calls) : 0.0; }
};
