// The server's time per command along a sweep (a pipeline-depth sweep above all: `--sweep
// batch=1,16,256`), inside the commands and in all, and where a version's gap to the baseline
// changes with the swept value, said only where the noise rule resolves both ends.

#include "figuressweep.h"

#include "figuresdata.h"
#include "presentation.h"

#include <cmath>

namespace {

// The headline category of a time table alone, as a line of its own: the sweep leaves totals
// out, and the headline ("All writes", the comparable work) is the one a time sweep speaks of.
FigureTable headlineCategoryOnly(const FigureTable &table)
{
    FigureTable only;
    only.measure = table.measure;
    only.servers = table.servers;
    if (table.categories.empty() || !table.leadsWithHeadlineCategory())
        return only;
    only.categories.push_back(table.categories.front());
    only.categories.front().total = false;
    only.cells.push_back(table.cells.front());
    return only;
}

bool timedRepeat(const RepeatResult &repeat)
{
    if (repeat.timing.totalCalls() > 0)
        return true;
    for (const auto &entry : repeat.byType) {
        if (entry.second.timing && entry.second.timing->totalCalls() > 0)
            return true;
    }
    return false;
}

// "less" or "more" and the whole percent of a resolved change: "28% less".
QString gapText(double change)
{
    return QStringLiteral("%1% %2").arg(qRound(std::fabs(change))).arg(change < 0 ? QStringLiteral("less") : QStringLiteral("more"));
}

QString whichTime(Measure measure)
{
    return measure == Measure::UsecPerCall ? QStringLiteral("per command inside the commands")
                                           : QStringLiteral("per command in all (main-thread CPU)");
}

} // namespace

SweepTable sweepTimeTable(const ResultsBundle &bundle, Measure measure, const FigureOptions &options)
{
    SweepTable table = sweepOfPoints(bundle, measure, options, [measure](const Figures &figures) {
        return headlineCategoryOnly(measure == Measure::UsecPerCall ? figures.commandTime() : figures.serverTime(measure));
    });
    if (!table.empty())
        table.gapChanges = depthGapChanges(table, Figures(bundle, options).baselineId());
    return table;
}

bool sweepHasTimedPasses(const ResultsBundle &bundle)
{
    for (const SweepPoint &point : bundle.sweep.points) {
        for (const ServerRun &run : point.servers) {
            for (const RepeatResult &repeat : run.repeats) {
                if (timedRepeat(repeat))
                    return true;
            }
        }
    }
    return false;
}

QStringList depthGapChanges(const SweepTable &table, const QString &baselineId)
{
    QString baselineName;
    for (const SweepLine &line : table.lines) {
        if (line.serverId == baselineId)
            baselineName = line.serverName;
    }
    QStringList said;
    if (baselineName.isEmpty())
        return said;
    for (const SweepLine &line : table.lines) {
        const std::optional<std::pair<size_t, size_t>> span = finalSpan(line);
        if (line.serverId == baselineId || !span)
            continue;
        const Figure &first = line.points[span->first];
        const Figure &last = line.points[span->second];
        // Both ends resolved by the run's own repeats, or nothing is said: an unresolved end
        // would state a change the run could not tell from noise.
        if (changeMeaning(table.measure, first) == ChangeMeaning::Neutral
            || changeMeaning(table.measure, last) == ChangeMeaning::Neutral)
            continue;
        if (qRound(*first.change) == qRound(*last.change))
            continue;
        said << QStringLiteral("%1 spends %2 than %3 %4 (%5) at %6=%7 and %8 at %6=%9")
                    .arg(line.serverName, gapText(*first.change), baselineName, whichTime(table.measure), line.categoryLabel,
                         table.parameter, table.values[int(span->first)], gapText(*last.change), table.values[int(span->second)]);
    }
    return said;
}
