#include "bundlemerge.h"

#include <algorithm>

namespace {

void appendRenamed(ResultsBundle &merged, const ResultsBundle &source, const QString &suffix)
{
    for (ServerRun run : source.servers) {
        run.id = QStringLiteral("%1 @ %2").arg(run.id, suffix);
        // Product and version stay, so versions still sort, colour and title as versions
        // (a development build stays one); the name keeps the two machines' bars apart.
        run.bundleName = suffix;
        merged.servers.push_back(run);
    }
}

ComparedBundle comparedBundle(const ResultsBundle &source, const QString &name)
{
    return {name,           source.created,  source.machine,        source.versusVersion, source.workload,
            source.schedule, source.repeats, source.eventsPerBatch, source.clients};
}

} // namespace

ResultsBundle mergeBundles(const ResultsBundle &a, const QString &nameA, const ResultsBundle &b, const QString &nameB)
{
    QString first = nameA.isEmpty() ? a.machine.hostname : nameA;
    QString second = nameB.isEmpty() ? b.machine.hostname : nameB;
    if (first.isEmpty())
        first = QStringLiteral("A");
    if (second.isEmpty() || second == first) {
        second = second.isEmpty() ? QStringLiteral("B") : second + QStringLiteral(" (2)");
    }
    ResultsBundle merged = a;
    merged.servers.clear();
    merged.baseline.clear();
    // Two bundles compare at their shown points; a sweep of one of them is not the comparison's.
    merged.sweep = SweepResults();
    merged.complete = a.complete && b.complete;
    merged.repeats = std::max(a.repeats, b.repeats);
    if (b.workload.name != a.workload.name || b.workload.events != a.workload.events)
        merged.workload.name = QStringLiteral("%1 vs %2").arg(a.workload.name, b.workload.name);
    for (const QString &type : b.workload.types)
        if (!merged.workload.types.contains(type))
            merged.workload.types << type;
    if (a.machine.cpuModel != b.machine.cpuModel || a.machine.hostname != b.machine.hostname)
        merged.machine.hostname = QStringLiteral("%1 vs %2").arg(first, second);
    merged.compared = {comparedBundle(a, first), comparedBundle(b, second)};
    appendRenamed(merged, a, first);
    appendRenamed(merged, b, second);
    return merged;
}
