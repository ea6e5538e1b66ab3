#include "figuressweep.h"

#include "figuresdata.h"
#include "figureviews.h"
#include "presentation.h"
#include "provenance.h"
#include "sweepbundle.h"

#include <algorithm>
#include <functional>

namespace {

// A point's figure as the sweep shows it: a run that stopped during the point (a cancelled
// sweep) gives partial figures, whatever its own repeats said, and says so.
Figure pointFigure(Figure figure, const SweepPoint &point)
{
    if (point.complete || !figure.hasValue())
        return figure;
    figure.state = FigureState::Incomplete;
    figure.change.reset();
    figure.note = QStringLiteral("the run stopped before %1 finished").arg(point.value);
    return figure;
}

// The line of (server, category), added in the order first met.
SweepLine &lineFor(SweepTable &table, const QString &serverId, const FigureCategory &category, size_t points)
{
    for (SweepLine &line : table.lines) {
        if (line.serverId == serverId && line.categoryId == category.id)
            return line;
    }
    SweepLine line;
    line.serverId = serverId;
    line.categoryId = category.id;
    line.categoryLabel = category.label;
    line.points.assign(points, Figure());
    table.lines.push_back(line);
    return table.lines.back();
}

std::optional<SweepHeadline> headlineOf(const SweepTable &table, const QStringList &newestFirst)
{
    // Then the lines in display order: the servers compared are those of the point the bundle
    // shows, and a server that failed there may have lines at the other points.
    QStringList order = newestFirst;
    for (const SweepLine &line : table.lines) {
        if (!order.contains(line.serverId))
            order << line.serverId;
    }
    for (const QString &serverId : order) {
        for (size_t i = 0; i < table.lines.size(); ++i) {
            if (table.lines[i].serverId != serverId)
                continue;
            if (const auto span = finalSpan(table.lines[i]))
                return SweepHeadline{i, span->first, span->second};
        }
    }
    return std::nullopt;
}

} // namespace

// Each point's `pointTable`, line by line (totals left out), servers in display order.
SweepTable sweepOfPoints(const ResultsBundle &bundle, Measure measure, const FigureOptions &options,
                         const SweepPointTable &pointTable)
{
    SweepTable table;
    table.measure = measure;
    if (!bundle.isSweep())
        return table;
    table.parameter = bundle.sweep.parameter;
    const size_t count = bundle.sweep.points.size();
    const Figures whole(bundle, options);
    const QStringList serverOrder = whole.serverIds();
    SweepTable unordered;
    for (size_t i = 0; i < count; ++i) {
        const SweepPoint &point = bundle.sweep.points[i];
        table.values << point.value;
        table.numbers.push_back(point.value.toDouble());
        table.complete.push_back(point.complete);
        const Figures figures(sweepPointBundle(bundle, int(i)), options);
        if (table.typeNoun.isEmpty())
            table.typeNoun = figures.typeNoun();
        if (measure == Measure::RatioToReference) {
            if (figures.referenceType().isEmpty()) {
                SweepTable none;   // no reference type: no ratios at all
                none.measure = measure;
                none.parameter = table.parameter;
                return none;
            }
            table.referenceType = figures.referenceType();
        }
        const FigureTable shown = pointTable(figures);
        for (int c = 0; c < int(shown.categories.size()); ++c) {
            if (shown.categories[size_t(c)].total)
                continue;
            for (const QString &serverId : shown.servers) {
                SweepLine &line = lineFor(unordered, serverId, shown.categories[size_t(c)], count);
                line.points[i] = pointFigure(shown.at(c, serverId), point);
                if (const ServerRun *run = figures.bundle().server(serverId)) {
                    line.serverName = serverDisplayName(figures.bundle(), *run);
                    line.topology = run->topology;
                }
            }
        }
    }
    // Server by server in display order; within a server, the categories as first met.
    for (const QString &serverId : serverOrder) {
        for (const SweepLine &line : unordered.lines) {
            if (line.serverId == serverId)
                table.lines.push_back(line);
        }
    }
    table.headline = headlineOf(table, whole.newestLikeBaselineFirst());
    return table;
}

QStringList SweepTable::unfinishedValues() const
{
    QStringList unfinished;
    for (size_t i = 0; i < size_t(values.size()) && i < complete.size(); ++i) {
        if (!complete[i])
            unfinished << values[int(i)];
    }
    return unfinished;
}

std::optional<std::pair<size_t, size_t>> finalSpan(const SweepLine &line)
{
    const auto final = [](const Figure &figure) {
        return figure.settled() && figure.state != FigureState::Incomplete && figure.state != FigureState::Provisional;
    };
    std::optional<size_t> first;
    std::optional<size_t> last;
    for (size_t i = 0; i < line.points.size(); ++i) {
        if (!final(line.points[i]))
            continue;
        if (!first)
            first = i;
        last = i;
    }
    if (!first || *first == *last)
        return std::nullopt;
    return std::pair{*first, *last};
}

SweepTable sweepTable(const ResultsBundle &bundle, Measure measure, const FigureOptions &options)
{
    if (measure == Measure::UsecPerCall || measure == Measure::MainThreadCpuPerCall)
        return sweepTimeTable(bundle, measure, options);
    return sweepOfPoints(bundle, measure, options, [measure](const Figures &figures) {
        return measure == Measure::RatioToReference ? figures.referenceRatios() : figures.memory();
    });
}

SweepTable clusterOverheadSweep(const ResultsBundle &bundle, const FigureOptions &options)
{
    SweepTable table = sweepOfPoints(bundle, Measure::BytesPerKey, options,
                               [](const Figures &figures) { return figures.clusterOverhead(); });
    table.clusterOverhead = true;
    return table;
}

SweepTable Figures::sweepFigures(Measure measure) const
{
    std::shared_ptr<const SweepTable> &cached = d->sweepCache[int(measure)];
    if (!cached)
        cached = std::make_shared<const SweepTable>(sweepTable(d->bundle, measure, d->options));
    return *cached;
}

SweepTable Figures::sweepClusterOverhead() const
{
    // The cost of cluster mode is bytes per key; its table is kept apart from the memory one.
    std::shared_ptr<const SweepTable> &cached = d->sweepCache[-1];
    if (!cached)
        cached = std::make_shared<const SweepTable>(clusterOverheadSweep(d->bundle, d->options));
    return *cached;
}

namespace {

// The first and last point where both lines have a final figure, when they differ.
std::optional<std::pair<size_t, size_t>> sharedSpan(const SweepLine &a, const SweepLine &b)
{
    SweepLine both = a;
    for (size_t i = 0; i < both.points.size() && i < b.points.size(); ++i) {
        if (!b.points[i].settled() || b.points[i].state == FigureState::Incomplete || b.points[i].state == FigureState::Provisional)
            both.points[i] = Figure();
    }
    return finalSpan(both);
}

QString valueText(const SweepTable &table, double value)
{
    return table.measure == Measure::RatioToReference ? formatMultiple(value) : formatFigure(value);
}

} // namespace

QStringList rankingChanges(const SweepTable &table)
{
    // A time order is said only where the noise rule resolves it (SweepTable::gapChanges).
    if (isTimeMeasure(table.measure))
        return {};
    const QString more = table.clusterOverhead ? QStringLiteral("costs more in cluster mode than") : QStringLiteral("takes more than");
    const QString unit = table.measure == Measure::RatioToReference ? QString() : QStringLiteral(" bytes per key");
    QStringList said;
    for (size_t i = 0; i < table.lines.size(); ++i) {
        for (size_t j = i + 1; j < table.lines.size(); ++j) {
            const SweepLine &a = table.lines[i];
            const SweepLine &b = table.lines[j];
            if (a.categoryId != b.categoryId || !(a.topology == b.topology))
                continue;
            const std::optional<std::pair<size_t, size_t>> span = sharedSpan(a, b);
            if (!span)
                continue;
            const auto [first, last] = *span;
            const double a0 = a.points[first].value, b0 = b.points[first].value;
            const double a1 = a.points[last].value, b1 = b.points[last].value;
            if ((a0 - b0) * (a1 - b1) >= 0)
                continue;
            const bool aFirstMore = a0 > b0;
            const SweepLine &higher = aFirstMore ? a : b;
            const SweepLine &lower = aFirstMore ? b : a;
            said << QStringLiteral("%1: %2 %3 %4 at %5=%6 (%7 against %8%9) and less at %5=%10 (%11 against %12)")
                        .arg(a.categoryLabel, higher.serverName, more, lower.serverName, table.parameter, table.values[int(first)],
                             valueText(table, aFirstMore ? a0 : b0), valueText(table, aFirstMore ? b0 : a0), unit)
                        .arg(table.values[int(last)], valueText(table, aFirstMore ? a1 : b1), valueText(table, aFirstMore ? b1 : a1));
        }
    }
    return said;
}

bool sweepHasBothTopologies(const ResultsBundle &bundle)
{
    if (!bundle.isSweep())
        return false;
    for (int point = 0; point < int(bundle.sweep.points.size()); ++point) {
        const std::vector<ChartKind> kinds = chartKindsOf(Figures(sweepPointBundle(bundle, point)));
        if (std::find(kinds.begin(), kinds.end(), ChartKind::ClusterOverhead) != kinds.end())
            return true;
    }
    return false;
}

QString sweepBuildCaveat(const ResultsBundle &bundle, const FigureOptions &options)
{
    return Figures(bundle, options).buildCaveat();
}

QStringList sweepProvenanceParts(const ResultsBundle &bundle, const FigureOptions &options)
{
    ResultsBundle swept = bundle;
    QStringList values;
    for (const SweepPoint &point : bundle.sweep.points)
        values << point.value;
    swept.workload.parameters[bundle.sweep.parameter] = values.join(QLatin1Char('/'));
    const Figures figures(swept, options);
    return provenanceParts(figures.bundle(), figures.serverIds());
}
