// The Table tab's server-side tails (summaryfigures.h): each server's slowest command by its
// server-side p99, and every command's p50, p99 and p99.9 for the cell's tooltip.

#include "summaryfigures.h"

void summariseTails(const Figures &figures, const QStringList &ids, std::map<QString, Figure> &slowestP99,
                    std::map<QString, QString> &slowestCommand, std::map<QString, QString> &lines)
{
    const std::pair<Measure, const char *> percentiles[] = {
        {Measure::ServerP50Usec, "p50"}, {Measure::ServerP99Usec, "p99"}, {Measure::ServerP999Usec, "p99.9"}};
    std::vector<FigureTable> tables;
    for (const auto &percentile : percentiles)
        tables.push_back(figures.serverTails(percentile.first));
    const FigureTable &p99 = tables[1];
    for (const QString &id : ids) {
        QStringList commandLines;
        for (size_t c = 0; c < p99.categories.size(); ++c) {
            const Figure &figure = p99.at(int(c), id);
            const auto slowest = slowestP99.find(id);
            // The slowest command's p99, else the first figure, whose note says why there is none.
            if (slowest == slowestP99.end() || (figure.hasValue() && (!slowest->second.hasValue() || figure.value > slowest->second.value))) {
                slowestP99[id] = figure;
                slowestCommand[id] = figure.hasValue() ? p99.categories[c].label : QString();
            }
            QStringList parts;
            for (size_t t = 0; t < tables.size(); ++t) {
                const Figure &tail = tables[t].at(int(c), id);
                if (tail.hasValue())
                    parts << QStringLiteral("%1 %2").arg(QLatin1String(percentiles[t].second), Figures::serverTailText(tail));
            }
            if (!parts.isEmpty())
                commandLines << QStringLiteral("%1: %2").arg(p99.categories[c].label, parts.join(QStringLiteral(", ")));
        }
        lines[id] = commandLines.join(QLatin1Char('\n'));
    }
}
