#include "sweepviews.h"

namespace {

QString bytesPerKeyTitle(const SweepTable &) { return QStringLiteral("bytes per key"); }

std::vector<SweepView> makeSweepViews()
{
    std::vector<SweepView> views;
    {
        SweepView view{SweepChartKind::MemoryPerKey, QStringLiteral("sweep-memory-per-key")};
        view.chooserName = [](const ResultsBundle &) { return QStringLiteral("Bytes per key"); };
        view.title = [](const ResultsBundle &bundle) {
            return QStringLiteral("Memory per key against %1, %2").arg(bundle.sweep.parameter, bundle.workload.name);
        };
        view.valueTitle = bytesPerKeyTitle;
        view.table = [](const Figures &figures) { return figures.sweepFigures(Measure::BytesPerKey); };
        views.push_back(view);
    }
    {
        SweepView view{SweepChartKind::Ratio, QStringLiteral("sweep-ratio"), SweepPresence::ReferenceType};
        view.chooserName = [](const ResultsBundle &bundle) { return QStringLiteral("Against %1").arg(bundle.workload.referenceType); };
        view.title = [](const ResultsBundle &bundle) {
            return QStringLiteral("Memory per key as a multiple of %1, against %2")
                .arg(bundle.workload.referenceType, bundle.sweep.parameter);
        };
        view.valueTitle = [](const SweepTable &table) {
            return QStringLiteral("bytes per key as a multiple of %1's").arg(table.referenceType);
        };
        view.table = [](const Figures &figures) { return figures.sweepFigures(Measure::RatioToReference); };
        views.push_back(view);
    }
    {
        SweepView view{SweepChartKind::ClusterOverhead, QStringLiteral("sweep-cluster-overhead"), SweepPresence::BothTopologies};
        view.chooserName = [](const ResultsBundle &) { return QStringLiteral("Cost of cluster mode"); };
        view.title = [](const ResultsBundle &bundle) {
            return QStringLiteral("Cost of cluster mode against %1, %2").arg(bundle.sweep.parameter, bundle.workload.name);
        };
        view.valueTitle = [](const SweepTable &) { return QStringLiteral("bytes per key beyond standalone"); };
        view.table = [](const Figures &figures) { return figures.sweepClusterOverhead(); };
        views.push_back(view);
    }
    {
        SweepView view{SweepChartKind::TimeInside, QStringLiteral("sweep-time-inside-commands"), SweepPresence::TimedPasses};
        view.chooserName = [](const ResultsBundle &) { return QStringLiteral("Time inside the commands"); };
        view.title = [](const ResultsBundle &bundle) {
            return QStringLiteral("Server time per command inside the commands against %1, %2").arg(bundle.sweep.parameter, bundle.workload.name);
        };
        view.valueTitle = [](const SweepTable &) { return QStringLiteral("µs per command inside the commands"); };
        view.table = [](const Figures &figures) { return figures.sweepFigures(Measure::UsecPerCall); };
        views.push_back(view);
    }
    {
        SweepView view{SweepChartKind::TimeInAll, QStringLiteral("sweep-time-in-all"), SweepPresence::TimedPasses};
        view.chooserName = [](const ResultsBundle &) { return QStringLiteral("Time per command in all"); };
        view.title = [](const ResultsBundle &bundle) {
            return QStringLiteral("Server time per command in all against %1, %2").arg(bundle.sweep.parameter, bundle.workload.name);
        };
        view.valueTitle = [](const SweepTable &) { return QStringLiteral("µs of main-thread CPU per command"); };
        view.table = [](const Figures &figures) { return figures.sweepFigures(Measure::MainThreadCpuPerCall); };
        views.push_back(view);
    }
    return views;
}

bool sweepHas(const ResultsBundle &bundle, SweepPresence presence)
{
    switch (presence) {
    case SweepPresence::EverySweep: return true;
    case SweepPresence::ReferenceType: return !bundle.workload.referenceType.isEmpty();
    case SweepPresence::BothTopologies: return sweepHasBothTopologies(bundle);
    case SweepPresence::TimedPasses: return sweepHasTimedPasses(bundle);
    }
    return false;
}

} // namespace

const std::vector<SweepView> &sweepViews()
{
    static const std::vector<SweepView> views = makeSweepViews();
    return views;
}

const SweepView &sweepView(SweepChartKind kind)
{
    for (const SweepView &view : sweepViews()) {
        if (view.kind == kind)
            return view;
    }
    return sweepViews().front();
}

std::vector<SweepChartKind> sweepChartKinds(const ResultsBundle &bundle)
{
    std::vector<SweepChartKind> kinds;
    if (!bundle.isSweep())
        return kinds;
    for (const SweepView &view : sweepViews()) {
        if (sweepHas(bundle, view.presence))
            kinds.push_back(view.kind);
    }
    return kinds;
}

std::vector<SweepChartKind> sweepChartKindsOfRun(bool bothTopologies)
{
    std::vector<SweepChartKind> kinds;
    for (const SweepView &view : sweepViews()) {
        if (view.presence != SweepPresence::BothTopologies || bothTopologies)
            kinds.push_back(view.kind);
    }
    return kinds;
}
