#include "chartdata.h"

#include "palette.h"
#include "presentation.h"
#include "resultsstats.h"
#include <QLocale>
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace {

// One figure of one repeat; nullopt when the repeat has none for this category.
using Figure = std::function<std::optional<double>(const RepeatResult &)>;

struct Measured {
    Spread spread;
    bool unsupported = false;
};

Measured measure(const ServerRun &run, const Figure &figure)
{
    Measured measured;
    std::vector<double> values;
    for (const RepeatResult &repeat : run.repeats) {
        if (repeat.status != QLatin1String("ok"))
            continue;
        if (const std::optional<double> value = figure(repeat))
            values.push_back(*value);
    }
    measured.spread = spreadOf(std::move(values));
    return measured;
}

bool typeUnsupported(const ServerRun &run, const QString &type)
{
    for (const RepeatResult &repeat : run.repeats) {
        const auto found = repeat.byType.find(type);
        if (found != repeat.byType.end() && found->second.status == QLatin1String("unsupported"))
            return true;
    }
    return false;
}

bool hasOkRepeat(const ServerRun &run)
{
    return std::any_of(run.repeats.begin(), run.repeats.end(),
                       [](const RepeatResult &r) { return r.status == QLatin1String("ok"); });
}

QString categoryName(QString name)
{
    return name.replace(QLatin1Char('_'), QLatin1Char(' '));
}

struct Category {
    QString name;
    Figure figure;
    std::function<bool(const ServerRun &)> unsupported;
};

QStringList memoryTypes(const ResultsBundle &bundle)
{
    QStringList types = bundle.workload.types;
    for (const ServerRun &run : bundle.servers) {
        for (const RepeatResult &repeat : run.repeats) {
            for (const auto &entry : repeat.byType) {
                if (!types.contains(entry.first))
                    types << entry.first;
            }
        }
    }
    return types;
}

std::vector<Category> memoryCategories(const ResultsBundle &bundle)
{
    std::vector<Category> categories;
    const QStringList types = memoryTypes(bundle);
    bool anyUnsupported = false;
    for (const ServerRun &run : bundle.servers) {
        for (const QString &type : types)
            anyUnsupported = anyUnsupported || typeUnsupported(run, type);
    }
    // An overall figure over different sets of types would compare unlike with unlike.
    if (!anyUnsupported) {
        categories.push_back({QStringLiteral("All attributes"),
                              [](const RepeatResult &r) -> std::optional<double> { return r.bytesPerKey; },
                              [](const ServerRun &) { return false; }});
    }
    for (const QString &type : types) {
        categories.push_back({categoryName(type),
                              [type](const RepeatResult &r) -> std::optional<double> {
                                  const auto found = r.byType.find(type);
                                  if (found == r.byType.end() || found->second.status != QLatin1String("ok"))
                                      return std::nullopt;
                                  return found->second.bytesPerKey;
                              },
                              [type](const ServerRun &run) { return typeUnsupported(run, type); }});
    }
    return categories;
}

std::optional<double> usecPerCallOf(const RepeatResult &repeat, const QStringList &commands)
{
    long long calls = 0, usec = 0;
    for (const QString &command : commands) {
        const auto found = repeat.byCommand.find(command);
        if (found != repeat.byCommand.end()) {
            calls += found->second.calls;
            usec += found->second.usec;
        }
    }
    if (calls == 0)
        return std::nullopt;
    return double(usec) / double(calls);
}

// A command the server never ran while it refused some of the workload's types: the
// refusal is why (hash-ttl's HSETEX on Valkey 8.x).
bool refusedCommand(const ServerRun &run, const QString &command)
{
    bool refusedSome = false;
    for (const RepeatResult &repeat : run.repeats) {
        if (repeat.byCommand.count(command))
            return false;
        for (const auto &entry : repeat.byType)
            refusedSome = refusedSome || entry.second.status == QLatin1String("unsupported");
    }
    return refusedSome;
}

std::vector<Category> commandCategories(const ResultsBundle &bundle, const ChartDataOptions &options)
{
    std::map<QString, long long> calls;
    for (const ServerRun &run : bundle.servers) {
        for (const RepeatResult &repeat : run.repeats) {
            if (repeat.status != QLatin1String("ok"))
                continue;
            for (const auto &[name, stat] : repeat.byCommand)
                calls[name] += stat.calls;
        }
    }
    std::vector<std::pair<QString, long long>> ranked(calls.begin(), calls.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    const auto never = [](const ServerRun &) { return false; };
    // Servers that ran different commands (hash-ttl on a version without HSETEX) have no
    // comparable overall figure.
    std::set<std::set<QString>> commandSets;
    for (const ServerRun &run : bundle.servers) {
        std::set<QString> ran;
        for (const RepeatResult &repeat : run.repeats) {
            if (repeat.status != QLatin1String("ok"))
                continue;
            for (const auto &entry : repeat.byCommand)
                ran.insert(entry.first);
        }
        if (!ran.empty())
            commandSets.insert(ran);
    }
    std::vector<Category> categories;
    if (commandSets.size() <= 1)
        categories.push_back({QStringLiteral("All commands"),
                          [](const RepeatResult &r) -> std::optional<double> {
                              if (r.totalCalls() == 0)
                                  return std::nullopt;
                              return r.usecPerCall();
                          },
                          never});
    const int shown = options.foldOther && int(ranked.size()) > options.topCommands + 1 ? options.topCommands
                                                                                         : int(ranked.size());
    QStringList rest;
    for (int i = 0; i < int(ranked.size()); ++i) {
        const QString command = ranked[size_t(i)].first;
        if (i >= shown) {
            rest << command;
            continue;
        }
        categories.push_back({command.toUpper(),
                              [command](const RepeatResult &r) { return usecPerCallOf(r, {command}); },
                              [command](const ServerRun &run) { return refusedCommand(run, command); }});
    }
    if (!rest.isEmpty()) {
        categories.push_back({QStringLiteral("other (%1)").arg(rest.size()),
                              [rest](const RepeatResult &r) { return usecPerCallOf(r, rest); }, never});
    }
    return categories;
}

bool throughputInEvents(const ResultsBundle &bundle)
{
    return bundle.workload.events > 0 && bundle.workload.events != bundle.workload.commands;
}

std::vector<Category> categoriesOf(const ResultsBundle &bundle, ChartKind kind, const ChartDataOptions &options)
{
    const auto never = [](const ServerRun &) { return false; };
    switch (kind) {
    case ChartKind::MemoryPerAttribute:
        return memoryCategories(bundle);
    case ChartKind::UsecPerCommand:
        return commandCategories(bundle, options);
    case ChartKind::UsecPerEvent:
        return {{QStringLiteral("All events"),
                 [](const RepeatResult &r) -> std::optional<double> {
                     if (r.events == 0)
                         return std::nullopt;
                     return r.usecPerEvent();
                 },
                 never}};
    case ChartKind::Throughput:
        if (throughputInEvents(bundle)) {
            return {{QStringLiteral("Events"),
                     [](const RepeatResult &r) -> std::optional<double> { return r.eventsPerSecond; }, never}};
        }
        return {{QStringLiteral("Commands"),
                 [](const RepeatResult &r) -> std::optional<double> { return r.commandsPerSecond; }, never}};
    }
    return {};
}

QString valueTitleOf(const ResultsBundle &bundle, ChartKind kind)
{
    switch (kind) {
    case ChartKind::MemoryPerAttribute: return QStringLiteral("bytes per key (used_memory)");
    case ChartKind::UsecPerCommand: return QStringLiteral("server µs per call (INFO commandstats)");
    case ChartKind::UsecPerEvent: return QStringLiteral("server µs per event");
    case ChartKind::Throughput:
        return throughputInEvents(bundle) ? QStringLiteral("events per second (client side)")
                                          : QStringLiteral("commands per second (client side)");
    }
    return {};
}

// The headline figure of a chart: its first category, when every server has it.
std::optional<double> headline(const ChartData &data, const QString &serverId)
{
    if (data.categories.isEmpty())
        return std::nullopt;
    if (data.kind == ChartKind::MemoryPerAttribute && data.categories.first() != QLatin1String("All attributes"))
        return std::nullopt;
    if (data.kind == ChartKind::UsecPerCommand && data.categories.first() != QLatin1String("All commands"))
        return std::nullopt;
    for (const ChartSeries &series : data.series) {
        if (series.serverId == serverId && !series.bars.empty() && !series.bars[0].missing
            && !series.bars[0].unsupported)
            return series.bars[0].value;
    }
    return std::nullopt;
}

} // namespace

bool ChartData::sameShape(const ChartData &other) const
{
    if (kind != other.kind || categories != other.categories || series.size() != other.series.size())
        return false;
    for (size_t i = 0; i < series.size(); ++i) {
        if (series[i].serverId != other.series[i].serverId)
            return false;
    }
    return true;
}

double ChartData::largestExtent() const
{
    double largest = 0;
    for (const ChartSeries &s : series) {
        for (const ChartBar &bar : s.bars)
            largest = std::max({largest, bar.value, bar.hasRange ? bar.max : 0.0});
    }
    return largest;
}

namespace {

void sortCategories(ChartData &data, CategoryOrder order)
{
    if (order == CategoryOrder::Workload || data.categories.size() < 2)
        return;
    auto rank = [](const QString &name) {
        if (name.startsWith(QLatin1String("All ")))
            return 0;
        return name == QLatin1String("other") ? 2 : 1;
    };
    const ChartSeries *reference = nullptr;
    for (const ChartSeries &series : data.series)
        if (series.serverId == data.baselineId)
            reference = &series;
    if (!reference && !data.series.empty())
        reference = &data.series.front();
    std::vector<int> indices(size_t(data.categories.size()));
    for (size_t i = 0; i < indices.size(); ++i)
        indices[i] = int(i);
    std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
        const QString &nameA = data.categories[a];
        const QString &nameB = data.categories[b];
        if (rank(nameA) != rank(nameB))
            return rank(nameA) < rank(nameB);
        if (order == CategoryOrder::Name)
            return nameA.compare(nameB, Qt::CaseInsensitive) < 0;
        const double valueA = reference ? reference->bars[size_t(a)].value : 0;
        const double valueB = reference ? reference->bars[size_t(b)].value : 0;
        return valueA > valueB;
    });
    QStringList categories;
    for (int index : indices)
        categories << data.categories[index];
    data.categories = categories;
    for (ChartSeries &series : data.series) {
        std::vector<ChartBar> bars;
        for (int index : indices)
            bars.push_back(series.bars[size_t(index)]);
        series.bars = bars;
    }
}

// While a run goes on, a repeat is "incomplete" until it ends; its figures so far are drawn.
ResultsBundle withUnfinishedRepeatsDrawn(ResultsBundle bundle)
{
    for (ServerRun &run : bundle.servers)
        for (RepeatResult &repeat : run.repeats)
            if (repeat.status == QLatin1String("incomplete"))
                repeat.status = QStringLiteral("ok");
    return bundle;
}

ChartData buildFinishedChartData(const ResultsBundle &bundle, ChartKind kind, const ChartDataOptions &options)
{
    ChartData data;
    data.kind = kind;
    data.valueTitle = valueTitleOf(bundle, kind);
    data.baselineId = baselineId(bundle);
    const std::vector<Category> categories = categoriesOf(bundle, kind, options);
    for (const Category &category : categories)
        data.categories << category.name;
    const std::map<QString, QColor> colors = serverColors(bundle);
    const ServerRun *baseline = bundle.server(data.baselineId);

    for (const QString &id : orderedServerIds(bundle)) {
        const ServerRun &run = *bundle.server(id);
        if (!hasOkRepeat(run) || options.hiddenServers.contains(id))
            continue;   // no bars; its colour stays reserved
        ChartSeries series;
        series.serverId = id;
        series.name = serverDisplayName(run);
        series.color = colors.at(id);
        series.baseline = id == data.baselineId;
        for (const Category &category : categories) {
            ChartBar bar;
            if (category.unsupported(run)) {
                bar.unsupported = true;
                bar.label = QStringLiteral("unsupported");
                series.bars.push_back(bar);
                continue;
            }
            const Measured measured = measure(run, category.figure);
            if (measured.spread.n == 0) {
                bar.missing = true;
                bar.label = QStringLiteral("n/a");
                series.bars.push_back(bar);
                continue;
            }
            bar.value = measured.spread.median;
            bar.min = measured.spread.min;
            bar.max = measured.spread.max;
            bar.hasRange = measured.spread.n > 1 && bar.max > bar.min;
            bar.label = formatFigure(bar.value);
            if (baseline && !series.baseline && hasOkRepeat(*baseline) && !category.unsupported(*baseline)) {
                const Measured reference = measure(*baseline, category.figure);
                if (reference.spread.n > 0 && reference.spread.median != 0)
                    bar.label += QStringLiteral("  ") + formatChange(bar.value, reference.spread.median);
            }
            series.bars.push_back(bar);
        }
        data.series.push_back(std::move(series));
    }
    sortCategories(data, options.order);
    return data;
}

} // namespace

ChartData buildChartData(const ResultsBundle &bundle, ChartKind kind, const ChartDataOptions &options)
{
    if (bundle.complete)
        return buildFinishedChartData(bundle, kind, options);
    return buildFinishedChartData(withUnfinishedRepeatsDrawn(bundle), kind, options);
}

ResultsBundle withoutServers(const ResultsBundle &bundle, const QStringList &serverIds)
{
    ResultsBundle shown = bundle;
    shown.servers.erase(std::remove_if(shown.servers.begin(), shown.servers.end(),
                                       [&serverIds](const ServerRun &run) { return serverIds.contains(run.id); }),
                        shown.servers.end());
    if (!shown.baseline.isEmpty() && !shown.server(shown.baseline))
        shown.baseline.clear();
    return shown;
}

QString defaultChartTitle(const ResultsBundle &bundle, ChartKind kind)
{
    QString title = chartTitle(kind);
    const ChartData data = buildChartData(bundle, kind);
    const ServerRun *baseline = bundle.server(data.baselineId);
    if (!baseline)
        return title;
    // The newest version of the baseline's product.
    const ServerRun *newest = nullptr;
    for (const ChartSeries &series : data.series) {
        const ServerRun *run = bundle.server(series.serverId);
        if (run->product == baseline->product && (!newest || compareVersions(run->version, newest->version) > 0))
            newest = run;
    }
    if (!newest || newest == baseline)
        return title;
    const std::optional<double> from = headline(data, baseline->id);
    const std::optional<double> to = headline(data, newest->id);
    title += QStringLiteral(", ") + serverDisplayName(*baseline) + QStringLiteral(" → ") + newest->version;
    if (from && to && *from != 0)
        title += QStringLiteral(": ") + formatChange(*to, *from);
    return title;
}

QString defaultChartSubtitle(const ResultsBundle &bundle, ChartKind kind)
{
    const QString repeats = bundle.repeats > 1
        ? QStringLiteral("median of %1 repeats, bars show min–max").arg(bundle.repeats)
        : QStringLiteral("one run");
    switch (kind) {
    case ChartKind::MemoryPerAttribute:
        return QStringLiteral("Bytes of used_memory per stored key, %1. Lower is better.").arg(repeats);
    case ChartKind::UsecPerCommand:
        return QStringLiteral("Server time per call from INFO commandstats, %1. Lower is better.").arg(repeats);
    case ChartKind::UsecPerEvent:
        return QStringLiteral("Server time for all commands of one event, %1. Lower is better.").arg(repeats);
    case ChartKind::Throughput:
        return QStringLiteral("Measured by the client, %1. Higher is better.").arg(repeats);
    }
    return {};
}

QString defaultChartFootnote(const ResultsBundle &bundle)
{
    const QLocale english(QLocale::English);
    QStringList versions;
    for (const QString &id : orderedServerIds(bundle))
        versions << serverDisplayName(*bundle.server(id));
    QStringList parts;
    parts << QStringLiteral("Workload %1, %2 events").arg(bundle.workload.name, english.toString(bundle.workload.events));
    parts << versions.join(QStringLiteral(", "));
    QString machine = bundle.machine.cpuModel;
    if (bundle.machine.cores > 0)
        machine += QStringLiteral(", %1 cores").arg(bundle.machine.cores);
    if (!machine.isEmpty())
        parts << machine;
    if (bundle.created.isValid())
        parts << bundle.created.toUTC().toString(QStringLiteral("yyyy-MM-dd"));
    parts << QStringLiteral("Versus %1").arg(bundle.versusVersion.isEmpty() ? QStringLiteral("?") : bundle.versusVersion);
    return parts.join(QStringLiteral(" · "));
}
