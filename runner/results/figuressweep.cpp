#include "figuressweep.h"

#include "presentation.h"
#include "sweepbundle.h"

#include <functional>

namespace {

using PointTable = std::function<FigureTable(const Figures &)>;

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

// Each point's `pointTable`, line by line (totals left out), servers in display order.
SweepTable sweepOf(const ResultsBundle &bundle, Measure measure, const FigureOptions &options, const PointTable &pointTable)
{
    SweepTable table;
    table.measure = measure;
    if (!bundle.isSweep())
        return table;
    table.parameter = bundle.sweep.parameter;
    const size_t count = bundle.sweep.points.size();
    const QStringList serverOrder = Figures(bundle, options).serverIds();
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
                if (const ServerRun *run = figures.bundle().server(serverId))
                    line.serverName = serverDisplayName(figures.bundle(), *run);
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
    return table;
}

} // namespace

QStringList SweepTable::unfinishedValues() const
{
    QStringList unfinished;
    for (size_t i = 0; i < values.size() && i < complete.size(); ++i) {
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
    return sweepOf(bundle, measure, options, [measure](const Figures &figures) {
        return measure == Measure::RatioToReference ? figures.referenceRatios() : figures.memory();
    });
}

SweepTable clusterOverheadSweep(const ResultsBundle &bundle, const FigureOptions &options)
{
    SweepTable table = sweepOf(bundle, Measure::BytesPerKey, options,
                               [](const Figures &figures) { return figures.clusterOverhead(); });
    table.clusterOverhead = true;
    return table;
}
