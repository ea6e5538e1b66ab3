// How each category is read out of the measurements, and which totals compare like with like.

#include "figuresdata.h"

#include <QLocale>
#include <QRegularExpression>
#include <algorithm>

#include <set>

namespace {

// The command a type's refusal names as unknown ("ERR unknown command 'HEXPIRE', …" names
// HEXPIRE); empty when it names none.
QString unknownCommandOf(const QString &refusal)
{
    static const QRegularExpression named(QStringLiteral("unknown command [`'\"]([^`'\"\\s]+)"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = named.match(refusal);
    return match.hasMatch() ? match.captured(1) : QString();
}

const TypeMemory *okType(const RepeatResult &repeat, const QString &type)
{
    const auto found = repeat.byType.find(type);
    if (found == repeat.byType.end() || found->second.status != TypeStatus::Ok)
        return nullptr;
    return &found->second;
}

// The timings a repeat has for `types` (every one of them, or nothing).
std::optional<std::vector<const PassTiming *>> timingsOf(const RepeatResult &repeat, const QStringList &types)
{
    std::vector<const PassTiming *> timings;
    for (const QString &type : types) {
        const TypeMemory *memory = okType(repeat, type);
        if (!memory || !memory->timing || memory->timing->events == 0)
            return std::nullopt;
        timings.push_back(&*memory->timing);
    }
    return timings;
}

// The server's own time over `timing`'s pass (serverclock.h), µs; nullopt where not read.
std::optional<long long> serverTimeUsec(const PassTiming &timing, Measure measure)
{
    if (!timing.serverTime)
        return std::nullopt;
    return measure == Measure::EventLoopPerCall ? timing.serverTime->eventLoopUsec : timing.serverTime->mainThreadCpuUsec;
}

// The server's time per command in all over passes together, or how busy its main thread was:
// Σ its time over Σ calls (or Σ seconds). Nothing when a pass lacks the counter.
std::optional<double> serverTimeFigure(const std::vector<const PassTiming *> &timings, Measure measure)
{
    long long usec = 0, calls = 0;
    double seconds = 0;
    for (const PassTiming *timing : timings) {
        const std::optional<long long> time = serverTimeUsec(*timing, measure);
        if (!time)
            return std::nullopt;
        usec += *time;
        calls += timing->totalCalls();
        seconds += timing->seconds;
    }
    if (measure == Measure::MainThreadBusyPercent)
        return seconds > 0 ? std::optional<double>(100.0 * double(usec) / (seconds * 1e6)) : std::nullopt;
    return calls > 0 ? std::optional<double>(double(usec) / double(calls)) : std::nullopt;
}

std::optional<double> timingFigure(const PassTiming &timing, Measure measure)
{
    switch (measure) {
    case Measure::MainThreadCpuPerCall:
    case Measure::EventLoopPerCall:
    case Measure::MainThreadBusyPercent:
        return serverTimeFigure({&timing}, measure);
    case Measure::UsecPerCall:
        return timing.totalUsec() > 0 ? std::optional<double>(timing.usecPerCall()) : std::nullopt;
    case Measure::UsecPerEvent:
        return timing.events > 0 && timing.totalUsec() > 0 ? std::optional<double>(timing.usecPerEvent()) : std::nullopt;
    case Measure::EventsPerSecond:
        return timing.seconds > 0 ? std::optional<double>(timing.eventsPerSecond()) : std::nullopt;
    case Measure::CommandsPerSecond:
        return timing.seconds > 0 ? std::optional<double>(timing.commandsPerSecond()) : std::nullopt;
    case Measure::LatencyP50Usec:
        return timing.latencyP50Usec > 0 ? std::optional<double>(timing.latencyP50Usec) : std::nullopt;
    case Measure::LatencyP99Usec:
        return timing.latencyP99Usec > 0 ? std::optional<double>(timing.latencyP99Usec) : std::nullopt;
    case Measure::BytesPerKey:
    case Measure::MemoryUsageBytesPerKey:
    case Measure::Keys:
    case Measure::Calls:
    case Measure::RatioToReference:
    case Measure::ProfileSharePercent:
    case Measure::ServerP50Usec:
    case Measure::ServerP99Usec:
    case Measure::ServerP999Usec:
        break;
    }
    return std::nullopt;
}

// The timings of several types, each measured alone, as one piece of work: an event does
// every one of them once.
std::optional<double> timingsFigure(const std::vector<const PassTiming *> &timings, Measure measure)
{
    long long calls = 0, usec = 0, commands = 0;
    double usecPerEvent = 0, secondsPerEvent = 0, seconds = 0;
    for (const PassTiming *timing : timings) {
        calls += timing->totalCalls();
        usec += timing->totalUsec();
        commands += timing->commands;
        seconds += timing->seconds;
        usecPerEvent += timing->usecPerEvent();
        secondsPerEvent += timing->seconds / double(timing->events);
    }
    switch (measure) {
    case Measure::UsecPerCall:
        return usec > 0 ? std::optional<double>(double(usec) / double(calls)) : std::nullopt;
    case Measure::UsecPerEvent:
        return usec > 0 ? std::optional<double>(usecPerEvent) : std::nullopt;
    case Measure::MainThreadCpuPerCall:
    case Measure::EventLoopPerCall:
    case Measure::MainThreadBusyPercent:
        return serverTimeFigure(timings, measure);
    case Measure::EventsPerSecond:
        return secondsPerEvent > 0 ? std::optional<double>(1.0 / secondsPerEvent) : std::nullopt;
    case Measure::CommandsPerSecond:
        return seconds > 0 ? std::optional<double>(double(commands) / seconds) : std::nullopt;
    default:
        return std::nullopt;
    }
}

// A combined pass's time over every command but `excluded` (lower case): for µs per event,
// the events that sent one of them, here or where the server did not know it, are left out too
// (a capture's events are single commands).
std::optional<double> keptTimingFigure(const RepeatResult &repeat, const QStringList &excluded, Measure measure)
{
    const PassTiming &timing = repeat.timing;
    long long calls = 0, usec = 0, events = timing.events;
    for (const auto &[name, stat] : timing.byCommand) {
        if (excluded.contains(name)) {
            events -= stat.calls;
            continue;
        }
        calls += stat.calls;
        usec += stat.usec;
    }
    for (const auto &[command, count] : repeat.unsupportedCommands)
        events -= count;
    if (usec <= 0 || calls <= 0)
        return std::nullopt;
    if (measure == Measure::UsecPerCall)
        return double(usec) / double(calls);
    if (measure == Measure::UsecPerEvent)
        return events > 0 ? std::optional<double>(double(usec) / double(events)) : std::nullopt;
    // The server's own time cannot be split by command: the whole pass's, shown uncompared
    // (markUncompared()).
    return timingFigure(timing, measure);
}

CommandStat commandSum(const std::map<QString, CommandStat> &byCommand, const QStringList &commands)
{
    CommandStat sum;
    for (const QString &command : commands) {
        const auto found = byCommand.find(command);
        if (found != byCommand.end()) {
            sum.calls += found->second.calls;
            sum.usec += found->second.usec;
        }
    }
    return sum;
}

} // namespace

QString joinedList(const QStringList &items)
{
    if (items.size() <= 1)
        return items.join(QString());
    return QStringList(items.mid(0, items.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

FigureRule FiguresData::typeRule(const QString &type, Measure measure) const
{
    FigureRule rule;
    // Shown as words: "category count" for the type category_count (the id stays the type's).
    rule.category = {type, QString(type).replace(QLatin1Char('_'), QLatin1Char(' ')), false, QString(), {}, CategoryKind::Type, QString()};
    rule.value = [type, measure](const RepeatResult &repeat) -> std::optional<double> {
        const TypeMemory *memory = okType(repeat, type);
        if (!memory || memory->keys <= 0)
            return std::nullopt;
        if (measure == Measure::Keys)
            return double(memory->keys);
        if (measure == Measure::MemoryUsageBytesPerKey)
            return memory->memoryUsageBytesPerKey > 0 ? std::optional<double>(memory->memoryUsageBytesPerKey) : std::nullopt;
        return memory->bytesPerKey();
    };
    rule.unfinished = [type](const RepeatResult &repeat) { return repeat.unfinishedType == type; };
    rule.unsupported = [type](const ServerRun &run) { return unsupportedText(run, type); };
    // The keys a pass left are a count, not a memory figure: shown even when some were evicted.
    if (measure != Measure::Keys) {
        rule.loss = [type](const RepeatResult &repeat) { return lossOfTypes(repeat, {type}); };
        rule.impossible = [type](const RepeatResult &repeat) { return impossibleOfTypes(repeat, {type}); };
    }
    return rule;
}

FigureRule FiguresData::commandRule(const QStringList &commands, const FigureCategory &category, Measure measure) const
{
    FigureRule rule;
    rule.category = category;
    rule.timed = true;
    const bool isCombined = combined();
    QStringList ownTypes;
    for (const QString &command : commands) {
        const auto found = typesOfCommand.find(command);
        if (found != typesOfCommand.end())
            ownTypes += found->second;
    }
    rule.value = [commands, isCombined, measure](const RepeatResult &repeat) -> std::optional<double> {
        CommandStat sum;
        if (isCombined) {
            sum = commandSum(repeat.timing.byCommand, commands);
        } else {
            for (const auto &[name, memory] : repeat.byType) {
                if (memory.status == TypeStatus::Ok && memory.timing) {
                    const CommandStat part = commandSum(memory.timing->byCommand, commands);
                    sum.calls += part.calls;
                    sum.usec += part.usec;
                }
            }
        }
        // No measurable time yet (a few sub-microsecond calls) is no figure, not a zero.
        if (sum.calls <= 0 || sum.usec <= 0)
            return std::nullopt;
        return measure == Measure::Calls ? double(sum.calls) : sum.usecPerCall();
    };
    rule.unfinished = [isCombined, ownTypes](const RepeatResult &repeat) {
        return isCombined ? repeat.unfinishedTimedPass : ownTypes.contains(repeat.unfinishedType);
    };
    rule.loss = [isCombined, ownTypes](const RepeatResult &repeat) {
        return isCombined ? repeat.loss : lossOfTypes(repeat, ownTypes);
    };
    if (commands.size() != 1)
        return rule;
    // Timed alone, a command whose every pattern is refused for another of its commands was
    // never sent: not run, not unsupported (Valkey 8.x knows HSET; hset-hexpire needs HEXPIRE).
    rule.notRun = [this, isCombined, ownTypes, command = commands.front()](const ServerRun &run) -> QString {
        if (isCombined || ownTypes.isEmpty())
            return QString();
        QStringList refusedTypes;
        for (const QString &type : ownTypes) {
            // Not run only when the server named another command as the one it does not know.
            const QString unknown = unknownCommandOf(unsupportedText(run, type));
            if (unknown.isEmpty() || unknown.compare(command, Qt::CaseInsensitive) == 0)
                return QString();
            refusedTypes << type;
        }
        // Said without parentheses: the chart puts the server's name after it in its own.
        return QStringLiteral("not run: %1 %2 unsupported")
            .arg(refusedTypes.join(QStringLiteral(", ")), refusedTypes.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    };
    rule.unsupported = [this, isCombined, ownTypes, command = commands.front()](const ServerRun &run) -> QString {
        if (!isCombined) {
            // Timed alone: a command is this server's only through the types that ran it.
            QString text;
            for (const QString &type : ownTypes) {
                const QString refused = unsupportedText(run, type);
                if (refused.isEmpty())
                    return QString();
                if (text.isEmpty())
                    text = QStringLiteral("%1 is unsupported: %2").arg(type, refused);
            }
            return text;
        }
        const std::map<QString, long long> unknown = unsupportedCommandsOf(run);
        if (const auto found = unknown.find(command.toUpper()); found != unknown.end())
            return QStringLiteral("this server does not know %1 (%2 commands got \"unknown command\")")
                .arg(found->first, QLocale(QLocale::English).toString(found->second));
        for (const RepeatResult &repeat : run.repeats) {
            if (repeat.timing.byCommand.count(command))
                return QString();
        }
        for (const QString &type : types) {
            if (const QString refused = unsupportedText(run, type); !refused.isEmpty())
                return QStringLiteral("%1 is unsupported: %2").arg(type, refused);
        }
        return QString();
    };
    return rule;
}

bool FiguresData::anyComparedServerRefused() const
{
    if (refusedCache)
        return *refusedCache;
    refusedCache = false;
    for (const QString &id : comparedIds()) {
        for (const QString &type : types) {
            if (!unsupportedText(*server(id).run, type).isEmpty())
                refusedCache = true;
        }
    }
    return *refusedCache;
}

QStringList FiguresData::commonTypes() const
{
    if (commonTypesCache)
        return *commonTypesCache;
    const QStringList compared = comparedIds();
    QStringList &common = commonTypesCache.emplace();
    if (compared.isEmpty())
        return common;
    for (const QString &type : types) {
        const FigureRule rule = typeRule(type, Measure::BytesPerKey);
        const bool everywhere = std::all_of(compared.begin(), compared.end(), [&](const QString &id) {
            return figureOf(server(id), rule).settled();
        });
        if (everywhere)
            common << type;
    }
    return common;
}

QString FiguresData::scopeOf(const QStringList &common) const
{
    if (common.size() == types.size())
        return QString();
    const QString noun = bundle.workload.categoryNoun;
    if (common.size() == 1)
        return QStringLiteral("over %1, the %2 every server supports").arg(common.front(), noun);
    if (common.size() <= 3)
        return QStringLiteral("over %1, the %2s every server supports").arg(joinedList(common), noun);
    return QStringLiteral("over %1 of %2 %3s, the ones every server supports").arg(common.size()).arg(types.size()).arg(noun);
}

std::optional<FigureRule> FiguresData::memoryTotal(Measure measure, QString &note) const
{
    FigureRule rule;
    const QString noun = bundle.workload.categoryNoun;
    // A workload of attributes totals "All attributes"; one of patterns, "All patterns".
    const QString label = noun == QLatin1String("pattern") ? QStringLiteral("All patterns") : QStringLiteral("All attributes");
    rule.category = {QStringLiteral("all"), label, true, QString(), {}, CategoryKind::Overall, QString()};
    rule.unsupported = [](const ServerRun &) { return QString(); };
    if (combined() && measure != Measure::MemoryUsageBytesPerKey && !anyComparedServerRefused()) {
        rule.value = [measure](const RepeatResult &repeat) -> std::optional<double> {
            if (repeat.keys <= 0)
                return std::nullopt;
            return measure == Measure::Keys ? double(repeat.keys) : repeat.bytesPerKey();
        };
        rule.unfinished = [](const RepeatResult &repeat) { return repeat.unfinishedTimedPass; };
        if (measure != Measure::Keys) {
            rule.loss = [](const RepeatResult &repeat) { return repeat.loss; };
            rule.impossible = impossibleOfCombinedPass;
        }
        return rule;
    }
    // Types timed alone store the same keys each their own way, one after the other: an average
    // over them is a state no server ever held (hash-ttl read "All patterns 322.7").
    if (bundle.workload.typesTimedAlone && types.size() > 1) {
        note = QStringLiteral("No total: each %1 stores the same keys its own way and is measured on its own.")
                   .arg(noun);
        return std::nullopt;
    }
    const QStringList common = commonTypes();
    if (common.size() < 2 && !(common.size() == 1 && types.size() == 1)) {
        note = common.isEmpty() ? QStringLiteral("No total: no %1 ran on every server.").arg(noun)
                                : QStringLiteral("No total: only %1 ran on every server.").arg(common.front());
        return std::nullopt;
    }
    rule.category.scope = scopeOf(common);
    rule.category.over = rule.category.scope.isEmpty() ? QStringList() : common;
    // Key-weighted over the common types, each measured on its own.
    rule.value = [common, measure](const RepeatResult &repeat) -> std::optional<double> {
        double bytes = 0;
        long long keys = 0;
        for (const QString &type : common) {
            const TypeMemory *memory = okType(repeat, type);
            if (!memory || memory->keys <= 0)
                return std::nullopt;
            bytes += measure == Measure::MemoryUsageBytesPerKey ? memory->memoryUsageBytesPerKey * double(memory->keys)
                                                                : double(memory->usedMemoryDelta);
            keys += memory->keys;
        }
        return measure == Measure::Keys ? double(keys) : bytes / double(keys);
    };
    rule.unfinished = [common](const RepeatResult &repeat) { return common.contains(repeat.unfinishedType); };
    if (measure != Measure::Keys) {
        rule.loss = [common](const RepeatResult &repeat) { return lossOfTypes(repeat, common); };
        rule.impossible = [common](const RepeatResult &repeat) { return impossibleOfTypes(repeat, common); };
    }
    return rule;
}

std::optional<FigureRule> FiguresData::timeTotal(Measure measure, const TotalLabel &label, int minimumTypes, QString &note) const
{
    FigureRule rule;
    rule.category = {QStringLiteral("all"), label.whole, true, QString(), {}, CategoryKind::Overall, QString()};
    rule.timed = true;
    rule.unsupported = [](const ServerRun &) { return QString(); };
    if (combined()) {
        if (anyComparedServerRefused()) {
            note = QStringLiteral("No time total: a server refused some of the commands of the timed pass, so its "
                                  "total would cover other commands than the others'.");
            return std::nullopt;
        }
        rule.unfinished = [](const RepeatResult &repeat) { return repeat.unfinishedTimedPass; };
        rule.loss = [](const RepeatResult &repeat) { return repeat.loss; };
        const QStringList excluded = excludedCommands();
        if (excluded.isEmpty()) {
            rule.value = [measure](const RepeatResult &repeat) { return timingFigure(repeat.timing, measure); };
            return rule;
        }
        rule.category.scope = exclusionScope();
        rule.value = [excluded, measure](const RepeatResult &repeat) { return keptTimingFigure(repeat, excluded, measure); };
        return rule;
    }
    if (measure == Measure::LatencyP50Usec || measure == Measure::LatencyP99Usec) {
        note = QStringLiteral("Latency is measured for each %1 on its own.").arg(bundle.workload.categoryNoun);
        return std::nullopt;
    }
    const QStringList common = commonTypes();
    if (common.size() < minimumTypes || common.isEmpty()) {
        note = common.isEmpty() ? QStringLiteral("No total: nothing ran on every server.")
                                : QStringLiteral("No total: only %1 ran on every server.").arg(common.front());
        return std::nullopt;
    }
    rule.category.scope = scopeOf(common);
    rule.category.over = rule.category.scope.isEmpty() ? QStringList() : common;
    // Over part of the work, the label says which ("Events of set-ex", not "All events").
    if (!rule.category.over.isEmpty() && !label.part.isEmpty())
        rule.category.label = label.part.arg(joinedList(common));
    rule.value = [common, measure](const RepeatResult &repeat) -> std::optional<double> {
        const auto timings = timingsOf(repeat, common);
        return timings ? timingsFigure(*timings, measure) : std::nullopt;
    };
    rule.unfinished = [common](const RepeatResult &repeat) { return common.contains(repeat.unfinishedType); };
    rule.loss = [common](const RepeatResult &repeat) { return lossOfTypes(repeat, common); };
    return rule;
}

QStringList FiguresData::commandsByCalls() const
{
    std::map<QString, long long> calls;
    auto add = [&calls](const std::map<QString, CommandStat> &byCommand) {
        for (const auto &[name, stat] : byCommand)
            calls[name] += stat.calls;
    };
    for (const QString &id : shownIds) {
        for (const RepeatResult *repeat : server(id).sources()) {
            add(repeat->timing.byCommand);
            for (const auto &[type, memory] : repeat->byType) {
                if (memory.status == TypeStatus::Ok && memory.timing)
                    add(memory.timing->byCommand);
            }
        }
    }
    std::vector<std::pair<QString, long long>> ranked(calls.begin(), calls.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    // Commands only an unsupported pattern ran still get a row, marked unsupported there.
    for (const auto &entry : typesOfCommand) {
        if (!calls.count(entry.first))
            ranked.push_back({entry.first, 0});
    }
    QStringList names;
    for (const auto &entry : ranked)
        names << entry.first;
    return names;
}

namespace {

FigureTable memoryTable(const FiguresData &data, Measure measure)
{
    QString note;
    std::vector<FigureRule> rules;
    if (std::optional<FigureRule> total = data.memoryTotal(measure, note))
        rules.push_back(*total);
    for (const QString &type : data.types)
        rules.push_back(data.typeRule(type, measure));
    return data.tableOf(measure, rules, note);
}

} // namespace

FigureTable Figures::memory() const
{
    return d->cachedTable(QStringLiteral("memory"), [this] { return memoryTable(*d, Measure::BytesPerKey); });
}

FigureTable Figures::memoryUsage() const
{
    return d->cachedTable(QStringLiteral("memory usage"), [this] { return memoryTable(*d, Measure::MemoryUsageBytesPerKey); });
}

FigureTable Figures::keys() const
{
    return d->cachedTable(QStringLiteral("keys"), [this] { return memoryTable(*d, Measure::Keys); });
}

QString Figures::referenceType() const
{
    const QString reference = d->bundle.workload.referenceType;
    return d->types.contains(reference) ? reference : QString();
}

FigureTable Figures::referenceRatios() const
{
    return d->cachedTable(QStringLiteral("reference ratios"), [this] {
        const QString reference = referenceType();
        std::vector<FigureRule> rules;
        for (const QString &type : d->types) {
            if (reference.isEmpty() || type == reference)
                continue;
            FigureRule rule = d->typeRule(type, Measure::BytesPerKey);
            rule.value = [type, reference](const RepeatResult &repeat) -> std::optional<double> {
                const TypeMemory *memory = okType(repeat, type);
                const TypeMemory *base = okType(repeat, reference);
                if (!memory || !base || memory->keys <= 0 || base->keys <= 0 || base->bytesPerKey() <= 0)
                    return std::nullopt;
                return memory->bytesPerKey() / base->bytesPerKey();
            };
            rule.unfinished = [type, reference](const RepeatResult &repeat) {
                return repeat.unfinishedType == type || repeat.unfinishedType == reference;
            };
            rule.unsupported = [type, reference](const ServerRun &run) {
                const QString refused = FiguresData::unsupportedText(run, type);
                return refused.isEmpty() ? FiguresData::unsupportedText(run, reference) : refused;
            };
            rule.loss = [type, reference](const RepeatResult &repeat) { return lossOfTypes(repeat, {type, reference}); };
            rule.impossible = [type, reference](const RepeatResult &repeat) { return impossibleOfTypes(repeat, {type, reference}); };
            rules.push_back(rule);
        }
        return d->tableOf(Measure::RatioToReference, rules);
    });
}
