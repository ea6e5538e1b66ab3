#include "markdowntable.h"

#include "presentation.h"

namespace {

QString ratioCell(const Figure &figure)
{
    if (!figure.hasValue())
        return markdownCell(figure);
    QString text = formatMultiple(figure.value);
    if (figure.spread.n >= 2 && figure.spread.max > figure.spread.min)
        text += QStringLiteral(" (%1–%2)").arg(formatMultiple(figure.spread.min), formatMultiple(figure.spread.max));
    return text;
}

} // namespace

QString referenceRatiosMarkdown(const Figures &figures, const QStringList &ids,
                                const std::function<QString(const QString &)> &columnName, const QString &heading)
{
    const QString reference = figures.referenceType();
    const FigureTable ratios = figures.referenceRatios();
    if (reference.isEmpty() || ratios.categories.empty() || ids.isEmpty())
        return {};
    QStringList columns;
    for (const QString &id : ids)
        columns << columnName(id);
    const auto valueSize = figures.bundle().workload.parameters.find(QStringLiteral("value-size"));
    const QString sizeText = valueSize == figures.bundle().workload.parameters.end()
        ? QString()
        : QStringLiteral(", %1-byte values").arg(markdownText(valueSize->second));
    QString markdown = QStringLiteral("\n%1 Memory against %2 (bytes per key as a multiple of %2's on the same server%3)\n\n")
                           .arg(heading, markdownText(reference), sizeText);
    markdown += markdownHeader(figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("Pattern") : QStringLiteral("Type"), columns);
    for (size_t c = 0; c < ratios.categories.size(); ++c) {
        QStringList cells{markdownText(ratios.categories[c].label)};
        for (const QString &id : ids)
            cells << ratioCell(ratios.at(int(c), id));
        markdown += markdownRow(cells);
    }
    return markdown;
}
