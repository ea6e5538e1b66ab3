#include "whychartdata.h"

#include "figureviews.h"
#include "palette.h"
#include "presentation.h"

#include <algorithm>
#include <cmath>

namespace {

int partPlace(const QString &partId)
{
    const QStringList &order = whyPartOrder();
    const qsizetype found = order.indexOf(partId);
    // An id this build does not know yet stands before "not attributed", which always ends the bar.
    return found >= 0 ? int(found) * 2 : int(order.indexOf(QStringLiteral("server"))) * 2 + 1;
}

WhyBar whyBarOf(const Figures &figures, const MemoryBreakdown &breakdown)
{
    WhyBar bar;
    bar.serverId = breakdown.serverId;
    bar.name = figures.summary(breakdown.serverId).name;
    bar.bytesPerKey = breakdown.bytesPerKey;
    bar.total = QObject::tr("%1 B per key").arg(formatFigure(breakdown.bytesPerKey));
    for (const MemoryPart &part : breakdown.parts)
        bar.segments.push_back({part.id, part.label, part.bytesPerKey, formatFigure(part.bytesPerKey)});
    std::stable_sort(bar.segments.begin(), bar.segments.end(),
                     [](const WhySegment &a, const WhySegment &b) { return partPlace(a.partId) < partPlace(b.partId); });
    if (bar.segments.empty())
        bar.missing = breakdown.unavailable.isEmpty() ? QObject::tr("no MEMORY STATS in these results")
                                                      : breakdown.unavailable.join(QStringLiteral("; "));
    return bar;
}

// Why no shown server explains `explanation`'s category, from the memory table's cells:
// "No shown server measured hsetex: Valkey 8.0.1 does not support it (ERR unknown command
// 'HSETEX'). Choose set-ex to see its parts."
QString unexplainedText(const Figures &figures, const MemoryExplanation &explanation)
{
    const QString label = explanation.category.label.isEmpty() ? QObject::tr("this category") : explanation.category.label;
    const FigureTable memory = figures.memory();
    const int row = memory.categoryIndex(explanation.category.id);
    QStringList reasons;
    bool stillComing = row < 0;
    for (const QString &id : memory.servers) {
        if (row < 0)
            break;
        const Figure &cell = memory.at(row, id);
        const QString name = figures.summary(id).name;
        const QString because = cell.note.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(cell.note);
        if (cell.state == FigureState::Unsupported)
            reasons << QObject::tr("%1 does not support it%2").arg(name, because);
        else if (cell.state == FigureState::NotRun)
            reasons << QObject::tr("%1 did not run it%2").arg(name, because);
        else if (cell.state == FigureState::Failed)
            reasons << QObject::tr("%1 failed%2").arg(name, because);
        else if (cell.settled())
            reasons << QObject::tr("%1's results carry no MEMORY STATS for it").arg(name);
        else
            stillComing = true;
    }
    if (stillComing || reasons.isEmpty())
        return QObject::tr("No server has a settled memory figure for %1 yet: the parts appear when one has.").arg(label);
    QString text = QObject::tr("No shown server measured %1: %2.").arg(label, reasons.join(QStringLiteral("; ")));
    const QString reference = figures.referenceType();
    if (!reference.isEmpty() && reference != explanation.category.id)
        text += QObject::tr(" Choose %1 to see its parts.").arg(reference);
    return text;
}

} // namespace

const QStringList &whyPartOrder()
{
    static const QStringList order = {QStringLiteral("main-table"), QStringLiteral("expires-table"),
                                      QStringLiteral("slot-table"), QStringLiteral("keys-values"),
                                      QStringLiteral("server"),     QStringLiteral("not-attributed")};
    return order;
}

QColor whyPartColor(const QString &partId, ColorTheme theme)
{
    if (partId == QLatin1String("not-attributed"))
        return isDarkTheme(theme) ? QColor(0x6e, 0x74, 0x7c) : QColor(0xb4, 0xb9, 0xbf);
    // Blue, orange, reddish purple, bluish green, sky blue: neighbours that contrast, none grey.
    static const std::map<QString, int> fixed = {{QStringLiteral("main-table"), 0},
                                                 {QStringLiteral("expires-table"), 1},
                                                 {QStringLiteral("slot-table"), 5},
                                                 {QStringLiteral("keys-values"), 2},
                                                 {QStringLiteral("server"), 4}};
    const auto found = fixed.find(partId);
    return paletteColor(found != fixed.end() ? found->second : 3);
}

WhyChartData buildWhyChartData(const Figures &figures, const MemoryExplanation &explanation,
                              const MemoryExplanation *reference)
{
    WhyChartData data;
    data.categoryId = explanation.category.id;
    data.categoryLabel = explanation.category.label;
    data.valueTitle = figureView(ChartKind::WhyMemory).valueTitle(figures);
    const QStringList shownServers = figures.memory().servers;
    // Beside a reference type, each server's reference bar stands above its own: "· set-ex", "· hsetex".
    for (const QString &id : shownServers) {
        for (const MemoryExplanation *shown : {reference, &explanation}) {
            const MemoryBreakdown *breakdown = shown ? shown->server(id) : nullptr;
            if (!breakdown)
                continue;
            data.bars.push_back(whyBarOf(figures, *breakdown));
            if (reference)
                data.bars.back().name += QStringLiteral(" · ") + shown->category.label;
        }
    }
    QStringList partsShown;
    for (const WhyBar &bar : data.bars) {
        for (const WhySegment &segment : bar.segments) {
            // A rounding's -0.0 (the accounting covered the figure to the byte) is no part below zero.
            data.hasNegativePart = data.hasNegativePart || segment.bytesPerKey <= -0.05;
            // The legend names what is drawn: a part that reads 0.0 on every bar has no width.
            if (std::abs(segment.bytesPerKey) >= 0.05 && !partsShown.contains(segment.partId)) {
                partsShown << segment.partId;
                data.legend.push_back({segment.partId, segment.label});
            }
        }
    }
    std::stable_sort(data.legend.begin(), data.legend.end(),
                     [](const WhyLegendEntry &a, const WhyLegendEntry &b) { return partPlace(a.partId) < partPlace(b.partId); });
    if (data.bars.empty())
        data.emptyText = figures.serverIds().isEmpty()
                             ? QObject::tr("No results yet: where each key's bytes go appears here when a run has measured memory.")
                             : unexplainedText(figures, explanation);
    return data;
}

std::optional<MemoryExplanation> referenceExplanation(const Figures &figures, const MemoryExplanation &explanation)
{
    const QString reference = figures.referenceType();
    // A reference type's bars explain nothing alone: with no shown server measuring the
    // category, the chart is empty and says why (unexplainedText).
    if (reference.isEmpty() || explanation.category.total || explanation.category.id == reference
        || explanation.category.id.isEmpty() || explanation.servers.empty())
        return std::nullopt;
    return figures.explainMemory(reference);
}

QString whyChartTitle(const MemoryExplanation &explanation, const MemoryExplanation *reference)
{
    // The row's title is the fixed part: "Where each key's bytes go".
    const QString fixed = figureView(ChartKind::WhyMemory).title;
    if (explanation.category.label.isEmpty())
        return fixed;
    const QString title = reference
        ? QObject::tr("%1 — %2 against %3").arg(fixed, explanation.category.label, reference->category.label)
        : QObject::tr("%1 — %2").arg(fixed, explanation.category.label);
    // The figures the sentence explains, from the one server to the other.
    const MemoryBreakdown *from = explanation.server(explanation.fromId);
    const MemoryBreakdown *to = explanation.server(explanation.toId);
    if (!from || !to)
        return title;
    return QObject::tr("%1: %2 → %3 B per key").arg(title, formatFigure(from->bytesPerKey), formatFigure(to->bytesPerKey));
}

QString whySubtitle(const Figures &figures, const MemoryExplanation &explanation)
{
    QStringList lines;
    for (const QString &line : {explanation.sentence, figures.buildCaveat()}) {
        if (!line.isEmpty())
            lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

QStringList whyFootnotes(const Figures &figures, const MemoryExplanation &explanation, const WhyChartData &data)
{
    QStringList notes;
    for (const QString &sentence : {explanation.allocations, explanation.againstReference}) {
        if (!sentence.isEmpty())
            notes << sentence;
    }
    // A shown server without a bar: its figure's state says why (unsupported, pending, failed).
    const FigureTable memory = figures.memory();
    const int category = memory.categoryIndex(explanation.category.id);
    QStringList without;
    for (const QString &id : memory.servers) {
        if (category < 0 || explanation.server(id))
            continue;
        const Figure &figure = memory.at(category, id);
        // A settled figure without parts: the bundle predates the accounting, or the pass had none.
        without << QObject::tr("%1 (%2)").arg(figures.summary(id).name, figure.settled()
                                                                         ? QObject::tr("no memory accounting in these results")
                                                                         : figureStateName(figure.state));
    }
    if (!without.isEmpty())
        notes << QObject::tr("%1: no bar for %2.").arg(explanation.category.label, without.join(QStringLiteral(", ")));
    for (const MemoryBreakdown &server : explanation.servers) {
        // The subtitle (the sentence) already says it for the compared pair.
        if (!server.rounding.isEmpty() && !explanation.sentence.contains(server.rounding))
            notes << server.rounding;
        if (!server.unavailable.isEmpty())
            notes << QObject::tr("%1 did not report: %2.")
                         .arg(figures.summary(server.serverId).name, server.unavailable.join(QStringLiteral("; ")));
    }
    if (data.hasNegativePart)
        notes << QObject::tr("Parts below zero (left of 0) take bytes back; the black mark on a bar is the measured "
                             "bytes per key, what the parts add up to.");
    return notes;
}
