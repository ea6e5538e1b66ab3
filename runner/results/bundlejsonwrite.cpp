// Writing a results bundle: the measurements (the source of truth), then sections derived by
// the figures layer for scripts. Loading reads only the first part.

#include "atomicfile.h"
#include "bundlejson.h"
#include "accountingjson.h"
#include "buildoriginjson.h"
#include "figures.h"
#include "jsonsupport.h"
#include "presentation.h"
#include "releasenotesjson.h"
#include "servertimejson.h"
#include "profilejson.h"
#include "tailsjson.h"

#include <cmath>

QString typeStatusName(TypeStatus status)
{
    return status == TypeStatus::Ok ? QStringLiteral("ok") : QStringLiteral("unsupported");
}

QString repeatStatusName(RepeatStatus status)
{
    switch (status) {
    case RepeatStatus::Ok: return QStringLiteral("ok");
    case RepeatStatus::Failed: return QStringLiteral("failed");
    case RepeatStatus::Incomplete: return QStringLiteral("incomplete");
    }
    return {};
}

QString runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok: return QStringLiteral("ok");
    case RunStatus::Failed: return QStringLiteral("failed");
    case RunStatus::Incomplete: return QStringLiteral("incomplete");
    }
    return {};
}

// events_per_batch and clients, where they were recorded (bundles before them have neither).
static void addReplayShape(Json &json, int eventsPerBatch, int clients)
{
    if (eventsPerBatch > 0)
        json["events_per_batch"] = eventsPerBatch;
    if (clients > 0)
        json["clients"] = clients;
}

QString scheduleName(Schedule schedule)
{
    return schedule == Schedule::Fair ? QStringLiteral("fair") : QStringLiteral("concurrent");
}

namespace {

Json statsToJson(const std::map<QString, CommandStat> &stats)
{
    Json object = Json::object();
    for (const auto &[name, stat] : stats)
        object[name.toStdString()] = {{"calls", stat.calls}, {"usec", stat.usec}};
    return object;
}

Json nodesToJson(const std::vector<NodeMemory> &nodes)
{
    Json array = Json::array();
    for (const NodeMemory &node : nodes)
        array.push_back({{"slots", node.slotRanges}, {"keys", node.keys}, {"used_memory_delta", node.usedMemoryDelta}});
    return array;
}

// A pass's evicted keys and writes refused as out of memory, each written only when not 0.
void writeLoss(const DataLoss &loss, Json &json)
{
    if (loss.evictedKeys > 0)
        json["evicted_keys"] = loss.evictedKeys;
    if (loss.refusedWrites > 0)
        json["refused_out_of_memory"] = loss.refusedWrites;
}

Json typeMemoryToJson(const TypeMemory &type)
{
    Json json = {
        {"status", typeStatusName(type.status)},
        {"error", type.error},
        {"keys", type.keys},
        {"used_memory_delta", type.usedMemoryDelta},
        {"bytes_per_key", finiteOrNull(type.bytesPerKey())},   // for scripts; not read back
        {"memory_usage_bytes_per_key", finiteOrNull(type.memoryUsageBytesPerKey)},
        {"encodings", toJsonObject(type.encodings)},
        {"commands", type.timing ? statsToJson(type.timing->byCommand) : Json::object()},
    };
    if (type.timing) {
        json["events"] = type.timing->events;
        json["command_count"] = type.timing->commands;
        json["seconds"] = finiteOrNull(type.timing->seconds);
        json["latency_p50_usec"] = finiteOrNull(type.timing->latencyP50Usec);
        json["latency_p99_usec"] = finiteOrNull(type.timing->latencyP99Usec);
        if (type.timing->serverTime)
            json["server_time"] = serverTimeToJson(*type.timing->serverTime);
        if (type.timing->load)
            json["load"] = passLoadToJson(*type.timing->load);
        if (!type.timing->tails.empty())
            json["server_tails"] = tailsToJson(type.timing->tails);
    }
    if (!type.nodes.empty())
        json["nodes"] = nodesToJson(type.nodes);
    if (type.accounting)
        json["accounting"] = accountingToJson(*type.accounting);
    writeLoss(type.loss, json);
    return json;
}

Json repeatToJson(const RepeatResult &repeat)
{
    Json byType = Json::object();
    for (const auto &[name, type] : repeat.byType)
        byType[name.toStdString()] = typeMemoryToJson(type);
    const PassTiming &timing = repeat.timing;
    Json json = {
        {"repeat", repeat.repeat},
        {"status", repeatStatusName(repeat.status)},
        {"error", repeat.error},
        {"keys", repeat.keys},
        {"used_memory_delta", repeat.usedMemoryDelta},
        {"bytes_per_key", finiteOrNull(repeat.bytesPerKey())},   // for scripts; not read back
        {"by_type", byType},
        {"by_command", statsToJson(timing.byCommand)},
        {"events", timing.events},
        {"commands", timing.commands},
        {"seconds", finiteOrNull(timing.seconds)},
        {"events_per_second", finiteOrNull(timing.eventsPerSecond())},
        {"commands_per_second", finiteOrNull(timing.commandsPerSecond())},
        {"latency_p50_usec", finiteOrNull(timing.latencyP50Usec)},
        {"latency_p99_usec", finiteOrNull(timing.latencyP99Usec)},
        {"errors", toJsonObject(repeat.errors)},
    };
    if (!repeat.nodes.empty())
        json["nodes"] = nodesToJson(repeat.nodes);
    if (repeat.accounting)
        json["accounting"] = accountingToJson(*repeat.accounting);
    writeLoss(repeat.loss, json);
    if (timing.serverTime)
        json["server_time"] = serverTimeToJson(*timing.serverTime);
    if (timing.load)
        json["load"] = passLoadToJson(*timing.load);
    if (!timing.tails.empty())
        json["server_tails"] = tailsToJson(timing.tails);
    if (!repeat.firstError.isEmpty())
        json["first_error"] = repeat.firstError;
    if (!repeat.refused.empty())
        json["refused"] = toJsonObject(repeat.refused);
    if (!repeat.unsupportedCommands.empty())
        json["unsupported_commands"] = toJsonObject(repeat.unsupportedCommands);
    if (!repeat.countedNotSent.empty())
        json["counted_not_sent"] = toJsonObject(repeat.countedNotSent);
    if (repeat.redirects.any()) {
        Json redirects = Json::object();
        for (const auto &[kind, count] : {std::pair<const char *, long long>{"MOVED", repeat.redirects.moved},
                                          {"ASK", repeat.redirects.asked},
                                          {"TRYAGAIN", repeat.redirects.retried}}) {
            if (count > 0)
                redirects[kind] = count;
        }
        json["redirects"] = redirects;
    }
    if (repeat.unfinishedTimedPass)
        json["unfinished_timed_pass"] = true;
    if (!repeat.unfinishedType.isEmpty())
        json["unfinished_type"] = repeat.unfinishedType;
    return json;
}

// Where the binary came from and what its allocator said: absent in bundles before they were
// recorded, so those still read and write back byte for byte.
void writeBuild(Json &json, const ServerRun &run)
{
    if (const Json build = buildOriginToJson(run.origin); !build.empty())
        json["build"] = build;
    const AllocatorFacts &facts = run.allocatorFacts;
    if (!facts.memAllocator.isEmpty())
        json["mem_allocator"] = facts.memAllocator;
    if (facts.quantumBytes > 0)
        json["jemalloc_quantum"] = facts.quantumBytes;
    if (!facts.quantumProblem.isEmpty())
        json["jemalloc_quantum_problem"] = facts.quantumProblem;
}

Json serverToJson(const ServerRun &run)
{
    Json json = {
        {"id", run.id},
        {"product", run.product},
        {"version", run.version},
        {"build_id", run.buildId},
        {"allocator", run.allocator},
        {"binary_sha256", run.binarySha256},
        {"status", runStatusName(run.status)},
        {"error", run.error},
        {"log_tail", Json(std::vector<QString>(run.logTail.begin(), run.logTail.end()))},
        {"endpoint", run.endpoint},
    };
    // Absent for a standalone server, as in bundles before cluster topologies.
    if (run.topology.isCluster())
        json["topology"] = run.topology.text();
    // Absent for every series but the --self-check one.
    if (run.selfCheck)
        json["self_check"] = true;
    // Absent in bundles of runs before the replay user, and for servers that never started.
    if (!run.replayAccess.isEmpty())
        json["replay_access"] = run.replayAccess;
    if (!run.transport.isEmpty())
        json["transport"] = run.transport;
    if (run.limits.any()) {
        Json limits = Json::object();
        const std::pair<const char *, const QString *> fields[] = {{"settings_unread", &run.limits.settingsUnread},
                                                                   {"latency_tracking_left_on", &run.limits.trackingLeftOn},
                                                                   {"stats_not_reset", &run.limits.statsNotReset}};
        for (const auto &[key, text] : fields) {
            if (!text->isEmpty())
                limits[key] = *text;
        }
        json["limits"] = limits;
    }
    if (!run.bundleName.isEmpty())
        json["bundle"] = run.bundleName;
    // Absent without --profile, as in bundles from before it.
    if (!run.profile.empty())
        json["profile"] = profileToJson(run.profile);
    if (run.releaseNotes.atHand())
        json["release_notes"] = releaseNotesToJson(run.releaseNotes);
    if (!run.config.empty())
        json["config"] = toJsonObject(run.config);
    if (!run.configApplied.empty())
        json["config_applied"] = toJsonObject(run.configApplied);
    if (!run.commandKinds.empty()) {
        Json kinds = Json::object();
        for (const auto &[command, kind] : run.commandKinds)
            kinds[command.toStdString()] = kind == CommandKind::Write ? "write" : kind == CommandKind::Read ? "read" : "";
        json["command_kinds"] = kinds;
    }
    if (!run.configRefused.empty())
        json["config_refused"] = toJsonObject(run.configRefused);
    // Provenance read from the running server: absent for endpoints and older bundles.
    for (const auto &[key, value] : {std::pair{"git_sha", &run.gitSha}, {"executable_path", &run.executablePath},
                                     {"executable_sha256", &run.executableSha256}}) {
        if (!value->isEmpty())
            json[key] = *value;
    }
    writeBuild(json, run);
    return json;
}

Json workloadToJson(const WorkloadInfo &workload)
{
    Json json = {
        {"name", workload.name},
        {"source_file", workload.sourceFile},
        {"source_sha256", workload.sourceSha256},
        {"parameters", toJsonObject(workload.parameters)},
        {"events", workload.events},
        {"commands", workload.commands},
        {"types", Json(std::vector<QString>(workload.types.begin(), workload.types.end()))},
        {"types_timed_alone", workload.typesTimedAlone},
    };
    if (!workload.referenceType.isEmpty())
        json["reference_type"] = workload.referenceType;
    json["category_noun"] = workload.categoryNoun;
    if (!workload.commandGroups.empty()) {
        Json groups = Json::object();
        for (const auto &[name, commands] : workload.commandGroups)
            groups[name.toStdString()] = Json(std::vector<QString>(commands.begin(), commands.end()));
        json["command_groups"] = groups;
    }
    if (!workload.skipped.empty())
        json["skipped"] = toJsonObject(workload.skipped);
    if (!workload.namedCommands.isEmpty())
        json["named_commands"] = Json(std::vector<QString>(workload.namedCommands.begin(), workload.namedCommands.end()));
    return json;
}

Json machineToJson(const MachineInfo &machine)
{
    return {{"cpu_model", machine.cpuModel}, {"cores", machine.cores}, {"os", machine.os}, {"hostname", machine.hostname}};
}

// The servers and their repeats ("servers" and "runs"), in the given order.
void serversToJson(const std::vector<const ServerRun *> &ordered, Json &servers, Json &runs)
{
    servers = Json::array();
    runs = Json::object();
    for (const ServerRun *run : ordered) {
        servers.push_back(serverToJson(*run));
        Json repeats = Json::array();
        for (const RepeatResult &repeat : run->repeats)
            repeats.push_back(repeatToJson(repeat));
        runs[run->id.toStdString()] = repeats;
    }
}

// Every point of a sweep as its own run: workload, servers and repeats.
Json sweepToJson(const SweepResults &sweep)
{
    Json points = Json::array();
    for (const SweepPoint &point : sweep.points) {
        std::vector<const ServerRun *> ordered;
        for (const ServerRun &run : point.servers)
            ordered.push_back(&run);
        Json servers;
        Json runs;
        serversToJson(ordered, servers, runs);
        points.push_back({{"value", point.value}, {"complete", point.complete}, {"workload", workloadToJson(point.workload)},
                          {"servers", servers}, {"runs", runs}});
        if (point.eventsPerBatch > 0)
            points.back()["events_per_batch"] = point.eventsPerBatch;
    }
    return {{"parameter", sweep.parameter}, {"shown", sweep.shown}, {"points", points}};
}

Json comparedToJson(const std::vector<ComparedBundle> &compared)
{
    Json list = Json::array();
    for (const ComparedBundle &source : compared) {
        list.push_back({{"name", source.name},
                        {"created", source.created.toUTC().toString(Qt::ISODateWithMs)},
                        {"machine", machineToJson(source.machine)},
                        {"versus_version", source.versusVersion},
                        {"workload", workloadToJson(source.workload)},
                        {"schedule", scheduleName(source.schedule)},
                        {"repeats", source.repeats}});
        addReplayShape(list.back(), source.eventsPerBatch, source.clients);
    }
    return list;
}

} // namespace

// The derived sections (bundlederived.cpp).
Json derivedSections(const Figures &figures);

QByteArray bundleToJson(const ResultsBundle &bundle)
{
    return bundleToJson(bundle, Figures(bundle));
}

QByteArray bundleToJson(const ResultsBundle &bundle, const Figures &figures)
{
    std::vector<const ServerRun *> ordered;
    for (const QString &id : orderedServerIds(bundle))
        ordered.push_back(bundle.server(id));
    Json servers;
    Json runs;
    serversToJson(ordered, servers, runs);
    Json root = {
        {"schema", ResultsBundle::schema},
        {"created", bundle.created.toUTC().toString(Qt::ISODateWithMs)},
        {"machine", machineToJson(bundle.machine)},
        {"versus_version", bundle.versusVersion},
        {"complete", bundle.complete},
        {"workload", workloadToJson(bundle.workload)},
        {"schedule", scheduleName(bundle.schedule)},
        {"repeats", bundle.repeats},
    };
    addReplayShape(root, bundle.eventsPerBatch, bundle.clients);
    root["baseline"] = bundle.baseline;
    root["baseline_effective"] = figures.baselineId();
    root["servers"] = servers;
    if (!bundle.compared.empty())
        root["compared"] = comparedToJson(bundle.compared);
    const Json derived = derivedSections(figures);
    for (const auto &[key, value] : derived.items())
        root[key] = value;
    root["runs"] = runs;
    // A sweep keeps every point; the top level above is the shown one, for readers of one run.
    if (bundle.isSweep())
        root["sweep"] = sweepToJson(bundle.sweep);
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

Status saveBundle(const ResultsBundle &bundle, const QString &path)
{
    return writeFileAtomically(path, bundleToJson(bundle));
}

Status saveBundle(const ResultsBundle &bundle, const Figures &figures, const QString &path)
{
    return writeFileAtomically(path, bundleToJson(bundle, figures));
}
