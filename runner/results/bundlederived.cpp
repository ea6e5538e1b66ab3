// The bundle's derived sections ("memory", "commands", "client", "why", "why_time", "verdicts", "self_check", "data_check",
// "pass_verdicts", "release_note_candidates"),
// written from the figures layer for scripts (docs/BUNDLE.md). Loading ignores them.

#include "figures.h"
#include "jsonsupport.h"
#include "memoryexplanation.h"
#include "releasenotesjson.h"
#include "timeexplanation.h"

#include <algorithm>
#include <cmath>

namespace {

Json spreadToJson(const Spread &spread)
{
    Json object = {{"median", finiteOrNull(spread.median)}, {"min", finiteOrNull(spread.min)}, {"max", finiteOrNull(spread.max)}, {"n", spread.n}};
    if (spread.hasInterval()) {
        object["ci_low"] = finiteOrNull(spread.ciLow);
        object["ci_high"] = finiteOrNull(spread.ciHigh);
    }
    return object;
}

Json valueOf(const Figure &figure)
{
    return figure.hasValue() ? finiteOrNull(figure.value) : Json(nullptr);
}

// One table's column for `id`: "overall" for its total, then each other category by id.
struct Column {
    Json overall = nullptr;
    Json byCategory = Json::object();
    Json state = Json::object();
    Json spread = Json::object();
    QString scope;
};

Column columnOf(const FigureTable &table, const QString &id)
{
    Column column;
    Json states = Json::object();
    for (size_t c = 0; c < table.categories.size(); ++c) {
        const FigureCategory &category = table.categories[c];
        const Figure &figure = table.at(int(c), id);
        const bool overall = category.isOverall();
        if (figure.state == FigureState::Absent && !overall)
            continue;
        if (overall) {
            column.overall = valueOf(figure);
            column.state["overall"] = figureStateName(figure.state);
            column.scope = category.scope;
            if (figure.spread.n > 0)
                column.spread["overall"] = spreadToJson(figure.spread);
        } else {
            column.byCategory[category.id.toStdString()] = valueOf(figure);
            states[category.id.toStdString()] = figureStateName(figure.state);
            if (figure.spread.n > 0)
                column.spread[category.id.toStdString()] = spreadToJson(figure.spread);
        }
    }
    column.state["by_category"] = states;
    return column;
}

Json memoryOf(const Figures &figures, const FigureTable &memory, const FigureTable &usage, const FigureTable &keys,
              const QString &id)
{
    const Column bytes = columnOf(memory, id);
    const Column usageColumn = columnOf(usage, id);
    const Column keyColumn = columnOf(keys, id);
    Json unsupported = Json::object(), encodings = Json::object(), differs = Json::object();
    for (size_t c = 0; c < memory.categories.size(); ++c) {
        const QString &type = memory.categories[c].id;
        const Figure &figure = memory.at(int(c), id);
        if (figure.state == FigureState::Unsupported)
            unsupported[type.toStdString()] = figure.note;
        if (const std::optional<TypeEncodings> found = figures.encodings(type, id)) {
            encodings[type.toStdString()] = toJsonObject(found->encodings);
            differs[type.toStdString()] = found->memoryUsageDiffers;
        }
    }
    Json json = {
        {"bytes_per_key", {{"overall", bytes.overall}, {"by_type", bytes.byCategory}}},
        {"state", {{"overall", bytes.state.value("overall", Json("absent"))}, {"by_type", bytes.state["by_category"]}}},
        {"keys", {{"overall", keyColumn.overall}, {"by_type", keyColumn.byCategory}}},
        {"memory_usage",
         {{"bytes_per_key", {{"overall", usageColumn.overall}, {"by_type", usageColumn.byCategory}}},
          {"differs_by_more_than_10_percent", differs}}},
        {"encodings", encodings},
        {"unsupported", unsupported},
    };
    if (!bytes.scope.isEmpty())
        json["overall_scope"] = bytes.scope;
    if (figures.bundle().repeats > 1)
        json["spread"] = {{"overall", bytes.spread.value("overall", Json(nullptr))}, {"by_type", bytes.spread}};
    return json;
}

Json commandsOf(const Figures &figures, const FigureTable &times, const FigureTable &calls, const FigureTable &perEvent,
                const QString &id)
{
    const Column usec = columnOf(times, id);
    const Column callColumn = columnOf(calls, id);
    const Column event = columnOf(perEvent, id);
    Json json = {
        {"usec_per_call", {{"overall", usec.overall}, {"by_command", usec.byCategory}}},
        {"usec_per_event", event.overall},
        {"calls", callColumn.byCategory},
        {"state", {{"overall", usec.state.value("overall", Json("absent"))},
                   {"by_command", usec.state["by_category"]},
                   {"usec_per_event", event.state.value("overall", Json("absent"))}}},
    };
    if (!usec.scope.isEmpty())
        json["overall_scope"] = usec.scope;
    if (!event.scope.isEmpty())
        json["usec_per_event_scope"] = event.scope;
    if (figures.bundle().repeats > 1) {
        Json byCommand = usec.spread;
        byCommand.erase("overall");
        json["spread"] = {{"usec_per_call", {{"overall", usec.spread.value("overall", Json(nullptr))}, {"by_command", byCommand}}},
                          {"usec_per_event", event.spread.value("overall", Json(nullptr))}};
    }
    return json;
}

Json overallFiguresOf(const Figures &figures, const std::vector<std::pair<const char *, FigureTable>> &tables, const QString &id)
{
    Json client = Json::object(), spreads = Json::object();
    for (const auto &[name, table] : tables) {
        const Column column = columnOf(table, id);
        client[name] = column.overall;
        if (column.spread.contains("overall"))
            spreads[name] = column.spread["overall"];
    }
    if (figures.bundle().repeats > 1)
        client["spread"] = spreads;
    return client;
}

// "why": per memory category, each server's parts and allocations per key, and the sentences.
Json whyOf(const Figures &figures, const FigureTable &memory)
{
    Json why = Json::object();
    for (const FigureCategory &category : memory.categories) {
        const MemoryExplanation explanation = figures.explainMemory(category.id);
        if (explanation.servers.empty())
            continue;
        Json servers = Json::object();
        for (const MemoryBreakdown &server : explanation.servers) {
            Json parts = Json::object();
            for (const MemoryPart &part : server.parts)
                parts[part.id.toStdString()] = finiteOrNull(part.bytesPerKey);
            Json classes = Json::object();
            for (const SizeClassShare &share : server.sizeClasses)
                classes[std::to_string(share.bytes)] = finiteOrNull(share.perKey);
            Json entry = {{"bytes_per_key", finiteOrNull(server.bytesPerKey)}, {"parts", parts}};
            // Of each part, the allocator's rounding of its table entries (figureswhyrounding.h).
            Json rounding = Json::object();
            for (const MemoryPart &part : server.parts) {
                if (part.allocatorRounding != 0)
                    rounding[part.id.toStdString()] = finiteOrNull(part.allocatorRounding);
            }
            if (!rounding.empty()) {
                entry["allocator_rounding_per_key"] = rounding;
                entry["rounding"] = server.rounding;
            }
            if (server.hasSizeClasses) {
                entry["allocations_per_key"] = finiteOrNull(server.allocationsPerKey);
                entry["size_classes_per_key"] = classes;
            }
            if (!server.unavailable.isEmpty())
                entry["unavailable"] = Json(std::vector<QString>(server.unavailable.begin(), server.unavailable.end()));
            servers[server.serverId.toStdString()] = entry;
        }
        Json json = {{"servers", servers}};
        for (const auto &[key, text] : {std::pair<const char *, QString>{"sentence", explanation.sentence},
                                        {"allocations", explanation.allocations},
                                        {"against_reference", explanation.againstReference}}) {
            if (!text.isEmpty())
                json[key] = text;
        }
        why[category.id.toStdString()] = json;
    }
    return why;
}

// "profile": each profiled server's share of samples per category, its samples and symbol
// status, or why it has none; and the sentence. Null without --profile.
Json profileOf(const Figures &figures)
{
    const std::vector<ServerRun> &runs = figures.bundle().servers;
    if (std::all_of(runs.begin(), runs.end(), [](const ServerRun &run) { return run.profile.empty(); }))
        return nullptr;   // no table to compute
    const FigureTable shares = figures.profileShares();
    Json servers = Json::object();
    for (const QString &id : shares.servers) {
        const ServerRun *run = figures.bundle().server(id);
        if (!run || run->profile.empty())
            continue;
        if (!run->profile.recorded()) {
            servers[id.toStdString()] = {{"unavailable", run->profile.unavailable}};
            continue;
        }
        Json percent = Json::object();
        for (size_t c = 0; c < shares.categories.size(); ++c)
            percent[shares.categories[c].id.toStdString()] = shares.at(int(c), id).value;
        servers[id.toStdString()] = {{"percent_of_samples", percent},
                                     {"samples", run->profile.totalSamples},
                                     {"symbol_status", run->profile.symbolStatus()}};
    }
    if (servers.empty())
        return nullptr;
    return {{"servers", servers}, {"sentence", figures.profileSentence()}};
}

// "why_time": each server's time parts per command (null where absent, and why), its commands
// per loop iteration, and the sentences (timeexplanation.h).
Json whyTimeOf(const Figures &figures)
{
    const TimeExplanation explanation = figures.explainTime();
    Json servers = Json::object();
    for (const QString &id : explanation.parts.servers) {
        Json parts = Json::object(), states = Json::object(), absent = Json::object();
        for (size_t c = 0; c < explanation.parts.categories.size(); ++c) {
            const std::string part = explanation.parts.categories[c].id.toStdString();
            const Figure &figure = explanation.parts.at(int(c), id);
            parts[part] = valueOf(figure);
            states[part] = figureStateName(figure.state);
            if (!figure.hasValue() && !figure.note.isEmpty())
                absent[part] = figure.note;
        }
        Json entry = {{"usec_per_command", parts}, {"state", states}};
        if (!absent.empty())
            entry["why_absent"] = absent;
        if (!explanation.commandsPerCycle.categories.empty())
            entry["commands_per_loop_iteration"] = valueOf(explanation.commandsPerCycle.at(0, id));
        servers[id.toStdString()] = entry;
    }
    Json json = {{"servers", servers}};
    for (const auto &[key, text] : {std::pair<const char *, QString>{"from", explanation.fromId},
                                    {"to", explanation.toId},
                                    {"sentence", explanation.sentence},
                                    {"unchanged", explanation.unchanged},
                                    {"missing", explanation.missing}}) {
        if (!text.isEmpty())
            json[key] = text;
    }
    return json;
}

// The --self-check's result: null without a self-check series or before both have settled times.
Json selfCheckOf(const Figures &figures)
{
    const std::optional<SelfCheck> check = figures.selfCheck();
    if (!check)
        return nullptr;
    const std::optional<double> floor = check->floorPercent();
    return {{"server", check->serverId},
            {"of", check->ofId},
            {"repeats", check->test.repeats},
            {"change_percent", finiteOrNull(check->test.percent())},
            {"floor_percent", floor ? finiteOrNull(*floor) : Json(nullptr)},
            {"resolved", check->test.resolved},
            {"sentence", figures.selfCheckSentence()}};
}

// Each timed pass's bottleneck verdict and the figures that chose it (figurespassverdict.cpp);
// a pass whose load was not read (bundles before Versus read it) is left out.
Json passVerdictsOf(const Figures &figures)
{
    Json passes = Json::array();
    for (const PassVerdict &verdict : figures.passVerdicts()) {
        if (verdict.bound == PassBound::Unknown)
            continue;
        passes.push_back({{"server", verdict.serverId},
                          {"repeat", verdict.repeat},
                          {"pass", verdict.pass},
                          {"verdict", passBoundName(verdict.bound)},
                          {"why", verdict.why}});
    }
    return passes;
}

} // namespace

Json derivedSections(const Figures &figures)
{
    const FigureTable memory = figures.memory(), usage = figures.memoryUsage(), keys = figures.keys();
    const FigureTable times = figures.allCommandTimes(), calls = figures.commandCalls(), perEvent = figures.perEvent();
    const std::vector<std::pair<const char *, FigureTable>> client = {
        {"events_per_second", figures.client(Measure::EventsPerSecond)},
        {"commands_per_second", figures.client(Measure::CommandsPerSecond)},
        {"latency_p50_usec", figures.client(Measure::LatencyP50Usec)},
        {"latency_p99_usec", figures.client(Measure::LatencyP99Usec)},
    };
    // The server's own time per command in all, beside commandstats' time inside the commands.
    const std::vector<std::pair<const char *, FigureTable>> serverTime = {
        {"main_thread_cpu_usec_per_command", figures.serverTime(Measure::MainThreadCpuPerCall)},
        {"eventloop_usec_per_command", figures.serverTime(Measure::EventLoopPerCall)},
        {"main_thread_busy_percent", figures.serverTime(Measure::MainThreadBusyPercent)},
    };
    Json memoryJson = Json::object(), commandsJson = Json::object(), clientJson = Json::object(), verdicts = Json::object();
    Json serverTimeJson = Json::object();
    for (const QString &id : figures.serverIds()) {
        const ServerSummary &summary = figures.summary(id);
        verdicts[id.toStdString()] = summary.statusText();
        if (!summary.hasFigures())
            continue;   // a failed server has no figures; servers[].status and error say why
        memoryJson[id.toStdString()] = memoryOf(figures, memory, usage, keys, id);
        commandsJson[id.toStdString()] = commandsOf(figures, times, calls, perEvent, id);
        clientJson[id.toStdString()] = overallFiguresOf(figures, client, id);
        serverTimeJson[id.toStdString()] = overallFiguresOf(figures, serverTime, id);
    }
    const QStringList problems = figures.dataProblems();
    Json derived = {
        {"memory", memoryJson},
        {"commands", commandsJson},
        {"client", clientJson},
        {"server_time", serverTimeJson},
        {"why", whyOf(figures, memory)},
        {"why_time", whyTimeOf(figures)},
        {"profile", profileOf(figures)},
        {"verdicts", verdicts},
        {"self_check", selfCheckOf(figures)},
        {"data_check", {{"consistent", problems.isEmpty()}, {"mismatches", Json(std::vector<QString>(problems.begin(), problems.end()))}}},
    };
    if (Json passes = passVerdictsOf(figures); !passes.empty())
        derived["pass_verdicts"] = std::move(passes);
    if (Json candidates = releaseNoteCandidatesToJson(figures); !candidates.empty())
        derived["release_note_candidates"] = std::move(candidates);
    return derived;
}
