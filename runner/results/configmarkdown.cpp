#include "markdowntable.h"

namespace {

QString appliedLines(const Figures &figures, const QStringList &ids, const std::function<QString(const QString &)> &columnName)
{
    QStringList lines;
    for (const QString &id : ids) {
        const ServerRun &run = *figures.bundle().server(id);
        QStringList applied;
        for (const auto &[name, value] : run.configApplied)
            applied << markdownCode(name + QLatin1Char(' ') + value);
        if (!applied.isEmpty())
            lines << QStringLiteral("- %1: applied %2").arg(columnName(id), applied.join(QStringLiteral(", ")));
        for (const auto &[name, why] : run.configRefused)
            lines << QStringLiteral("- %1: %2 not applied: %3").arg(columnName(id), markdownCode(name), markdownText(why));
    }
    return lines.isEmpty() ? QString() : QStringLiteral("\n") + lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

QString configDifferencesMarkdown(const Figures &figures, const std::function<QString(const QString &)> &columnName,
                                  const QString &heading, OnlySomeSettings listing)
{
    const QStringList ids = figures.configServerIds();
    if (ids.size() < 2)
        return {};
    QStringList columns;
    for (const QString &id : ids)
        columns << columnName(id);
    QString markdown = QStringLiteral("\n%1 Configuration differences\n\n").arg(heading);
    QStringList onlySome;
    QString rows;
    for (const ConfigDifference &difference : figures.configDifferences()) {
        if (!difference.everywhere && !difference.bearsOnFigures) {
            onlySome << markdownCode(difference.name);
            continue;
        }
        QStringList cells{difference.bearsOnFigures ? QStringLiteral("**%1**").arg(markdownText(difference.name)) : markdownText(difference.name)};
        for (const QString &id : ids) {
            const auto value = difference.values.find(id);
            if (value == difference.values.end())
                cells << QStringLiteral("—");
            else
                cells << (value->second.isEmpty() ? QStringLiteral("(empty)") : markdownCode(value->second));
        }
        rows += markdownRow(cells);
    }
    if (rows.isEmpty() && onlySome.isEmpty())
        markdown += QStringLiteral("Every setting is the same on these servers.\n");
    if (!rows.isEmpty())
        markdown += markdownHeader(QStringLiteral("Setting"), columns) + rows
            + QStringLiteral("\nIn bold: settings that bear on memory or server time. — : not a setting of that version.\n");
    if (!onlySome.isEmpty() && listing == OnlySomeSettings::Counted)
        markdown += QStringLiteral("\n%1 more setting%2 only some of these versions have, bearing on neither figure (listed "
                                   "in report.md: --export-dir DIR --report).\n")
                        .arg(onlySome.size()).arg(onlySome.size() == 1 ? QString() : QStringLiteral("s"));
    else if (!onlySome.isEmpty())
        markdown += QStringLiteral("\nSettings only some of these versions have (%1): %2.\n")
                        .arg(onlySome.size()).arg(onlySome.join(QStringLiteral(", ")));
    return markdown + appliedLines(figures, ids, columnName);
}
