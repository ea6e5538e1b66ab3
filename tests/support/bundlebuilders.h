#pragma once
// Pieces of hand-built results bundles for the tests of the figures and of their text forms.

#include "resultsbundle.h"

#include <QString>
#include <cmath>
#include <vector>

namespace BundleBuilders {

inline CommandStat stat(long long calls, long long usec)
{
    CommandStat result;
    result.calls = calls;
    result.usec = usec;
    return result;
}

// `keys` keys of `bytesPerKey` each; MEMORY USAGE says 80% of that (more than 10% off).
inline TypeMemory typeMemory(long long keys, double bytesPerKey)
{
    TypeMemory type;
    type.keys = keys;
    type.usedMemoryDelta = (long long)(double(keys) * bytesPerKey);
    type.memoryUsageBytesPerKey = bytesPerKey * 0.8;
    type.encodings = {{QStringLiteral("int"), keys}};
    return type;
}

// The same results with every memory figure of the servers `factor` times as large.
inline ResultsBundle withMemoryScaled(ResultsBundle bundle, double factor)
{
    for (ServerRun &run : bundle.servers) {
        for (RepeatResult &repeat : run.repeats) {
            repeat.usedMemoryDelta = (long long)(double(repeat.usedMemoryDelta) * factor);
            for (auto &entry : repeat.byType) {
                entry.second.usedMemoryDelta = (long long)(double(entry.second.usedMemoryDelta) * factor);
            }
        }
    }
    return bundle;
}

// A type the server refused, as Valkey 8.x refuses HSETEX.
inline TypeMemory refused(const QString &command)
{
    TypeMemory type;
    type.status = TypeStatus::Unsupported;
    type.error = QStringLiteral("ERR unknown command '%1'").arg(command);
    return type;
}

// `run` as a build of `kind` whose allocator said `allocator` and `quantum` (0: unknown, for
// `problem`).
inline ServerRun withBuild(ServerRun run, BuildKind kind, const QString &allocator, int quantum,
                           const QString &problem = QString())
{
    run.origin.kind = kind;
    if (kind == BuildKind::DebianPackage)
        run.origin.suite = QStringLiteral("trixie");
    if (kind == BuildKind::UpstreamBuild)
        run.origin.source = QStringLiteral("valkey-%1.tar.gz").arg(run.version);
    run.allocatorFacts.memAllocator = allocator;
    run.allocatorFacts.quantumBytes = quantum;
    run.allocatorFacts.quantumProblem = problem;
    return run;
}

// `bundle` with its second server's time per command in repeat r that of the first server in the
// same repeat times ratios[r], every command: the paired change is known exactly.
inline ResultsBundle withPairedTimes(ResultsBundle bundle, const std::vector<double> &ratios)
{
    bundle.repeats = int(ratios.size());
    ServerRun &old = bundle.servers[0];
    ServerRun &newer = bundle.servers[1];
    old.repeats.resize(ratios.size());
    newer.repeats.resize(ratios.size());
    for (size_t r = 0; r < ratios.size(); ++r) {
        newer.repeats[r].timing = old.repeats[r].timing;
        for (auto &entry : newer.repeats[r].timing.byCommand)
            entry.second.usec = (long long)std::llround(double(entry.second.usec) * ratios[r]);
    }
    return bundle;
}

} // namespace BundleBuilders
