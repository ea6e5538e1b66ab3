// The Markdown of a cluster series' primaries: how evenly its keys and memory spread.

#include "bundlemarkdown.h"
#include "figures.h"
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
        .arg(figures.summary(id).name, category)
        .arg(spread->nodes)
        .arg(english.toString(spread->fewestKeys), english.toString(spread->mostKeys),
             formatFigure(spread->lowestBytesPerKey), formatFigure(spread->highestBytesPerKey));
}

} // namespace

QString clusterNodesMarkdown(const Figures &figures)
{
    QStringList rows;
    for (const QString &id : figures.clusterServerIds()) {
        rows << spreadLine(figures, id, QStringLiteral("all"), QString());
        for (const QString &type : figures.types())
            rows << spreadLine(figures, id, type, type);
    }
    rows.removeAll(QString());
    if (rows.isEmpty())
        return {};
    return QStringLiteral("\n### Cluster nodes\n\nEach figure above is summed over a cluster's primaries; here is how "
                          "they spread: the fewest and most keys one primary held, and the lowest and highest bytes per "
                          "key its own used_memory change gave.\n\n"
                          "| Server | %1 | Primaries | Keys per primary | Bytes per key per primary |\n"
                          "| --- | --- | ---: | ---: | ---: |\n")
               .arg(figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Type"))
        + rows.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
