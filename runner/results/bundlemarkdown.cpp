#include "bundlemarkdown.h"

#include "markdowntable.h"
#include "tailsmarkdown.h"
#include "presentation.h"

#include <QLocale>
#include <functional>
#include <set>

namespace {

// (max − min) / median in percent; 0 when every repeat gave the same figure.
double spreadPercent(const Spread &spread)
{
    return spread.median == 0 ? 0 : 100.0 * (spread.max - spread.min) / spread.median;
}

QString memorySpreadCell(const FigureTable &memory, const QString &id)
{
    double overall = 0, widest = 0;
    QString widestType;
    for (size_t c = 0; c < memory.categories.size(); ++c) {
        const Figure &figure = memory.at(int(c), id);
        if (!figure.hasValue())
            continue;
        const double percent = spreadPercent(figure.spread);
        if (memory.categories[c].isOverall()) {
            overall = percent;
        } else if (percent > widest) {
            widest = percent;
            widestType = memory.categories[c].id;
        }
    }
    if (overall == 0 && widest == 0)
        return QStringLiteral("identical");
    QString text = QString::number(overall, 'f', 2) + QLatin1Char('%');
    if (!widestType.isEmpty())
        text += QStringLiteral(" (%1: %2%)").arg(markdownText(widestType), QString::number(widest, 'f', 2));
    return text;
}

QString rangeCell(const Figure &figure, bool interval)
{
    if (!figure.hasValue())
        return QStringLiteral("—");
    if (interval)
        return figure.spread.hasInterval()
            ? formatFigure(figure.spread.ciLow) + QStringLiteral("–") + formatFigure(figure.spread.ciHigh)
            : QStringLiteral("—");
    return formatFigure(figure.spread.min) + QStringLiteral("–") + formatFigure(figure.spread.max);
}

QString pairedRow(const Figures &figures, const Figure *const *cells, const QStringList &ids, QString &markdown)
{
    const QString baseline = figures.baselineId();
    bool intervals = true;
    for (int i = 0; i < ids.size(); ++i)
        intervals = intervals && (ids[i] == baseline || cells[i]->pairedRatio.hasInterval());
    QStringList row{QStringLiteral("µs per command inside the commands against %1 in the same repeat, %2")
                        .arg(markdownServerName(figures, baseline), intervals ? QStringLiteral("95% interval") : QStringLiteral("min–max"))};
    for (int i = 0; i < ids.size(); ++i) {
        if (ids[i] == baseline)
            row << QStringLiteral("baseline");
        else
            row << (cells[i]->pairedRatio.n == 0 ? QStringLiteral("—") : formatChangeRange(cells[i]->pairedRatio, intervals));
    }
    markdown += markdownRow(row);
    return baseline;
}

// How far the repeats agree: the range (and 95% interval) of the time figure, the change
// against the baseline taken repeat by repeat, and how much the memory figures moved.
QString acrossRepeats(const Figures &figures, const QStringList &ids)
{
    const FigureTable times = figures.commandTime();
    const FigureTable memory = figures.memory();
    const bool hasTotal = !times.categories.empty() && times.categories.front().isOverall();
    QString markdown = QStringLiteral("\n### Across %1 repeats\n\n").arg(figures.bundle().repeats)
        + markdownHeader(QString(), markdownServerNames(figures, ids));
    std::vector<const Figure *> totals;
    bool anyInterval = false;
    for (const QString &id : ids) {
        totals.push_back(&times.at(hasTotal ? 0 : -1, id));
        anyInterval = anyInterval || totals.back()->spread.hasInterval();
    }
    auto row = [&](const QString &label, const std::function<QString(int)> &cell) {
        QStringList cells{label};
        for (int i = 0; i < ids.size(); ++i)
            cells << cell(i);
        markdown += markdownRow(cells);
    };
    row(QStringLiteral("µs per command inside the commands, min–max"), [&](int i) { return rangeCell(*totals[size_t(i)], false); });
    if (anyInterval)
        row(QStringLiteral("µs per command inside the commands, 95% interval"), [&](int i) { return rangeCell(*totals[size_t(i)], true); });
    const bool paired = hasTotal && ids.size() > 1 && ids.contains(figures.baselineId());
    if (paired)
        pairedRow(figures, totals.data(), ids, markdown);
    row(QStringLiteral("memory per attribute, spread"), [&](int i) { return memorySpreadCell(memory, ids[i]); });
    if (paired)
        markdown += QStringLiteral("\nThe change against %1 is taken repeat by repeat: the versions of a repeat are timed "
                                   "side by side, so a change in the machine's own speed between repeats drops out of "
                                   "it.\n").arg(markdownServerName(figures, figures.baselineId()));
    return markdown;
}

// The server's own time per command in all beside the time inside the commands, how busy its
// main thread was during the timed work and the throughput: near 100% busy the pass was
// server-bound, and its throughput is the server's at saturation. Empty when the bundle has no
// server time (bundles before Versus read it).
QString serverTimeMarkdown(const Figures &figures, const QStringList &ids, const QStringList &names)
{
    const std::pair<Measure, QString> rows[] = {
        {Measure::MainThreadCpuPerCall, QStringLiteral("main-thread CPU, µs per command (INFO cpu)")},
        {Measure::EventLoopPerCall, QStringLiteral("event loop, µs per command (INFO stats)")},
        {Measure::MainThreadBusyPercent, QStringLiteral("main thread busy, % of the pass")},
    };
    MarkdownNotes notes;
    QString rowsText;
    bool any = false;
    for (const auto &[measure, label] : rows) {
        FigureTable measured = figures.serverTime(measure);
        for (FigureCategory &category : measured.categories)
            category.label = label;
        for (const QString &id : ids)
            any = any || measured.at(0, id).hasValue();
        appendMarkdownRows(rowsText, measured, ids, notes);
    }
    if (!any)
        return QString();
    FigureTable pace = figures.throughput();
    for (FigureCategory &category : pace.categories)
        category.label = figures.throughputInEvents() ? QStringLiteral("events per second (client)") : QStringLiteral("commands per second (client)");
    appendMarkdownRows(rowsText, pace, ids, notes);
    return QStringLiteral("\n### Server time per command in all\n\n") + markdownHeader(QStringLiteral("Measure"), names) + rowsText
        + notes.text(QStringLiteral("commandstats times each command's own execution; the server's time in all also holds "
                                    "the event loop around the commands (reading, parsing, replies)."));
}

// Why a figure of `table` is unavailable where a reading was impossible (figuresreadings.cpp),
// one line per figure: the table says only "failed".
QString impossibleReadingNotes(const Figures &figures, const FigureTable &table, const QStringList &ids)
{
    QStringList lines;
    for (size_t c = 0; c < table.categories.size(); ++c) {
        for (const QString &id : ids) {
            const Figure &figure = table.at(int(c), id);
            if (figure.state == FigureState::Failed && figure.note.contains(QLatin1String("not a possible reading")))
                lines << QStringLiteral("%1, %2: %3").arg(markdownServerName(figures, id), markdownText(table.categories[c].label), markdownText(figure.note));
        }
    }
    return lines.isEmpty() ? QString() : QStringLiteral("\n") + lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// What happened to the servers whose run was not simply fine.
QString serverNotes(const Figures &figures)
{
    QStringList lines;
    for (const QString &id : figures.serverIds()) {
        const ServerSummary &summary = figures.summary(id);
        if (summary.verdict == ServerVerdict::Completed || summary.verdict == ServerVerdict::Running)
            continue;
        QString line = QStringLiteral("- %1: %2").arg(markdownServerName(figures, id), markdownText(summary.statusText()));
        if (summary.verdict == ServerVerdict::WorkloadErrors && !summary.firstError.isEmpty())
            line += QStringLiteral(" (first: %1)").arg(markdownText(summary.firstError));
        lines << line;
    }
    for (const QString &problem : figures.dataProblems())
        lines << QStringLiteral("- data check: %1").arg(markdownText(problem));
    return lines.isEmpty() ? QString() : QStringLiteral("\n### Servers\n\n") + lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

QString bundleToMarkdown(const Figures &figures, CategoryOrder order)
{
    const ResultsBundle &bundle = figures.bundle();
    // Every shown server has its column: one that failed before any figure says "failed" there.
    const QStringList ids = figures.serverIds();
    const QStringList names = markdownServerNames(figures, ids);
    const auto nameOf = [&figures](const QString &id) { return markdownServerName(figures, id); };
    const QLocale english(QLocale::English);
    QString markdown = QStringLiteral("Workload: %1, %2 events, %3 commands. Baseline: %4.\n")
                           .arg(markdownText(bundle.workload.name), english.toString(bundle.workload.events),
                                english.toString(bundle.workload.commands), nameOf(figures.baselineId()));
    if (const QString skipped = skippedCommandsText(bundle.workload); !skipped.isEmpty())
        markdown += markdownText(skipped) + QLatin1Char('\n');
    if (figures.live())
        markdown += QStringLiteral("The run is still going: every figure is provisional.\n");
    // Before any figure: what of the differences may be the build or TLS rather than the version.
    if (const QString caveat = buildCaveatsOfTables(figures); !caveat.isEmpty())
        markdown += QStringLiteral("Build: %1\n").arg(markdownText(caveat));
    if (const QString caveat = figures.transportCaveat(); !caveat.isEmpty())
        markdown += QStringLiteral("Transport: %1\n").arg(markdownText(caveat));
    if (const QString caveat = figures.limitsCaveat(); !caveat.isEmpty())
        markdown += QStringLiteral("Measurement: %1\n").arg(markdownText(caveat));
    // The machine's noise floor, when a --self-check measured it: before every time verdict.
    if (const QString floor = figures.selfCheckSentence(); !floor.isEmpty())
        markdown += markdownText(floor) + QLatin1Char('\n');

    MarkdownNotes memoryNotes;
    const FigureTable memory = inCategoryOrder(figures.memory(), figures.baselineId(), order);
    markdown += QStringLiteral("\n### Memory per stored attribute (bytes per key)\n\n")
        + markdownHeader(figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Attribute"), names);
    appendMarkdownRows(markdown, memory, ids, memoryNotes);
    markdown += memoryNotes.text(memory.note);
    markdown += impossibleReadingNotes(figures, memory, ids);
    markdown += referenceRatiosMarkdown(figures, ids, nameOf);
    markdown += clusterOverheadMarkdown(figures, nameOf);

    MarkdownNotes timeNotes;
    const FigureTable times = inCategoryOrder(figures.commandTime(), figures.baselineId(), order);
    const FigureTable perEvent = figures.perEvent();
    markdown += QStringLiteral("\n### Time inside the commands (commandstats, µs per call)\n\n")
        + markdownHeader(QStringLiteral("Command"), names);
    appendMarkdownRows(markdown, times, ids, timeNotes);
    FigureTable eventRow = perEvent;
    for (FigureCategory &category : eventRow.categories)
        category.label = QStringLiteral("µs per event");
    appendMarkdownRows(markdown, eventRow, ids, timeNotes);
    markdown += timeNotes.text(times.note.isEmpty() ? perEvent.note : times.note);
    markdown += serverTimeMarkdown(figures, ids, names);
    markdown += serverTailsMarkdown(figures, ids, QStringLiteral("###"));

    if (bundle.repeats > 1 && !ids.isEmpty())
        markdown += acrossRepeats(figures, ids);
    markdown += clusterNodesMarkdown(figures);
    markdown += configDifferencesMarkdown(figures, nameOf, QStringLiteral("###"), OnlySomeSettings::Counted);
    markdown += serverNotes(figures);
    return markdown;
}

QString bundleToMarkdown(const ResultsBundle &bundle)
{
    return bundleToMarkdown(Figures(bundle));
}
