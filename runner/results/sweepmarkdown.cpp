#include "sweepmarkdown.h"

#include "figuremarks.h"
#include "figuressweep.h"
#include "markdowntable.h"
#include "presentation.h"

#include <algorithm>

namespace {

QString sweepCell(const Figure &figure, const SweepTable &table)
{
    if (!figure.hasValue())
        return markdownCell(figure);
    // Only the partial points are marked: every point of a sweep is a run of its own, none live.
    const FigureState marked = figure.state == FigureState::Incomplete ? figure.state : FigureState::Measured;
    if (table.clusterOverhead)
        return withFigureMark((figure.value > 0 ? QStringLiteral("+") : QString()) + formatFigure(figure.value), marked);
    return withFigureMark(table.measure == Measure::RatioToReference ? formatMultiple(figure.value) : formatFigure(figure.value), marked);
}

QString tableMarkdown(const SweepTable &table, const QString &title)
{
    if (table.empty())
        return {};
    QStringList columns;
    for (size_t i = 0; i < size_t(table.values.size()); ++i)
        columns << QStringLiteral("%1=%2%3").arg(markdownText(table.parameter), markdownText(table.values[int(i)]),
                                                i < table.complete.size() && !table.complete[i] ? QStringLiteral(" (unfinished)") : QString());
    const QString noun = isTimeMeasure(table.measure)                 ? QStringLiteral("Commands")
                         : table.typeNoun == QLatin1String("pattern") ? QStringLiteral("Pattern")
                                                                      : QStringLiteral("Type");
    QString markdown = QStringLiteral("\n%1\n\n").arg(title);
    markdown += markdownHeader(noun + QStringLiteral(" · server"), columns);
    QStringList without;   // lines with no figure at any value: one note, not a row of "unsupported"
    for (const SweepLine &line : table.lines) {
        const bool any = std::any_of(line.points.begin(), line.points.end(), [](const Figure &f) { return f.hasValue(); });
        if (!any) {
            without << QStringLiteral("%1 on %2 (%3)").arg(markdownText(line.categoryLabel), markdownText(line.serverName), markdownCell(line.points.front()));
            continue;
        }
        QStringList cells{QStringLiteral("%1 · %2").arg(markdownText(line.categoryLabel), markdownText(line.serverName))};
        for (const Figure &figure : line.points)
            cells << sweepCell(figure, table);
        markdown += markdownRow(cells);
    }
    if (!without.isEmpty())
        markdown += QStringLiteral("\nNo figure at any value: %1.\n").arg(without.join(QStringLiteral(", ")));
    // The order that reverses along the sweep is the finding: said, not left to the reader.
    if (const QStringList changes = rankingChanges(table); !changes.isEmpty())
        markdown += QStringLiteral("\nThe order changes along the sweep: %1.\n").arg(markdownText(changes.join(QStringLiteral("; "))));
    if (!table.gapChanges.isEmpty())
        markdown += QStringLiteral("\nThe gap moves along the sweep: %1.\n").arg(markdownText(table.gapChanges.join(QStringLiteral("; "))));
    if (const QStringList unfinished = table.unfinishedValues(); !unfinished.isEmpty())
        markdown += QStringLiteral("\n%1 The run stopped before %2=%3 finished: those figures are partial, not comparable with "
                                   "the others, and in no headline.\n")
                        .arg(figureMark(FigureState::Incomplete), markdownText(table.parameter), markdownText(unfinished.join(QStringLiteral(", "))));
    return markdown;
}

} // namespace

QString sweepToMarkdown(const ResultsBundle &bundle, const QString &heading)
{
    if (!bundle.isSweep())
        return {};
    const SweepTable memory = sweepTable(bundle, Measure::BytesPerKey);
    QString markdown = tableMarkdown(memory, QStringLiteral("%1 Sweep: memory per key against %2 (bytes per key, each value its own run)")
                                                 .arg(heading, memory.parameter));
    const SweepTable ratios = sweepTable(bundle, Measure::RatioToReference);
    if (!ratios.empty())
        markdown += tableMarkdown(ratios, QStringLiteral("%1 Sweep: memory against %2, against %3 (bytes per key as a multiple of %2's)")
                                              .arg(heading, ratios.referenceType, ratios.parameter));
    const SweepTable inside = sweepTable(bundle, Measure::UsecPerCall);
    if (!inside.empty())
        markdown += tableMarkdown(inside, QStringLiteral("%1 Sweep: server time per command inside the commands against %2 (µs, "
                                                         "commandstats, the headline commands, each value its own run)")
                                              .arg(heading, inside.parameter));
    const SweepTable inAll = sweepTable(bundle, Measure::MainThreadCpuPerCall);
    if (!inAll.empty())
        markdown += tableMarkdown(inAll, QStringLiteral("%1 Sweep: server time per command in all against %2 (µs of main-thread "
                                                        "CPU per command, each value its own run)")
                                             .arg(heading, inAll.parameter));
    const SweepTable overhead = clusterOverheadSweep(bundle);
    if (!overhead.empty())
        markdown += tableMarkdown(overhead, QStringLiteral("%1 Sweep: cost of cluster mode against %2 (bytes per key, cluster less "
                                                           "standalone, each value its own run)")
                                                .arg(heading, overhead.parameter));
    return markdown;
}
