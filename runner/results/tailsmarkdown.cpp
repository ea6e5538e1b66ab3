#include "tailsmarkdown.h"

#include "markdowntable.h"
#include "presentation.h"

namespace {

const std::pair<Measure, const char *> kTailPercentiles[] = {
    {Measure::ServerP50Usec, "p50"},
    {Measure::ServerP99Usec, "p99"},
    {Measure::ServerP999Usec, "p99.9"},
};

// "≤ 16 µs", with the figure's mark; "unavailable" where the reason is said under the table, "too
// few calls" for a percentile that would be the slowest call.
QString tailCell(const Figure &figure)
{
    if (figure.hasValue())
        return markdownCell(figure).replace(formatFigure(figure.value), Figures::serverTailText(figure));
    if (figure.state == FigureState::Absent && figure.note.contains(QLatin1String("needs")))
        return QStringLiteral("too few calls");
    return figure.state == FigureState::Absent ? QStringLiteral("unavailable") : markdownCell(figure);
}

} // namespace

QString serverTailsMarkdown(const Figures &figures, const QStringList &ids, const QString &heading, const QString &image)
{
    MarkdownNotes notes;
    QString rows;
    bool any = false;
    std::map<QString, QString> reasons;   // server id -> why it has none, the first said
    for (const auto &[measure, name] : kTailPercentiles) {
        FigureTable table = figures.serverTails(measure);
        for (FigureCategory &category : table.categories)
            category.label = QStringLiteral("%1 %2").arg(category.label, QLatin1String(name));
        for (size_t c = 0; c < table.categories.size(); ++c) {
            for (const QString &id : ids) {
                const Figure &figure = table.at(int(c), id);
                any = any || figure.hasValue();
                // A bundle from before Versus read them says nothing of its servers: no section.
                if (figure.state == FigureState::Absent && figure.note.startsWith(QLatin1String("server-side tails unavailable"))
                    && !reasons.count(id))
                    reasons[id] = figure.note;
            }
        }
        appendMarkdownRows(rows, table, ids, notes, tailCell);
    }
    if (!any && reasons.empty())
        return QString();
    QString markdown = QStringLiteral("\n%1 Server-side latency per command (LATENCY HISTOGRAM)\n\n").arg(heading);
    if (!image.isEmpty())
        markdown += QStringLiteral("![Server-side p99 per command](%1)\n\n").arg(image);
    markdown += markdownHeader(QStringLiteral("Command"), markdownServerNames(figures, ids)) + rows;
    for (const auto &[id, reason] : reasons)
        markdown += QStringLiteral("\n%1: %2\n").arg(markdownServerName(figures, id), markdownText(reason));
    return markdown
        + notes.text(QStringLiteral("Server-side: the server's own time inside each command, from its LATENCY HISTOGRAM "
                                    "over the timed pass; it times in whole µs and counts in buckets that double, so "
                                    "\"≤ 16 µs\" is a percentile in the bucket from 9 to 16 µs and \"≤ 1 µs\" holds every "
                                    "command faster than a microsecond. Median over the repeats; no change is computed "
                                    "between versions; a p99 needs 100 calls and a p99.9 1,000. Not the client's round trip (its p50/p99 per "
                                    "pipeline)."));
}
