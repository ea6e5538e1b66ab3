#include "figures.h"

#include "categoryorder.h"
#include "figuresdata.h"
#include "presentation.h"

#include <QVersionNumber>
#include <algorithm>
#include <atomic>
#include <cmath>

namespace {

QString incompleteNote(const ServerData &server, int repeatsAsked)
{
    if (server.summary.partial)
        return QStringLiteral("repeat %1 did not finish").arg(server.summary.partialRepeat + 1);
    return QStringLiteral("%1 of %2 repeats").arg(server.summary.countedRepeats).arg(repeatsAsked);
}

} // namespace

bool Figure::hasValue() const
{
    return state == FigureState::Measured || state == FigureState::Provisional || state == FigureState::Incomplete;
}

const Figure &FigureTable::at(int category, const QString &serverId) const
{
    static const Figure none;
    const int column = servers.indexOf(serverId);
    if (category < 0 || category >= int(cells.size()) || column < 0)
        return none;
    return cells[size_t(category)][size_t(column)];
}

int FigureTable::categoryIndex(const QString &id) const
{
    for (size_t i = 0; i < categories.size(); ++i) {
        if (categories[i].id == id)
            return int(i);
    }
    return -1;
}

ChangeMeaning changeMeaning(Measure measure, const Figure &figure)
{
    if (!figure.change || figure.withinNoise || std::fabs(*figure.change) < 0.05 || measure == Measure::MainThreadBusyPercent)
        return ChangeMeaning::Neutral;
    const bool higherIsBetter = measure == Measure::EventsPerSecond || measure == Measure::CommandsPerSecond;
    return (*figure.change > 0) == higherIsBetter ? ChangeMeaning::Better : ChangeMeaning::Worse;
}

QString figureStateName(FigureState state)
{
    switch (state) {
    case FigureState::Measured: return QStringLiteral("measured");
    case FigureState::Provisional: return QStringLiteral("provisional");
    case FigureState::Incomplete: return QStringLiteral("incomplete");
    case FigureState::Unsupported: return QStringLiteral("unsupported");
    case FigureState::NotRun: return QStringLiteral("not run");
    case FigureState::Failed: return QStringLiteral("failed");
    case FigureState::Absent: return QStringLiteral("absent");
    case FigureState::Pending: return QStringLiteral("pending");
    }
    return {};
}

namespace {

// The oldest version among `runs` (those `take` accepts), as effectiveBaseline() picks it.
template<typename Take>
QString oldestServer(const ResultsBundle &bundle, Take take)
{
    const ServerRun *oldest = nullptr;
    for (const ServerRun &run : bundle.servers) {
        if (!take(run))
            continue;
        // Redis is outside the Valkey line; it is a baseline only when nothing else is there.
        const int older = oldest ? QVersionNumber::compare(QVersionNumber::fromString(run.version),
                                                           QVersionNumber::fromString(oldest->version))
                                 : 0;
        // Of one version run standalone and as a cluster, the standalone one. A source tree is
        // measured against a release, never a release against it, whatever the order given.
        const bool releaseOverTree = oldest && oldest->origin.isSourceTree() && !run.origin.isSourceTree();
        const bool treeUnderRelease = oldest && !oldest->origin.isSourceTree() && run.origin.isSourceTree();
        const bool better = !oldest
            || (oldest->product != run.product && run.product == QLatin1String("valkey"))
            || (oldest->product == run.product && !treeUnderRelease
                && (releaseOverTree || older < 0 || (older == 0 && run.topology.primaries < oldest->topology.primaries)));
        if (better)
            oldest = &run;
    }
    return oldest ? oldest->id : QString();
}

} // namespace

QString effectiveBaseline(const ResultsBundle &bundle, const QString &chosen)
{
    if (!chosen.isEmpty() && bundle.server(chosen))
        return chosen;
    // The self-check series repeats a version and is never the one compared against.
    return oldestServer(bundle, [](const ServerRun &run) { return !run.selfCheck; });
}

std::vector<const RepeatResult *> ServerData::sources() const
{
    if (!counted.empty())
        return counted;
    if (partial)
        return {partial};
    return {};
}

QStringList FiguresData::comparedIds() const
{
    QStringList ids;
    for (const QString &id : shownIds) {
        const ServerSummary &summary = server(id).summary;
        if (summary.hasFigures() && summary.verdict != ServerVerdict::RejectedWrites)
            ids << id;
    }
    return ids;
}

QString FiguresData::unsupportedText(const ServerRun &run, const QString &type)
{
    for (const RepeatResult &repeat : run.repeats) {
        const auto found = repeat.byType.find(type);
        if (found != repeat.byType.end() && found->second.status == TypeStatus::Unsupported)
            return found->second.error.isEmpty() ? QStringLiteral("unsupported") : found->second.error;
    }
    return {};
}

Figure FiguresData::figureOf(const ServerData &server, const FigureRule &rule) const
{
    Figure figure;
    const ServerSummary &summary = server.summary;
    if (const QString skipped = rule.notRun ? rule.notRun(*server.run) : QString(); !skipped.isEmpty()) {
        figure.state = FigureState::NotRun;
        figure.note = skipped;
        return figure;
    }
    if (const QString refused = rule.unsupported ? rule.unsupported(*server.run) : QString(); !refused.isEmpty()) {
        figure.state = FigureState::Unsupported;
        figure.note = refused;
        return figure;
    }
    if (const QString lost = lossNote(server, rule); !lost.isEmpty()) {
        figure.state = FigureState::Failed;
        figure.note = lost;
        return figure;
    }
    if (const QString impossible = impossibleNote(server, rule); !impossible.isEmpty()) {
        figure.state = FigureState::Failed;
        figure.note = impossible;
        return figure;
    }
    figure.growing = summary.partial && rule.unfinished && rule.unfinished(*server.partial);
    std::vector<double> values;
    for (const RepeatResult *repeat : server.sources()) {
        if (!countsRepeat(rule, *repeat))
            continue;
        // A memory figure read while its pass still writes keys is not one: the server's fixed
        // costs over the few keys written so far read several times the final figure (916.5
        // bytes per key against a final 183.0). It waits for its pass; a time figure converges.
        if (!rule.timed && rule.unfinished && rule.unfinished(*repeat))
            continue;
        if (const std::optional<double> value = rule.value(*repeat)) {
            values.push_back(*value);
            figure.byRepeat[repeat->repeat] = *value;
        }
    }
    if (values.empty()) {
        const bool failed = summary.verdict == ServerVerdict::Failed || summary.verdict == ServerVerdict::RejectedWrites;
        // While its run goes on a server may still measure it: not "n/a", which reads as "does
        // not apply".
        const bool pending = summary.verdict == ServerVerdict::Running;
        figure.state = failed ? FigureState::Failed : pending ? FigureState::Pending : FigureState::Absent;
        figure.note = failed ? summary.statusText() : pending || !rule.absent ? QString() : rule.absent(*server.run);
        return figure;
    }
    figure.spread = spreadOf(values);
    figure.value = figure.spread.median;
    if (summary.verdict == ServerVerdict::RejectedWrites) {
        figure.state = FigureState::Failed;
        figure.note = summary.statusText();
    } else if (bundle.running) {
        figure.state = FigureState::Provisional;
    } else if (summary.partial || summary.countedRepeats < bundle.repeats) {
        figure.state = FigureState::Incomplete;
        figure.note = incompleteNote(server, bundle.repeats);
    } else {
        figure.state = FigureState::Measured;
    }
    return figure;
}

FigureTable FiguresData::tableOf(Measure measure, const std::vector<FigureRule> &rules, const QString &note) const
{
    FigureTable table;
    table.measure = measure;
    table.servers = shownIds;
    table.note = note;
    for (const FigureRule &rule : rules) {
        table.categories.push_back(rule.category);
        std::vector<Figure> row;
        for (const QString &id : shownIds)
            row.push_back(figureOf(server(id), rule));
        table.cells.push_back(std::move(row));
    }
    markUncompared(table);
    compareWithBaseline(table);
    markBottlenecks(table);
    return table;
}

void FiguresData::compareWithBaseline(FigureTable &table) const
{
    const int base = table.servers.indexOf(baseline);
    if (base < 0)
        return;
    // Each column's reference, once for the table. A reference is its own (or the baseline):
    // no column another is compared with is changed by the comparisons.
    std::vector<int> against;
    QStringList counterparts;
    for (int column = 0; column < int(table.servers.size()); ++column) {
        against.push_back(referenceColumn(table, base, column));
        const int reference = against.back();
        if (reference >= 0 && reference != base && reference != column
            && !counterparts.contains(server(table.servers[reference]).summary.name))
            counterparts << server(table.servers[reference]).summary.name;
    }
    for (std::vector<Figure> &row : table.cells) {
        for (int column = 0; column < int(row.size()); ++column) {
            const int reference = against[size_t(column)];
            if (reference < 0 || reference == column)
                continue;
            const ServerData &from = server(table.servers[reference]);
            const ServerData &other = server(table.servers[column]);
            // Repeats pair by their number only within one run of finished repeats: repeat 1 of
            // two bundles is two runs.
            const bool paired = !from.summary.partial && !other.summary.partial && other.run->bundleName == from.run->bundleName;
            compareFigures(row[size_t(column)], row[size_t(reference)], table.measure, paired);
        }
    }
    // Said where it happened: columns compared with another than the baseline.
    if (!counterparts.isEmpty()) {
        const QString said = QStringLiteral("A series run as a cluster is compared with %1, the baseline's version run so.")
                                 .arg(counterparts.join(QStringLiteral(", ")));
        table.note = table.note.isEmpty() ? said : table.note + QLatin1Char(' ') + said;
    }
}

int FiguresData::referenceColumn(const FigureTable &table, int base, int column) const
{
    const ServerRun *run = bundle.server(table.servers[column]);
    const ServerRun *from = bundle.server(baseline);
    if (!run || !from || run->topology == from->topology)
        return base;
    for (int other = 0; other < int(table.servers.size()); ++other) {
        const ServerRun *candidate = bundle.server(table.servers[other]);
        if (candidate && candidate->topology == run->topology && candidate->product == from->product
            && candidate->version == from->version && candidate->bundleName == from->bundleName)
            return other;
    }
    return -1;
}

// FigureOptions::order is declared before CategoryOrder is: its default, 0, is the workload's.
static_assert(CategoryOrder(0) == CategoryOrder::Workload);

namespace {

std::atomic<long long> builtFigures{0};
std::atomic<long long> computedTables{0};

} // namespace

Figures::Figures(const ResultsBundle &bundle, const Options &options)
    : Figures(std::make_shared<const ResultsBundle>(bundle), options)
{
}

Figures::Figures(BundleSnapshot snapshot, const Options &options)
{
    if (!snapshot)
        snapshot = std::make_shared<const ResultsBundle>();
    ++builtFigures;
    auto data = std::make_shared<FiguresData>(std::move(snapshot));
    const ResultsBundle &bundle = data->bundle;
    data->options = options;
    data->allIds = orderedServerIds(bundle);
    for (const QString &id : data->allIds) {
        if (!options.hiddenServers.contains(id))
            data->shownIds << id;
    }
    summariseServers(*data);
    // The user's pick stands; otherwise the oldest version among the servers compared, so a
    // failed server is never the yardstick, nor a hidden one, nor the self-check series.
    const QString chosen = options.baseline.isEmpty() ? bundle.baseline : options.baseline;
    const QString shownChoice = data->shownIds.contains(chosen) ? chosen : QString();
    const QStringList compared = data->comparedIds();
    data->baseline = !shownChoice.isEmpty() ? shownChoice
        : compared.isEmpty()                ? effectiveBaseline(bundle, QString())
                                            : oldestServer(bundle, [&](const ServerRun &run) { return compared.contains(run.id) && !run.selfCheck; });
    d = data;
}

long long Figures::constructions()
{
    return builtFigures.load();
}

long long Figures::tableComputations()
{
    return computedTables.load();
}

FigureTable FiguresData::cachedTable(const QString &name, const std::function<FigureTable()> &compute) const
{
    const auto found = tableCache.find(name);
    if (found != tableCache.end())
        return found->second;
    ++computedTables;
    return tableCache.emplace(name, compute()).first->second;
}

const BundleSnapshot &Figures::snapshot() const { return d->snapshot; }
const Figures::Options &Figures::options() const { return d->options; }
const ResultsBundle &Figures::bundle() const { return d->bundle; }
QString Figures::baselineId() const { return d->baseline; }
QStringList Figures::allServerIds() const { return d->allIds; }
QStringList Figures::serverIds() const { return d->shownIds; }
QStringList Figures::comparedServerIds() const { return d->comparedIds(); }
bool Figures::live() const { return d->bundle.running; }
QStringList Figures::types() const { return d->types; }

QStringList Figures::commandsOnlyOf(const QString &type) const
{
    QStringList commands;
    for (const auto &[command, owners] : d->typesOfCommand) {
        if (owners == QStringList{type})
            commands << command.toLower();
    }
    return commands;
}

const ServerSummary &Figures::summary(const QString &serverId) const
{
    static const ServerSummary none;
    const auto found = d->servers.find(serverId);
    return found == d->servers.end() ? none : found->second.summary;
}

QString Figures::typeNoun() const
{
    return d->bundle.workload.categoryNoun;
}

bool Figures::throughputInEvents() const
{
    const WorkloadInfo &workload = d->bundle.workload;
    return workload.events > 0 && workload.events != workload.commands;
}

bool FigureTable::leadsWithHeadlineCategory() const
{
    return !categories.empty() && (categories.front().total || !commandGroupOf(categories.front()).isEmpty());
}

std::optional<TypeEncodings> Figures::encodings(const QString &type, const QString &serverId) const
{
    const auto found = d->servers.find(serverId);
    if (found == d->servers.end())
        return std::nullopt;
    for (const RepeatResult *repeat : found->second.sources()) {
        const auto entry = repeat->byType.find(type);
        if (entry == repeat->byType.end() || entry->second.status != TypeStatus::Ok)
            continue;
        TypeEncodings encodings;
        encodings.keys = entry->second.keys;
        encodings.encodings = entry->second.encodings;
        encodings.bytesPerKey = d->figureOf(found->second, d->typeRule(type, Measure::BytesPerKey));
        encodings.memoryUsageBytesPerKey = d->figureOf(found->second, d->typeRule(type, Measure::MemoryUsageBytesPerKey));
        const double bytes = encodings.bytesPerKey.value;
        encodings.memoryUsageDiffers = encodings.bytesPerKey.hasValue() && bytes > 0
            && std::fabs(encodings.memoryUsageBytesPerKey.value - bytes) / bytes > 0.10;
        return encodings;
    }
    return std::nullopt;
}

QStringList Figures::dataProblems() const
{
    return dataProblemsOf(*d);
}
