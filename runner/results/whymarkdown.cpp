#include "whymarkdown.h"

#include "markdowntable.h"
#include "memoryexplanation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace {

// One decimal; a rounding's "-0.0" reads 0.0.
QString bytes(double value)
{
    return QString::number(std::fabs(value) < 0.05 ? 0.0 : value, 'f', 1);
}

// The column labels of the parts any server has, in the order the figures layer gives them
// ("not attributed" last).
QStringList partColumns(const std::vector<MemoryExplanation> &explanations)
{
    static const QStringList order = {QStringLiteral("main-table"), QStringLiteral("expires-table"), QStringLiteral("slot-table"),
                                      QStringLiteral("keys-values"), QStringLiteral("server"), QStringLiteral("not-attributed")};
    std::map<int, QString> byOrder;
    for (const MemoryExplanation &why : explanations) {
        for (const MemoryBreakdown &server : why.servers) {
            for (const MemoryPart &part : server.parts)
                byOrder[order.contains(part.id) ? int(order.indexOf(part.id)) : int(order.size())] = part.label;
        }
    }
    QStringList columns;
    for (const auto &[place, label] : byOrder)
        columns << label;
    return columns;
}

QString partsRow(const QString &name, const MemoryBreakdown &server, const QStringList &columns)
{
    QStringList cells = {name};
    for (const QString &column : columns) {
        const auto found = std::find_if(server.parts.begin(), server.parts.end(),
                                        [&](const MemoryPart &part) { return part.label == column; });
        cells << (found == server.parts.end() ? QStringLiteral("—") : bytes(found->bytesPerKey));
    }
    cells << bytes(server.bytesPerKey);
    return markdownRow(cells);
}

// One row per server of each explanation; rows name the category too when there are several.
QString partsTable(const Figures &figures, const std::vector<MemoryExplanation> &explanations)
{
    const QStringList columns = partColumns(explanations);
    if (columns.isEmpty())
        return QString();
    const bool several = explanations.size() > 1;
    QString noun = figures.typeNoun();
    noun[0] = noun[0].toUpper();
    QString table = markdownHeader(several ? noun : QStringLiteral("Server"), QStringList(columns) << QStringLiteral("bytes per key"));
    for (const MemoryExplanation &why : explanations) {
        for (const MemoryBreakdown &server : why.servers) {
            const QString name = markdownServerName(figures, server.serverId);
            table += partsRow(several ? QStringLiteral("%1 on %2").arg(markdownText(why.category.label), name) : name, server, columns);
        }
    }
    return table;
}

// Allocations per key by size class: the classes any server holds at least 0.05 of per key.
QString classesTable(const Figures &figures, const MemoryExplanation &why)
{
    std::set<long long> sizes;
    for (const MemoryBreakdown &server : why.servers) {
        for (const SizeClassShare &share : server.sizeClasses) {
            if (std::abs(share.perKey) >= 0.05)
                sizes.insert(share.bytes);
        }
    }
    if (sizes.empty())
        return QString();
    QStringList columns;
    for (const long long size : sizes)
        columns << QStringLiteral("%1 B").arg(size);
    columns << QStringLiteral("all");
    QString table = markdownHeader(QStringLiteral("Allocations per key"), columns);
    for (const MemoryBreakdown &server : why.servers) {
        if (!server.hasSizeClasses)
            continue;
        QStringList cells = {markdownServerName(figures, server.serverId)};
        for (const long long size : sizes) {
            double perKey = 0;
            for (const SizeClassShare &share : server.sizeClasses)
                perKey += share.bytes == size ? share.perKey : 0;
            cells << QString::number(perKey, 'f', 2);
        }
        cells << QString::number(server.allocationsPerKey, 'f', 2);
        table += markdownRow(cells);
    }
    return table;
}

// The parts holding the allocator's rounding of table entries, one line per server.
QString roundingLines(const MemoryExplanation &why)
{
    QString lines;
    for (const MemoryBreakdown &server : why.servers) {
        if (!server.rounding.isEmpty())
            lines += QStringLiteral("- %1\n").arg(markdownText(server.rounding));
    }
    return lines;
}

QString unavailableLines(const Figures &figures, const MemoryExplanation &why)
{
    QString lines;
    for (const MemoryBreakdown &server : why.servers) {
        for (const QString &reason : server.unavailable)
            lines += QStringLiteral("- %1: %2\n").arg(markdownServerName(figures, server.serverId), markdownText(reason));
    }
    return lines;
}

} // namespace

QString whySummary(const Figures &figures)
{
    const FigureTable memory = figures.memory();
    if (memory.categories.empty())
        return QString();
    const MemoryExplanation why = figures.explainMemory(memory.categories.front().id);
    if (why.sentence.isEmpty())
        return why.againstReference;
    return why.allocations.isEmpty() ? why.sentence : why.sentence + QLatin1Char(' ') + why.allocations;
}

QString whyMarkdown(const Figures &figures, const QString &image)
{
    const FigureTable memory = figures.memory();
    if (memory.categories.empty())
        return QString();
    const MemoryExplanation total = figures.explainMemory(memory.categories.front().id);
    // Without a total (each type measured its own way) the table holds every type.
    std::vector<MemoryExplanation> shown = {total};
    for (size_t category = 1; !total.category.total && category < memory.categories.size(); ++category)
        shown.push_back(figures.explainMemory(memory.categories[category].id));
    const QString parts = partsTable(figures, shown);
    if (parts.isEmpty())
        return QString();
    QString markdown = QStringLiteral("## Why the memory differs\n\n");
    if (!image.isEmpty())
        markdown += QStringLiteral("![Where each key's bytes go](%1)\n\n").arg(image);
    for (const QString &sentence : {total.sentence, total.allocations, total.againstReference}) {
        if (!sentence.isEmpty())
            markdown += markdownText(sentence) + QStringLiteral("\n\n");
    }
    markdown += QStringLiteral("%1, bytes per key, from each server's MEMORY STATS:\n\n")
                    .arg(shown.size() > 1 ? QStringLiteral("Each %1").arg(figures.typeNoun()) : markdownText(total.category.label));
    markdown += parts + QLatin1Char('\n');
    if (const QString classes = classesTable(figures, total); !classes.isEmpty())
        markdown += QStringLiteral("Live allocations per key by jemalloc size class (MEMORY MALLOC-STATS):\n\n") + classes + QLatin1Char('\n');
    if (const QString corrected = roundingLines(total); !corrected.isEmpty())
        markdown += QStringLiteral("Counted at the allocator's size classes:\n\n") + corrected + QLatin1Char('\n');
    if (const QString missing = unavailableLines(figures, total); !missing.isEmpty())
        markdown += QStringLiteral("Not reported:\n\n") + missing + QLatin1Char('\n');
    QString byType;
    for (size_t category = 1; category < memory.categories.size(); ++category) {
        const MemoryExplanation why = figures.explainMemory(memory.categories[category].id);
        const QString sentence = (why.sentence + QLatin1Char(' ') + why.againstReference).trimmed();
        if (!sentence.isEmpty())
            byType += QStringLiteral("- **%1:** %2\n").arg(markdownText(why.category.label), markdownText(sentence));
    }
    if (!byType.isEmpty())
        markdown += QStringLiteral("By %1:\n\n").arg(figures.typeNoun()) + byType + QLatin1Char('\n');
    return markdown;
}
