// Reading a results bundle: nlohmann's from_json for every type of the model. Missing
// optional members keep their defaults; a member of the wrong type fails with its JSON path.

#include "bundlejson.h"
#include "accountingjson.h"
#include "servertimejson.h"
#include "profilejson.h"
#include "tailsjson.h"
#include "boundedfile.h"
#include "buildoriginjson.h"
#include "jsonsupport.h"
#include "messagetext.h"
#include "releasenotesjson.h"

#include <QFile>
#include <map>

namespace {

template <typename Enum, size_t N>
void enumFromJson(const Json &json, Enum &out, const std::pair<const char *, Enum> (&names)[N])
{
    const std::string text = json.get<std::string>();
    std::string known;
    for (const auto &[name, value] : names) {
        if (text == name) {
            out = value;
            return;
        }
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    failAtJson(json, "unknown value \"" + text + "\" (expected " + known + ")");
}

} // namespace

void from_json(const Json &json, TypeStatus &status)
{
    static const std::pair<const char *, TypeStatus> names[] = {{"ok", TypeStatus::Ok}, {"unsupported", TypeStatus::Unsupported}};
    enumFromJson(json, status, names);
}

void from_json(const Json &json, RepeatStatus &status)
{
    static const std::pair<const char *, RepeatStatus> names[] = {
        {"ok", RepeatStatus::Ok}, {"failed", RepeatStatus::Failed}, {"incomplete", RepeatStatus::Incomplete}};
    enumFromJson(json, status, names);
}

void from_json(const Json &json, RunStatus &status)
{
    static const std::pair<const char *, RunStatus> names[] = {
        {"ok", RunStatus::Ok}, {"failed", RunStatus::Failed}, {"incomplete", RunStatus::Incomplete}};
    enumFromJson(json, status, names);
}

void from_json(const Json &json, Schedule &schedule)
{
    static const std::pair<const char *, Schedule> names[] = {{"fair", Schedule::Fair}, {"concurrent", Schedule::Concurrent}};
    enumFromJson(json, schedule, names);
}

void from_json(const Json &json, CommandStat &stat)
{
    readOptional(json, "calls", stat.calls);
    readOptional(json, "usec", stat.usec);
}

void from_json(const Json &json, NodeMemory &node)
{
    readOptional(json, "slots", node.slotRanges);
    readOptional(json, "keys", node.keys);
    readOptional(json, "used_memory_delta", node.usedMemoryDelta);
}

// "evicted_keys" and "refused_out_of_memory" of one pass: counts, never below 0.
void readLoss(const Json &object, DataLoss &out)
{
    readOptional(object, "evicted_keys", out.evictedKeys);
    readOptional(object, "refused_out_of_memory", out.refusedWrites);
    if (out.evictedKeys < 0)
        failAtJson(object.at("evicted_keys"), "a count of evicted keys below 0");
    if (out.refusedWrites < 0)
        failAtJson(object.at("refused_out_of_memory"), "a count of refused writes below 0");
}

void from_json(const Json &json, TypeMemory &type)
{
    readOptional(json, "status", type.status);
    readOptional(json, "error", type.error);
    readOptional(json, "keys", type.keys);
    readOptional(json, "used_memory_delta", type.usedMemoryDelta);
    readOptional(json, "memory_usage_bytes_per_key", type.memoryUsageBytesPerKey);
    readOptional(json, "encodings", type.encodings);
    readOptional(json, "nodes", type.nodes);
    readAccounting(json, type.accounting);
    readLoss(json, type.loss);
    // A type timed on its own: its commandstats under "commands", its pace beside them.
    const auto commands = json.find("commands");
    if (commands != json.end() && !commands->empty()) {
        PassTiming timing;
        commands->get_to(timing.byCommand);
        readOptional(json, "events", timing.events);
        readOptional(json, "command_count", timing.commands);
        readOptional(json, "seconds", timing.seconds);
        readOptional(json, "latency_p50_usec", timing.latencyP50Usec);
        readOptional(json, "latency_p99_usec", timing.latencyP99Usec);
        readServerTime(json, timing.serverTime);
        readPassLoad(json, timing.load);
        readTails(json, timing.tails);
        type.timing = timing;
    }
}

// "command_kinds": {"SET": "write", "GET": "read", "PING": ""}.
void readCommandKinds(const Json &object, std::map<QString, CommandKind> &out)
{
    std::map<QString, QString> names;
    readOptional(object, "command_kinds", names);
    for (const auto &[command, kind] : names) {
        if (kind == QLatin1String("write"))
            out[command] = CommandKind::Write;
        else if (kind == QLatin1String("read"))
            out[command] = CommandKind::Read;
        else if (kind.isEmpty())
            out[command] = CommandKind::Neither;
        else
            failAtJson(object.at("command_kinds"), "unknown command kind \"" + kind.left(40).toStdString() + "\" (expected write, read or \"\")");
    }
}

// "redirects": {"MOVED": 7, "ASK": 2, "TRYAGAIN": 1}, each present only when not 0.
void readRedirects(const Json &object, Redirects &out)
{
    std::map<QString, long long> counts;
    readOptional(object, "redirects", counts);
    for (const auto &[kind, count] : counts) {
        if (count < 0)
            failAtJson(object.at("redirects"), "a redirect count below 0");
        if (kind == QLatin1String("MOVED"))
            out.moved = count;
        else if (kind == QLatin1String("ASK"))
            out.asked = count;
        else if (kind == QLatin1String("TRYAGAIN"))
            out.retried = count;
        else
            failAtJson(object.at("redirects"), "unknown redirect \"" + kind.left(40).toStdString() + "\" (expected MOVED, ASK or TRYAGAIN)");
    }
}

void from_json(const Json &json, RepeatResult &repeat)
{
    readOptional(json, "repeat", repeat.repeat);
    readOptional(json, "status", repeat.status);
    readOptional(json, "error", repeat.error);
    readOptional(json, "keys", repeat.keys);
    readOptional(json, "used_memory_delta", repeat.usedMemoryDelta);
    readOptional(json, "nodes", repeat.nodes);
    readAccounting(json, repeat.accounting);
    readLoss(json, repeat.loss);
    readOptional(json, "by_type", repeat.byType);
    readOptional(json, "by_command", repeat.timing.byCommand);
    readOptional(json, "events", repeat.timing.events);
    readOptional(json, "commands", repeat.timing.commands);
    readOptional(json, "seconds", repeat.timing.seconds);
    readOptional(json, "latency_p50_usec", repeat.timing.latencyP50Usec);
    readOptional(json, "latency_p99_usec", repeat.timing.latencyP99Usec);
    readServerTime(json, repeat.timing.serverTime);
    readPassLoad(json, repeat.timing.load);
    readTails(json, repeat.timing.tails);
    readOptional(json, "errors", repeat.errors);
    readOptional(json, "first_error", repeat.firstError);
    readOptional(json, "refused", repeat.refused);
    readOptional(json, "counted_not_sent", repeat.countedNotSent);
    readRedirects(json, repeat.redirects);
    readOptional(json, "unsupported_commands", repeat.unsupportedCommands);
    readOptional(json, "unfinished_timed_pass", repeat.unfinishedTimedPass);
    readOptional(json, "unfinished_type", repeat.unfinishedType);
    // "retimed" and "slow_passes", in bundles of Versus 0.1 with its speed guard, are left
    // unread: the guard is gone, and their figures read as any other measured figures.
}

namespace {

// Absent in bundles written before the build was recorded.
// What an endpoint refused of what Versus changes for measuring (measurementlimits.h).
void readLimits(const Json &json, MeasurementLimits &limits)
{
    const auto found = json.find("limits");
    if (found == json.end())
        return;
    requireObject(*found);
    readOptional(*found, "settings_unread", limits.settingsUnread);
    readOptional(*found, "latency_tracking_left_on", limits.trackingLeftOn);
    readOptional(*found, "stats_not_reset", limits.statsNotReset);
}

void readBuild(const Json &json, ServerRun &run)
{
    if (const auto build = json.find("build"); build != json.end())
        buildOriginFromJson(*build, run.origin);
    AllocatorFacts &facts = run.allocatorFacts;
    readOptional(json, "mem_allocator", facts.memAllocator);
    readOptional(json, "jemalloc_quantum", facts.quantumBytes);
    if (facts.quantumBytes < 0)
        failAtJson(json.at("jemalloc_quantum"), "a quantum is a positive number of bytes");
    readOptional(json, "jemalloc_quantum_problem", facts.quantumProblem);
}

} // namespace

void from_json(const Json &json, ServerRun &run)
{
    readOptional(json, "id", run.id);
    if (run.id.isEmpty())
        failAtJson(json, "every server needs an id");
    QString topology = QStringLiteral("standalone");
    readOptional(json, "topology", topology);
    const Outcome<Topology> parsed = parseTopology(topology);
    if (!parsed)
        failAtJson(json, "topology " + parsed.error().toStdString());
    run.topology = parsed.value();
    readOptional(json, "self_check", run.selfCheck);
    readOptional(json, "product", run.product);
    readOptional(json, "version", run.version);
    readOptional(json, "build_id", run.buildId);
    readOptional(json, "allocator", run.allocator);
    readOptional(json, "binary_sha256", run.binarySha256);
    readOptional(json, "git_sha", run.gitSha);
    readOptional(json, "executable_path", run.executablePath);
    readOptional(json, "executable_sha256", run.executableSha256);
    readOptional(json, "status", run.status);
    readOptional(json, "error", run.error);
    readOptional(json, "log_tail", run.logTail);
    readOptional(json, "endpoint", run.endpoint);
    readOptional(json, "replay_access", run.replayAccess);
    readOptional(json, "transport", run.transport);
    readLimits(json, run.limits);
    readOptional(json, "bundle", run.bundleName);
    releaseNotesFromJson(json, run.releaseNotes);
    readOptional(json, "config", run.config);
    readOptional(json, "config_applied", run.configApplied);
    readOptional(json, "config_refused", run.configRefused);
    readCommandKinds(json, run.commandKinds);
    readBuild(json, run);
    readProfile(json, run.profile);
}

void from_json(const Json &json, MachineInfo &machine)
{
    readOptional(json, "cpu_model", machine.cpuModel);
    readOptional(json, "cores", machine.cores);
    readOptional(json, "os", machine.os);
    readOptional(json, "hostname", machine.hostname);
}

void from_json(const Json &json, WorkloadInfo &workload)
{
    readOptional(json, "name", workload.name);
    readOptional(json, "source_file", workload.sourceFile);
    readOptional(json, "source_sha256", workload.sourceSha256);
    readOptional(json, "parameters", workload.parameters);
    readOptional(json, "events", workload.events);
    readOptional(json, "commands", workload.commands);
    readOptional(json, "types", workload.types);
    readOptional(json, "types_timed_alone", workload.typesTimedAlone);
    readOptional(json, "reference_type", workload.referenceType);
    if (json.contains("command_groups")) {
        const Json &groups = json.at("command_groups");
        requireObject(groups);
        for (const auto &[name, commands] : groups.items()) {
            QStringList names;
            readValue(commands, names);
            workload.commandGroups.emplace_back(QString::fromStdString(name), names);
        }
    }
    readOptional(json, "named_commands", workload.namedCommands);
    readOptional(json, "skipped", workload.skipped);
    readOptional(json, "category_noun", workload.categoryNoun);
    // Bundles from before "category_noun": only hash-ttl called its types patterns.
    if (!json.contains("category_noun"))
        workload.categoryNoun = workload.name == QLatin1String("hash-ttl") ? QStringLiteral("pattern") : QStringLiteral("type");
    // Bundles from before "reference_type": hash-ttl always measured against set-ex.
    if (!json.contains("reference_type") && workload.name == QLatin1String("hash-ttl") && workload.types.contains(QStringLiteral("set-ex")))
        workload.referenceType = QStringLiteral("set-ex");
}

void from_json(const Json &json, ComparedBundle &source)
{
    readOptional(json, "name", source.name);
    QString created;
    readOptional(json, "created", created);
    if (!created.isEmpty()) {
        source.created = QDateTime::fromString(created, Qt::ISODateWithMs);
        if (!source.created.isValid())
            failAtJson(json.at("created"), "not an ISO 8601 date: " + created.toStdString());
    }
    readOptional(json, "machine", source.machine);
    readOptional(json, "versus_version", source.versusVersion);
    readOptional(json, "workload", source.workload);
    readOptional(json, "schedule", source.schedule);
    readOptional(json, "repeats", source.repeats);
    readOptional(json, "events_per_batch", source.eventsPerBatch);
    readOptional(json, "clients", source.clients);
}

namespace {

// Bundles written before "types_timed_alone" existed say it by timing their types.
bool typesWereTimedAlone(const ResultsBundle &bundle)
{
    for (const ServerRun &run : bundle.servers) {
        for (const RepeatResult &repeat : run.repeats) {
            for (const auto &entry : repeat.byType) {
                if (entry.second.timing)
                    return true;
            }
        }
    }
    return false;
}

// A server named twice in one list: its repeats in "runs" would all go to the first, and it would
// be charted twice.
void refuseServerNamedTwice(const Json &root, const std::vector<ServerRun> &servers)
{
    std::map<QString, size_t> indexById;
    for (size_t index = 0; index < servers.size(); ++index) {
        const auto [earlier, first] = indexById.emplace(servers[index].id, index);
        if (!first)
            failAtJson(root.at("servers").at(index), "server " + quotedForMessage(servers[index].id).toStdString()
                                                         + " is named twice (also at index " + std::to_string(earlier->second) + ")");
    }
}

// "servers" and the repeats of each in "runs".
void readServers(const Json &root, std::vector<ServerRun> &servers)
{
    readOptional(root, "servers", servers);
    refuseServerNamedTwice(root, servers);
    const auto runs = root.find("runs");
    if (runs == root.end())
        return;
    requireObject(*runs);
    for (const auto &[id, repeats] : runs->items()) {
        auto target = std::find_if(servers.begin(), servers.end(),
                                   [&](const ServerRun &run) { return run.id == QString::fromStdString(id); });
        if (target == servers.end())
            failAtJson(repeats, "no server with this id in /servers");
        repeats.get_to(target->repeats);
    }
}

// "sweep": absent in bundles of one run and in those written before sweeps.
void readSweep(const Json &root, ResultsBundle &bundle)
{
    const auto sweep = root.find("sweep");
    if (sweep == root.end())
        return;
    requireObject(*sweep);
    readOptional(*sweep, "parameter", bundle.sweep.parameter);
    readOptional(*sweep, "shown", bundle.sweep.shown);
    const auto points = sweep->find("points");
    if (points == sweep->end())
        return;
    requireArray(*points);
    for (const Json &entry : *points) {
        SweepPoint point;
        readOptional(entry, "value", point.value);
        readOptional(entry, "complete", point.complete);
        readOptional(entry, "events_per_batch", point.eventsPerBatch);
        readOptional(entry, "workload", point.workload);
        readServers(entry, point.servers);
        bundle.sweep.points.push_back(point);
    }
    if (bundle.sweep.shown < -1 || bundle.sweep.shown >= int(bundle.sweep.points.size()))
        failAtJson(sweep->at("shown"), "no point with this index in /sweep/points");
}

ResultsBundle bundleFromTree(const Json &root)
{
    ResultsBundle bundle;
    QString created;
    readOptional(root, "created", created);
    if (!created.isEmpty()) {
        bundle.created = QDateTime::fromString(created, Qt::ISODateWithMs);
        if (!bundle.created.isValid())
            failAtJson(root.at("created"), "not an ISO 8601 date: " + created.toStdString());
    }
    readOptional(root, "machine", bundle.machine);
    readOptional(root, "versus_version", bundle.versusVersion);
    readOptional(root, "complete", bundle.complete);
    readOptional(root, "workload", bundle.workload);
    readOptional(root, "schedule", bundle.schedule);
    readOptional(root, "repeats", bundle.repeats);
    readOptional(root, "events_per_batch", bundle.eventsPerBatch);
    readOptional(root, "clients", bundle.clients);
    readOptional(root, "baseline", bundle.baseline);
    readServers(root, bundle.servers);
    readOptional(root, "compared", bundle.compared);
    readSweep(root, bundle);
    if (!root.contains("workload") || !root.at("workload").contains("types_timed_alone"))
        bundle.workload.typesTimedAlone = typesWereTimedAlone(bundle);
    return bundle;
}

} // namespace

Outcome<ResultsBundle> bundleFromJson(const QByteArray &json, const QString &sourceName)
{
    Outcome<Json> parsed = parseJson(json, sourceName);
    if (!parsed)
        return Error{parsed.error()};
    const Json &root = parsed.value();
    if (!root.is_object())
        return Error{QStringLiteral("%1: not a Versus results bundle (the document is not a JSON object)").arg(sourceName)};
    const auto schema = root.find("schema");
    if (schema == root.end() || !schema->is_string())
        return Error{QStringLiteral("%1: not a Versus results bundle (no \"schema\" field)").arg(sourceName)};
    const QString found = QString::fromStdString(schema->get<std::string>());
    if (found != QLatin1String(ResultsBundle::schema)) {
        const bool newer = found.startsWith(QLatin1String("versus.results/"));
        return Error{QStringLiteral("%1: schema \"%2\" %3; this Versus reads \"%4\"")
                         .arg(sourceName, found,
                              newer ? QStringLiteral("was written by a newer Versus")
                                    : QStringLiteral("is not a Versus results schema"),
                              QLatin1String(ResultsBundle::schema))};
    }
    try {
        return bundleFromTree(root);
    } catch (const nlohmann::json::exception &error) {
        return Error{jsonErrorMessage(sourceName, error)};
    }
}

Outcome<ResultsBundle> loadBundle(const QString &path)
{
    const Outcome<QByteArray> bytes = readBoundedFile(path, kLargestBundleBytes, QStringLiteral("a results bundle"));
    if (!bytes)
        return Error{bytes.error()};
    return bundleFromJson(bytes.value(), path);
}
