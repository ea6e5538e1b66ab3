// Where each server's bytes per key go: its memory figure split by what the server itself
// reports (MEMORY STATS), with its live allocations per size class (MALLOC-STATS). Every part is
// a change over the pass divided by the pass's keys, like the figure; the parts of the repeats
// the figure's median comes from are used, so they add up to the figure exactly, and what the
// server's accounting does not cover is "not attributed" (docs/MEASUREMENT.md, "Why").

#include "figuresdata.h"
#include "figureswhy.h"
#include "figureswhyrounding.h"
#include "memoryexplanation.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace {

// One pass's accounting and keys, as a category reads it from one repeat.
struct PassAccounting {
    MemoryAccounting accounting;
    long long keys = 0;
    long long usedMemoryDelta = 0;
};

std::optional<PassAccounting> typeAccounting(const RepeatResult &repeat, const QString &type)
{
    const auto found = repeat.byType.find(type);
    if (found == repeat.byType.end() || found->second.status != TypeStatus::Ok || !found->second.accounting
        || found->second.keys <= 0)
        return std::nullopt;
    return PassAccounting{*found->second.accounting, found->second.keys, found->second.usedMemoryDelta};
}

// The parts of one pass, per key; "not attributed" is left to the caller.
std::vector<MemoryPart> partsOf(const PassAccounting &pass)
{
    const MemoryAccounting &a = pass.accounting;
    const double keys = double(pass.keys);
    const long long mainTable = a.mainTable();
    const long long expires = a.expiresTable();
    const long long slotTable = a.slotTable();
    // overhead.total holds the clients' buffers too: Versus's own connection is left out of the
    // memory figure, so the clients are no part of it.
    const long long server = a.overheadTotal() - mainTable - expires - slotTable - a.startupAllocated() - a.clients();
    std::vector<MemoryPart> parts = {
        {QStringLiteral("main-table"), QStringLiteral("main table"), double(mainTable) / keys},
        {QStringLiteral("expires-table"), QStringLiteral("expires table"), double(expires) / keys},
    };
    if (a.hasSlotTable())
        parts.push_back({QStringLiteral("slot-table"), QStringLiteral("slot-to-keys table"), double(slotTable) / keys});
    parts.push_back({QStringLiteral("keys-values"), QStringLiteral("keys and values"), double(a.dataset()) / keys});
    parts.push_back({QStringLiteral("server"), QStringLiteral("server overhead"), double(server) / keys});
    return parts;
}

// Why a pass's parts could not have happened; empty when they could. The pass wrote keys into
// an empty server, so its key tables and data only grew, and by no more than the whole change;
// the server's own overhead moves either way, by no more than the whole. "Not attributed" is
// the remainder and holds what other clients' buffers did on an endpoint: not checked.
QString impossiblePart(const PassAccounting &pass)
{
    const std::vector<MemoryPart> parts = partsOf(pass);
    const double total = double(pass.usedMemoryDelta) / double(pass.keys);
    for (const MemoryPart &part : parts) {
        const double lowest = part.id == QLatin1String("server") ? -total : 0.0;
        if (std::isfinite(part.bytesPerKey) && part.bytesPerKey >= lowest && part.bytesPerKey <= total)
            continue;
        const auto text = [](double bytes) {
            const QString digits = QLocale(QLocale::English).toString(std::abs(bytes), 'f', bytes == 0 ? 0 : 1);
            return bytes < 0 ? QString(QChar(0x2212)) + digits : digits;
        };
        return QStringLiteral("MEMORY STATS: the %1 changed by %2 bytes per key of %3 in all, outside %4 to %3: not a possible reading")
            .arg(part.label, text(part.bytesPerKey), text(total), text(lowest));
    }
    return QString();
}


const RepeatResult *repeatOf(const ServerData &server, int index)
{
    for (const RepeatResult *repeat : server.sources()) {
        if (repeat->repeat == index)
            return repeat;
    }
    return nullptr;
}

// What the breakdown could not use, said once per reason.
void noteUnavailable(const MemoryAccounting &accounting, QStringList &unavailable)
{
    for (const QString &reason : {accounting.statsUnavailable, accounting.regionsUnavailable}) {
        if (!reason.isEmpty() && !unavailable.contains(reason))
            unavailable << reason;
    }
}

// Averages the parts of `passes` (the median's repeats) into `breakdown`, their table entries
// counted at the allocator's size class when `rounding` is known.
void averageParts(const std::vector<PassAccounting> &passes, const std::optional<EntryRounding> &rounding,
                  MemoryBreakdown &breakdown, RoundingNotes &notes)
{
    const double share = 1.0 / double(passes.size());
    for (const PassAccounting &pass : passes) {
        std::vector<MemoryPart> parts = partsOf(pass);
        if (rounding)
            addEntryRounding(*rounding, pass.accounting, pass.keys, parts, notes);
        if (breakdown.parts.empty())
            breakdown.parts.assign(parts.size(), MemoryPart());
        for (size_t i = 0; i < parts.size() && i < breakdown.parts.size(); ++i) {
            breakdown.parts[i].id = parts[i].id;
            breakdown.parts[i].label = parts[i].label;
            breakdown.parts[i].bytesPerKey += parts[i].bytesPerKey * share;
            breakdown.parts[i].allocatorRounding += parts[i].allocatorRounding * share;
        }
    }
}

// Averages `passes` (the median's repeats) into one breakdown of `figure`.
MemoryBreakdown breakdownOf(const ServerData &server, double figure, const std::vector<PassAccounting> &passes)
{
    MemoryBreakdown breakdown;
    breakdown.serverId = server.run->id;
    breakdown.bytesPerKey = figure;
    bool stats = true;
    bool regions = true;
    for (const PassAccounting &pass : passes) {
        noteUnavailable(pass.accounting, breakdown.unavailable);
        stats = stats && pass.accounting.hasStats();
        regions = regions && pass.accounting.hasRegions();
        if (const QString impossible = stats ? impossiblePart(pass) : QString(); !impossible.isEmpty()) {
            stats = false;
            if (!breakdown.unavailable.contains(impossible))
                breakdown.unavailable << impossible;
        }
    }
    const double share = 1.0 / double(passes.size());
    for (const PassAccounting &pass : passes)
        breakdown.keys = breakdown.keys == 0 ? pass.keys : std::min(breakdown.keys, pass.keys);
    if (stats) {
        const std::optional<EntryRounding> rounding = entryRoundingOf(*server.run);
        RoundingNotes notes;
        averageParts(passes, rounding, breakdown, notes);
        if (rounding)
            breakdown.rounding = roundingSentence(server.summary.name, *rounding, breakdown, notes);
        double attributed = 0;
        for (const MemoryPart &part : breakdown.parts)
            attributed += part.bytesPerKey;
        breakdown.parts.push_back({QStringLiteral("not-attributed"), QStringLiteral("not attributed"), figure - attributed});
    }
    if (regions) {
        std::map<long long, double> perKey;
        for (const PassAccounting &pass : passes) {
            for (const auto &[size, count] : pass.accounting.regions)
                perKey[size] += double(count) / double(pass.keys) * share;
        }
        breakdown.hasSizeClasses = true;
        for (const auto &[size, count] : perKey) {
            breakdown.allocationsPerKey += count;
            if (std::abs(count) >= 0.01)
                breakdown.sizeClasses.push_back({size, count});
        }
    }
    return breakdown;
}

std::optional<PassAccounting> categoryAccounting(const FiguresData &data, const RepeatResult &repeat,
                                                const FigureCategory &category)
{
    if (!category.total)
        return typeAccounting(repeat, category.id);
    if (data.combined() && repeat.keys > 0 && !data.anyComparedServerRefused()) {
        if (!repeat.accounting)
            return std::nullopt;
        return PassAccounting{*repeat.accounting, repeat.keys, repeat.usedMemoryDelta};
    }
    // A total over types measured each on its own: their changes and keys summed, as the figure.
    PassAccounting sum;
    for (const QString &type : data.commonTypes()) {
        const std::optional<PassAccounting> pass = typeAccounting(repeat, type);
        if (!pass)
            return std::nullopt;
        sum.accounting.add(pass->accounting);
        sum.keys += pass->keys;
        sum.usedMemoryDelta += pass->usedMemoryDelta;
    }
    return sum.keys > 0 ? std::optional<PassAccounting>(sum) : std::nullopt;
}

std::optional<MemoryBreakdown> breakdownFor(const FiguresData &data, const QString &serverId,
                                            const FigureCategory &category, const Figure &figure)
{
    if (!figure.settled())
        return std::nullopt;
    std::vector<PassAccounting> passes;
    for (const int index : medianRepeats(figure.byRepeat)) {
        const RepeatResult *repeat = repeatOf(data.server(serverId), index);
        std::optional<PassAccounting> pass = repeat ? categoryAccounting(data, *repeat, category) : std::nullopt;
        if (!pass)
            return std::nullopt;
        passes.push_back(std::move(*pass));
    }
    if (passes.empty())
        return std::nullopt;
    return breakdownOf(data.server(serverId), figure.value, passes);
}

} // namespace

double MemoryBreakdown::part(const QString &id) const
{
    for (const MemoryPart &part : parts) {
        if (part.id == id)
            return part.bytesPerKey;
    }
    return 0;
}

const MemoryBreakdown *MemoryExplanation::server(const QString &id) const
{
    for (const MemoryBreakdown &breakdown : servers) {
        if (breakdown.serverId == id)
            return &breakdown;
    }
    return nullptr;
}

MemoryExplanation Figures::explainMemory(const QString &categoryId) const
{
    MemoryExplanation explanation;
    const FigureTable table = memory();
    const int category = table.categoryIndex(categoryId);
    if (category < 0)
        return explanation;
    explanation.category = table.categories[size_t(category)];
    for (const QString &id : table.servers) {
        if (std::optional<MemoryBreakdown> found = breakdownFor(*d, id, explanation.category, table.at(category, id)))
            explanation.servers.push_back(std::move(*found));
    }
    explainDifference(*this, table, explanation);
    return explanation;
}

std::vector<int> medianRepeats(const std::map<int, double> &byRepeat)
{
    std::vector<std::pair<double, int>> sorted;
    for (const auto &[repeat, value] : byRepeat)
        sorted.emplace_back(value, repeat);
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty())
        return {};
    const size_t middle = sorted.size() / 2;
    if (sorted.size() % 2 == 1)
        return {sorted[middle].second};
    return {sorted[middle - 1].second, sorted[middle].second};
}

QString defaultWhyCategory(const Figures &figures)
{
    const FigureTable memory = figures.memory();
    const QString reference = figures.referenceType();
    for (const FigureCategory &category : memory.categories) {
        if (!category.total && category.id == reference)
            continue;
        const MemoryExplanation explanation = figures.explainMemory(category.id);
        const bool hasParts = std::any_of(explanation.servers.begin(), explanation.servers.end(),
                                          [](const MemoryBreakdown &server) { return !server.parts.empty(); });
        if (hasParts)
            return category.id;
    }
    return {};
}
