// The Markdown of cluster series: what cluster mode costs against the same version standalone,
// and how evenly each series' keys and memory spread over its primaries.

#include "bundlemarkdown.h"
#include "figures.h"
#include "markdowntable.h"
#include "presentation.h"

#include <QLocale>

namespace {

QString spreadLine(const Figures &figures, const QString &id, const QString &category, const QString &type)
{
    const std::optional<NodeSpread> spread = figures.nodeSpread(id, type);
    if (!spread)
        return {};
    const QLocale english(QLocale::English);
    return QStringLiteral("| %1 | %2 | %3 | %4 – %5 | %6 – %7 |")
        .arg(markdownServerName(figures, id), markdownText(category))
        .arg(spread->nodes)
        .arg(english.toString(spread->fewestKeys), english.toString(spread->mostKeys),
             formatFigure(spread->lowestBytesPerKey), formatFigure(spread->highestBytesPerKey));
}

} // namespace

// "Slots moved while Valkey 9.1.2 · cluster ×3 (…) was replayed into: 7 MOVED and 2 ASK replies …"
QString redirectsLine(const Figures &figures, const QString &id)
{
    const Redirects counts = figures.redirects(id);
    if (!counts.any())
        return {};
    const QLocale english(QLocale::English);
    const QString retried = counts.retried > 0
        ? QStringLiteral(" and %1 TRYAGAIN replies sent again").arg(english.toString(counts.retried))
        : QString();
    return QStringLiteral("Slots moved while %1 was replayed into: %2 MOVED and %3 ASK replies were followed, each "
                          "command sent again to the primary named%4, so every command ran once; the spread above is "
                          "of where the keys were at the end of each pass.")
        .arg(markdownServerName(figures, id), english.toString(counts.moved), english.toString(counts.asked), retried);
}

QString clusterNodesMarkdown(const Figures &figures, const QString &heading)
{
    QStringList rows;
    QStringList moved;
    for (const QString &id : figures.clusterServerIds()) {
        rows << spreadLine(figures, id, QStringLiteral("all"), QString());
        for (const QString &type : figures.types())
            rows << spreadLine(figures, id, type, type);
        moved << redirectsLine(figures, id);
    }
    rows.removeAll(QString());
    moved.removeAll(QString());
    if (rows.isEmpty())
        return {};
    return QStringLiteral("\n%2 Cluster nodes\n\nEach figure above is summed over a cluster's primaries; here is how "
                          "they spread: the fewest and most keys one primary held, and the lowest and highest bytes per "
                          "key its own used_memory change gave.\n\n"
                          "| Server | %1 | Primaries | Keys per primary | Bytes per key per primary |\n"
                          "|---|---|---:|---:|---:|\n")
               .arg(figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Type"), heading)
        + rows.join(QLatin1Char('\n')) + QLatin1Char('\n')
        + (moved.isEmpty() ? QString() : QLatin1Char('\n') + moved.join(QStringLiteral("\n\n")) + QLatin1Char('\n'));
}

QString clusterOverheadMarkdown(const Figures &figures, const std::function<QString(const QString &)> &columnName,
                                const QString &heading, const QString &image)
{
    const FigureTable overhead = figures.clusterOverhead();
    if (overhead.servers.isEmpty())
        return {};
    QString markdown = QStringLiteral("\n%1 Cost of cluster mode (bytes per key, cluster less standalone)\n\n").arg(heading);
    if (!image.isEmpty())
        markdown += QStringLiteral("![Cost of cluster mode](%1)\n\n").arg(image);
    markdown += QStringLiteral("Each cluster series against the same version run standalone in this run");
    QStringList pairs, columns;
    for (const QString &id : overhead.servers) {
        pairs << QStringLiteral("%1 against %2").arg(columnName(id), columnName(figures.standalonePartnerOf(id)));
        columns << columnName(id);
    }
    markdown += QStringLiteral(" (%1).\n\n").arg(pairs.join(QStringLiteral(", ")));
    markdown += markdownHeader(figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Attribute"),
                               columns);
    MarkdownNotes notes;
    appendMarkdownRows(markdown, overhead, overhead.servers, notes, [](const Figure &figure) {
        if (!figure.hasValue())
            return markdownCell(figure);
        return (figure.value > 0 ? QStringLiteral("+") : QString()) + formatFigure(figure.value);
    });
    markdown += notes.text(overhead.note);
    return markdown;
}
