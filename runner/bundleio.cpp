#include "bundleio.h"

#include "atomicfile.h"
#include "datacheck.h"

#include "presentation.h"
#include "resultsstats.h"
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

using Json = nlohmann::ordered_json;

namespace {

std::string text(const QString &value) { return value.toStdString(); }
QString qtext(const std::string &value) { return QString::fromStdString(value); }

bool isOk(const RepeatResult &repeat) { return repeat.status == QLatin1String("ok"); }

// ---------------------------------------------------------------- writing: the source of truth

Json commandStatsToJson(const std::map<QString, CommandStat> &stats)
{
    Json object = Json::object();
    for (const auto &[name, stat] : stats)
        object[text(name)] = {{"calls", stat.calls}, {"usec", stat.usec}};
    return object;
}

Json countsToJson(const std::map<QString, long long> &counts)
{
    Json object = Json::object();
    for (const auto &[name, count] : counts)
        object[text(name)] = count;
    return object;
}

Json typeMemoryToJson(const TypeMemory &type)
{
    return {
        {"status", text(type.status)},
        {"error", text(type.error)},
        {"keys", type.keys},
        {"used_memory_delta", type.usedMemoryDelta},
        {"bytes_per_key", type.bytesPerKey},
        {"memory_usage_bytes_per_key", type.memoryUsageBytesPerKey},
        {"encodings", countsToJson(type.encodings)},
        {"commands", commandStatsToJson(type.commands)},
    };
}

Json repeatToJson(const RepeatResult &repeat)
{
    Json byType = Json::object();
    for (const auto &[name, type] : repeat.byType)
        byType[text(name)] = typeMemoryToJson(type);
    Json json = {
        {"repeat", repeat.repeat},
        {"status", text(repeat.status)},
        {"error", text(repeat.error)},
        {"keys", repeat.keys},
        {"used_memory_delta", repeat.usedMemoryDelta},
        {"bytes_per_key", repeat.bytesPerKey},
        {"by_type", byType},
        {"by_command", commandStatsToJson(repeat.byCommand)},
        {"events", repeat.events},
        {"commands", repeat.commands},
        {"seconds", repeat.seconds},
        {"events_per_second", repeat.eventsPerSecond},
        {"commands_per_second", repeat.commandsPerSecond},
        {"latency_p50_usec", repeat.latencyP50Usec},
        {"latency_p99_usec", repeat.latencyP99Usec},
        {"errors", countsToJson(repeat.errors)},
    };
    if (repeat.cpuLoopMs > 0)
        json["cpu_loop_ms"] = repeat.cpuLoopMs;
    if (repeat.passLoopMs > 0 || repeat.passChaseNs > 0) {
        json["pass_loop_ms"] = repeat.passLoopMs;
        json["pass_chase_ns"] = repeat.passChaseNs;
        json["retimed"] = repeat.retimed;
        json["slow_passes"] = repeat.slowPasses;
    }
    return json;
}

Json serverToJson(const ServerRun &run)
{
    Json logTail = Json::array();
    for (const QString &line : run.logTail)
        logTail.push_back(text(line));
    return {
        {"id", text(run.id)},
        {"product", text(run.product)},
        {"version", text(run.version)},
        {"build_id", text(run.buildId)},
        {"allocator", text(run.allocator)},
        {"binary_sha256", text(run.binarySha256)},
        {"status", text(run.status)},
        {"error", text(run.error)},
        {"log_tail", logTail},
        {"endpoint", run.endpoint},
    };
}

Json workloadToJson(const WorkloadInfo &workload)
{
    Json parameters = Json::object();
    for (const auto &[name, value] : workload.parameters)
        parameters[text(name)] = text(value);
    Json types = Json::array();
    for (const QString &type : workload.types)
        types.push_back(text(type));
    return {
        {"name", text(workload.name)},
        {"source_file", text(workload.sourceFile)},
        {"source_sha256", text(workload.sourceSha256)},
        {"parameters", parameters},
        {"events", workload.events},
        {"commands", workload.commands},
        {"types", types},
    };
}

// ---------------------------------------------------------------- writing: derived figures

Json spreadToJson(const Spread &spread)
{
    Json object = {{"median", spread.median}, {"min", spread.min}, {"max", spread.max}, {"n", spread.n}};
    if (spread.hasInterval()) {
        object["ci_low"] = spread.ciLow;
        object["ci_high"] = spread.ciHigh;
    }
    return object;
}

// Every type any repeat of the server measured, in workload order first.
QStringList typesOf(const ResultsBundle &bundle, const ServerRun &run)
{
    QStringList types = bundle.workload.types;
    for (const RepeatResult &repeat : run.repeats) {
        for (const auto &entry : repeat.byType) {
            if (!types.contains(entry.first))
                types << entry.first;
        }
    }
    return types;
}

// Every command any repeat ran, most calls first (ties by name).
QStringList commandsOf(const ServerRun &run)
{
    std::map<QString, long long> calls;
    for (const RepeatResult &repeat : run.repeats) {
        if (!isOk(repeat))
            continue;
        for (const auto &[name, stat] : repeat.byCommand)
            calls[name] += stat.calls;
    }
    std::vector<std::pair<QString, long long>> sorted(calls.begin(), calls.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    QStringList names;
    for (const auto &entry : sorted)
        names << entry.first;
    return names;
}

// The figure of one type over the ok repeats that measured it.
Spread typeSpread(const ServerRun &run, const QString &type, double TypeMemory::*figure)
{
    std::vector<double> values;
    for (const RepeatResult &repeat : run.repeats) {
        if (!isOk(repeat))
            continue;
        const auto found = repeat.byType.find(type);
        if (found != repeat.byType.end() && found->second.status == QLatin1String("ok"))
            values.push_back(found->second.*figure);
    }
    return spreadOf(std::move(values));
}

const TypeMemory *unsupportedType(const ServerRun &run, const QString &type)
{
    for (const RepeatResult &repeat : run.repeats) {
        const auto found = repeat.byType.find(type);
        if (found != repeat.byType.end() && found->second.status == QLatin1String("unsupported"))
            return &found->second;
    }
    return nullptr;
}

const RepeatResult *firstOkRepeat(const ServerRun &run)
{
    for (const RepeatResult &repeat : run.repeats) {
        if (isOk(repeat))
            return &repeat;
    }
    return nullptr;
}

Json memoryToJson(const ResultsBundle &bundle, const ServerRun &run)
{
    const bool withSpread = bundle.repeats > 1;
    const Spread overall = spreadOver(run, [](const RepeatResult &r) { return r.bytesPerKey; });
    Json byType = Json::object(), unsupported = Json::object(), keys = Json::object();
    Json memoryUsage = Json::object(), differs = Json::object(), encodings = Json::object();
    Json spreads = Json::object();
    double usageWeighted = 0;
    long long usageKeys = 0;
    const RepeatResult *sample = firstOkRepeat(run);
    for (const QString &type : typesOf(bundle, run)) {
        const std::string name = text(type);
        if (const TypeMemory *refused = unsupportedType(run, type)) {
            byType[name] = nullptr;
            unsupported[name] = text(refused->error);
            continue;
        }
        const Spread bytes = typeSpread(run, type, &TypeMemory::bytesPerKey);
        if (bytes.n == 0)
            continue;
        byType[name] = bytes.median;
        if (withSpread)
            spreads[name] = spreadToJson(bytes);
        const Spread usage = typeSpread(run, type, &TypeMemory::memoryUsageBytesPerKey);
        memoryUsage[name] = usage.median;
        differs[name] = bytes.median > 0 && std::fabs(usage.median - bytes.median) / bytes.median > 0.10;
        if (sample) {
            const auto found = sample->byType.find(type);
            if (found != sample->byType.end()) {
                keys[name] = found->second.keys;
                encodings[name] = countsToJson(found->second.encodings);
                usageWeighted += usage.median * double(found->second.keys);
                usageKeys += found->second.keys;
            }
        }
    }
    Json memory = {
        {"bytes_per_key", {{"overall", overall.median}, {"by_type", byType}}},
        {"keys", {{"overall", sample ? sample->keys : 0}, {"by_type", keys}}},
        {"memory_usage",
         {{"bytes_per_key", {{"overall", usageKeys > 0 ? usageWeighted / double(usageKeys) : 0.0},
                             {"by_type", memoryUsage}}},
          {"differs_by_more_than_10_percent", differs}}},
        {"encodings", encodings},
        {"unsupported", unsupported},
    };
    if (withSpread)
        memory["spread"] = {{"overall", spreadToJson(overall)}, {"by_type", spreads}};
    return memory;
}

Json commandsToJson(const ResultsBundle &bundle, const ServerRun &run)
{
    const bool withSpread = bundle.repeats > 1;
    const Spread overall = spreadOver(run, [](const RepeatResult &r) { return r.usecPerCall(); });
    const Spread perEvent = spreadOver(run, [](const RepeatResult &r) { return r.usecPerEvent(); });
    Json byCommand = Json::object(), calls = Json::object(), spreads = Json::object();
    for (const QString &command : commandsOf(run)) {
        std::vector<double> values;
        long long callCount = 0;
        for (const RepeatResult &repeat : run.repeats) {
            const auto found = repeat.byCommand.find(command);
            if (isOk(repeat) && found != repeat.byCommand.end()) {
                values.push_back(found->second.usecPerCall());
                if (callCount == 0)
                    callCount = found->second.calls;
            }
        }
        const Spread spread = spreadOf(std::move(values));
        byCommand[text(command)] = spread.median;
        calls[text(command)] = callCount;
        if (withSpread)
            spreads[text(command)] = spreadToJson(spread);
    }
    Json commands = {
        {"usec_per_call", {{"overall", overall.median}, {"by_command", byCommand}}},
        {"usec_per_event", perEvent.median},
        {"calls", calls},
    };
    if (withSpread) {
        commands["spread"] = {{"usec_per_call", {{"overall", spreadToJson(overall)}, {"by_command", spreads}}},
                              {"usec_per_event", spreadToJson(perEvent)}};
    }
    return commands;
}

Json clientToJson(const ResultsBundle &bundle, const ServerRun &run)
{
    using Figure = double (*)(const RepeatResult &);
    const std::pair<const char *, Figure> figures[] = {
        {"events_per_second", [](const RepeatResult &r) { return r.eventsPerSecond; }},
        {"commands_per_second", [](const RepeatResult &r) { return r.commandsPerSecond; }},
        {"latency_p50_usec", [](const RepeatResult &r) { return r.latencyP50Usec; }},
        {"latency_p99_usec", [](const RepeatResult &r) { return r.latencyP99Usec; }},
        {"seconds", [](const RepeatResult &r) { return r.seconds; }},
    };
    Json client = Json::object(), spreads = Json::object();
    for (const auto &[name, figure] : figures) {
        const Spread spread = spreadOver(run, figure);
        client[name] = spread.median;
        if (bundle.repeats > 1)
            spreads[name] = spreadToJson(spread);
    }
    if (bundle.repeats > 1)
        client["spread"] = spreads;
    return client;
}

// Every server must end with the same key count per type; a server that differs lost or
// rejected writes. One message per disagreement, naming server, repeat and type.
Json dataCheckToJson(const ResultsBundle &bundle)
{
    Json mismatches = Json::array();
    for (const QString &problem : dataCheckProblems(bundle))
        mismatches.push_back(text(problem));
    return {{"consistent", mismatches.empty()}, {"mismatches", mismatches}};
}

// ---------------------------------------------------------------- reading

// A bundle that parses but does not have the shape we expect. Thrown only inside
// bundleFromJson and caught there.
struct ShapeError {
    std::string path;
    std::string message;
};

std::string typeName(const Json &value)
{
    return value.type_name();
}

std::string child(const std::string &path, const std::string &key)
{
    const bool plain = !key.empty()
        && std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    return plain ? path + "." + key : path + "[\"" + key + "\"]";
}

std::string child(const std::string &path, size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

void expect(bool condition, const Json &value, const std::string &path, const char *wanted)
{
    if (!condition)
        throw ShapeError{path, std::string("expected ") + wanted + ", got " + typeName(value)};
}

const Json &objectAt(const Json &value, const std::string &path)
{
    expect(value.is_object(), value, path, "an object");
    return value;
}

// Reads an optional member: absent leaves the default, present with the wrong type fails.
class Fields {
public:
    Fields(const Json &object, std::string path) : m_object(objectAt(object, path)), m_path(std::move(path)) {}

    const Json *find(const char *key) const
    {
        const auto found = m_object.find(key);
        return found == m_object.end() ? nullptr : &*found;
    }
    std::string pathOf(const char *key) const { return child(m_path, key); }

    void read(const char *key, QString &out) const
    {
        if (const Json *value = find(key)) {
            expect(value->is_string(), *value, pathOf(key), "a string");
            out = qtext(value->get<std::string>());
        }
    }
    void read(const char *key, double &out) const
    {
        if (const Json *value = find(key)) {
            expect(value->is_number(), *value, pathOf(key), "a number");
            out = value->get<double>();
        }
    }
    void read(const char *key, long long &out) const
    {
        if (const Json *value = find(key)) {
            expect(value->is_number_integer(), *value, pathOf(key), "an integer");
            out = value->get<long long>();
        }
    }
    void read(const char *key, int &out) const
    {
        long long wide = out;
        read(key, wide);
        out = int(wide);
    }
    void read(const char *key, bool &out) const
    {
        if (const Json *value = find(key)) {
            expect(value->is_boolean(), *value, pathOf(key), "true or false");
            out = value->get<bool>();
        }
    }
    void read(const char *key, QStringList &out) const
    {
        if (const Json *value = find(key)) {
            const std::string path = pathOf(key);
            expect(value->is_array(), *value, path, "an array of strings");
            out.clear();
            for (size_t i = 0; i < value->size(); ++i) {
                const Json &item = (*value)[i];
                expect(item.is_string(), item, child(path, i), "a string");
                out << qtext(item.get<std::string>());
            }
        }
    }
    void read(const char *key, std::map<QString, long long> &out) const
    {
        if (const Json *value = find(key)) {
            const std::string path = pathOf(key);
            objectAt(*value, path);
            out.clear();
            for (const auto &[name, count] : value->items()) {
                expect(count.is_number_integer(), count, child(path, name), "an integer");
                out[qtext(name)] = count.get<long long>();
            }
        }
    }
    void read(const char *key, std::map<QString, QString> &out) const
    {
        if (const Json *value = find(key)) {
            const std::string path = pathOf(key);
            objectAt(*value, path);
            out.clear();
            for (const auto &[name, item] : value->items()) {
                expect(item.is_string(), item, child(path, name), "a string");
                out[qtext(name)] = qtext(item.get<std::string>());
            }
        }
    }
    void read(const char *key, std::map<QString, CommandStat> &out) const
    {
        if (const Json *value = find(key)) {
            const std::string path = pathOf(key);
            objectAt(*value, path);
            out.clear();
            for (const auto &[name, item] : value->items()) {
                const Fields stat(item, child(path, name));
                CommandStat &target = out[qtext(name)];
                stat.read("calls", target.calls);
                stat.read("usec", target.usec);
            }
        }
    }

private:
    const Json &m_object;
    std::string m_path;
};

TypeMemory typeMemoryFromJson(const Json &value, const std::string &path)
{
    const Fields fields(value, path);
    TypeMemory type;
    fields.read("status", type.status);
    fields.read("error", type.error);
    fields.read("keys", type.keys);
    fields.read("used_memory_delta", type.usedMemoryDelta);
    fields.read("bytes_per_key", type.bytesPerKey);
    fields.read("memory_usage_bytes_per_key", type.memoryUsageBytesPerKey);
    fields.read("encodings", type.encodings);
    fields.read("commands", type.commands);
    return type;
}

RepeatResult repeatFromJson(const Json &value, const std::string &path)
{
    const Fields fields(value, path);
    RepeatResult repeat;
    fields.read("repeat", repeat.repeat);
    fields.read("status", repeat.status);
    fields.read("error", repeat.error);
    fields.read("keys", repeat.keys);
    fields.read("used_memory_delta", repeat.usedMemoryDelta);
    fields.read("bytes_per_key", repeat.bytesPerKey);
    if (const Json *byType = fields.find("by_type")) {
        const std::string typesPath = fields.pathOf("by_type");
        objectAt(*byType, typesPath);
        for (const auto &[name, type] : byType->items())
            repeat.byType[qtext(name)] = typeMemoryFromJson(type, child(typesPath, name));
    }
    fields.read("by_command", repeat.byCommand);
    fields.read("events", repeat.events);
    fields.read("commands", repeat.commands);
    fields.read("seconds", repeat.seconds);
    fields.read("events_per_second", repeat.eventsPerSecond);
    fields.read("commands_per_second", repeat.commandsPerSecond);
    fields.read("latency_p50_usec", repeat.latencyP50Usec);
    fields.read("latency_p99_usec", repeat.latencyP99Usec);
    fields.read("errors", repeat.errors);
    fields.read("cpu_loop_ms", repeat.cpuLoopMs);
    fields.read("pass_loop_ms", repeat.passLoopMs);
    fields.read("pass_chase_ns", repeat.passChaseNs);
    fields.read("retimed", repeat.retimed);
    fields.read("slow_passes", repeat.slowPasses);
    return repeat;
}

ServerRun serverFromJson(const Json &value, const std::string &path)
{
    const Fields fields(value, path);
    ServerRun run;
    fields.read("id", run.id);
    if (run.id.isEmpty())
        throw ShapeError{child(path, "id"), "missing: every server needs an id"};
    fields.read("product", run.product);
    fields.read("version", run.version);
    fields.read("build_id", run.buildId);
    fields.read("allocator", run.allocator);
    fields.read("binary_sha256", run.binarySha256);
    fields.read("status", run.status);
    fields.read("error", run.error);
    fields.read("log_tail", run.logTail);
    fields.read("endpoint", run.endpoint);
    return run;
}

ResultsBundle bundleFromTree(const Json &root)
{
    const Fields fields(root, "$");
    ResultsBundle bundle;
    QString created;
    fields.read("created", created);
    if (!created.isEmpty()) {
        bundle.created = QDateTime::fromString(created, Qt::ISODateWithMs);
        if (!bundle.created.isValid())
            throw ShapeError{"$.created", "not an ISO 8601 date: " + text(created)};
    }
    if (const Json *machine = fields.find("machine")) {
        const Fields machineFields(*machine, "$.machine");
        machineFields.read("cpu_model", bundle.machine.cpuModel);
        machineFields.read("cores", bundle.machine.cores);
        machineFields.read("os", bundle.machine.os);
        machineFields.read("hostname", bundle.machine.hostname);
    }
    fields.read("versus_version", bundle.versusVersion);
    fields.read("complete", bundle.complete);
    if (const Json *workload = fields.find("workload")) {
        const Fields workloadFields(*workload, "$.workload");
        workloadFields.read("name", bundle.workload.name);
        workloadFields.read("source_file", bundle.workload.sourceFile);
        workloadFields.read("source_sha256", bundle.workload.sourceSha256);
        workloadFields.read("parameters", bundle.workload.parameters);
        workloadFields.read("events", bundle.workload.events);
        workloadFields.read("commands", bundle.workload.commands);
        workloadFields.read("types", bundle.workload.types);
    }
    fields.read("schedule", bundle.schedule);
    fields.read("repeats", bundle.repeats);
    fields.read("baseline", bundle.baseline);
    if (const Json *servers = fields.find("servers")) {
        expect(servers->is_array(), *servers, "$.servers", "an array");
        for (size_t i = 0; i < servers->size(); ++i)
            bundle.servers.push_back(serverFromJson((*servers)[i], child("$.servers", i)));
    }
    if (const Json *runs = fields.find("runs")) {
        objectAt(*runs, "$.runs");
        for (const auto &[id, repeats] : runs->items()) {
            const std::string path = child("$.runs", id);
            auto target = std::find_if(bundle.servers.begin(), bundle.servers.end(),
                                       [&](const ServerRun &run) { return run.id == qtext(id); });
            if (target == bundle.servers.end())
                throw ShapeError{path, "no server with this id in $.servers"};
            expect(repeats.is_array(), repeats, path, "an array of repeats");
            for (size_t i = 0; i < repeats.size(); ++i)
                target->repeats.push_back(repeatFromJson(repeats[i], child(path, i)));
        }
    }
    return bundle;
}

QString csvField(const QString &value)
{
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"')) && !value.contains(QLatin1Char('\n')))
        return value;
    QString quoted = value;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double value)
{
    return QString::number(value, 'g', 10);
}

} // namespace

QByteArray bundleToJson(const ResultsBundle &bundle)
{
    Json servers = Json::array();
    Json runs = Json::object(), memory = Json::object(), commands = Json::object(), client = Json::object();
    for (const QString &id : orderedServerIds(bundle)) {
        const ServerRun &run = *bundle.server(id);
        servers.push_back(serverToJson(run));
        Json repeats = Json::array();
        for (const RepeatResult &repeat : run.repeats)
            repeats.push_back(repeatToJson(repeat));
        runs[text(id)] = repeats;
        if (!firstOkRepeat(run))
            continue;   // a failed server has no figures; servers[].status and error say why
        memory[text(id)] = memoryToJson(bundle, run);
        commands[text(id)] = commandsToJson(bundle, run);
        client[text(id)] = clientToJson(bundle, run);
    }
    const Json root = {
        {"schema", ResultsBundle::schema},
        {"created", text(bundle.created.toUTC().toString(Qt::ISODateWithMs))},
        {"machine",
         {{"cpu_model", text(bundle.machine.cpuModel)},
          {"cores", bundle.machine.cores},
          {"os", text(bundle.machine.os)},
          {"hostname", text(bundle.machine.hostname)}}},
        {"versus_version", text(bundle.versusVersion)},
        {"complete", bundle.complete},
        {"workload", workloadToJson(bundle.workload)},
        {"schedule", text(bundle.schedule)},
        {"repeats", bundle.repeats},
        {"baseline", text(bundle.baseline)},
        {"baseline_effective", text(baselineId(bundle))},
        {"servers", servers},
        {"memory", memory},
        {"commands", commands},
        {"client", client},
        {"data_check", dataCheckToJson(bundle)},
        {"runs", runs},
    };
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

Outcome<ResultsBundle> bundleFromJson(const QByteArray &json, const QString &sourceName)
{
    Json root;
    try {
        root = Json::parse(json.constData(), json.constData() + json.size());
    } catch (const Json::parse_error &error) {
        return Error{QStringLiteral("%1: malformed JSON at byte %2: %3")
                         .arg(sourceName)
                         .arg(error.byte)
                         .arg(QString::fromUtf8(error.what()))};
    }
    if (!root.is_object())
        return Error{QStringLiteral("%1: not a Versus results bundle (the document is not a JSON object)").arg(sourceName)};
    const auto schema = root.find("schema");
    if (schema == root.end() || !schema->is_string())
        return Error{QStringLiteral("%1: not a Versus results bundle (no \"schema\" field)").arg(sourceName)};
    const QString found = qtext(schema->get<std::string>());
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
    } catch (const ShapeError &error) {
        return Error{QStringLiteral("%1: %2: %3").arg(sourceName, qtext(error.path), qtext(error.message))};
    } catch (const Json::exception &error) {
        return Error{QStringLiteral("%1: %2").arg(sourceName, QString::fromUtf8(error.what()))};
    }
}

Status saveBundle(const ResultsBundle &bundle, const QString &path)
{
    return writeFileAtomically(path, bundleToJson(bundle));
}

Outcome<ResultsBundle> loadBundle(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{QStringLiteral("%1: cannot read: %2").arg(path, file.errorString())};
    return bundleFromJson(file.readAll(), path);
}

QString bundleToCsv(const ResultsBundle &bundle)
{
    QString csv = QStringLiteral("server,metric,category,value,min,max,repeats\n");
    auto row = [&csv](const QString &server, const char *metric, const QString &category, const Spread &spread) {
        csv += csvField(server) + QLatin1Char(',') + QLatin1String(metric) + QLatin1Char(',') + csvField(category)
            + QLatin1Char(',') + csvNumber(spread.median) + QLatin1Char(',') + csvNumber(spread.min) + QLatin1Char(',')
            + csvNumber(spread.max) + QLatin1Char(',') + QString::number(spread.n) + QLatin1Char('\n');
    };
    auto unsupportedRow = [&csv](const QString &server, const char *metric, const QString &category) {
        csv += csvField(server) + QLatin1Char(',') + QLatin1String(metric) + QLatin1Char(',') + csvField(category)
            + QStringLiteral(",,,,0\n");
    };
    const QString overall = QStringLiteral("overall");
    for (const QString &id : orderedServerIds(bundle)) {
        const ServerRun &run = *bundle.server(id);
        if (!firstOkRepeat(run))
            continue;
        row(id, "bytes_per_key", overall, spreadOver(run, [](const RepeatResult &r) { return r.bytesPerKey; }));
        for (const QString &type : typesOf(bundle, run)) {
            if (unsupportedType(run, type)) {
                unsupportedRow(id, "bytes_per_key", type);
                continue;
            }
            const Spread spread = typeSpread(run, type, &TypeMemory::bytesPerKey);
            if (spread.n > 0)
                row(id, "bytes_per_key", type, spread);
        }
        row(id, "usec_per_call", overall, spreadOver(run, [](const RepeatResult &r) { return r.usecPerCall(); }));
        for (const QString &command : commandsOf(run)) {
            std::vector<double> values;
            for (const RepeatResult &repeat : run.repeats) {
                const auto found = repeat.byCommand.find(command);
                if (isOk(repeat) && found != repeat.byCommand.end())
                    values.push_back(found->second.usecPerCall());
            }
            row(id, "usec_per_call", command, spreadOf(std::move(values)));
        }
        row(id, "usec_per_event", overall, spreadOver(run, [](const RepeatResult &r) { return r.usecPerEvent(); }));
        row(id, "events_per_second", overall, spreadOver(run, [](const RepeatResult &r) { return r.eventsPerSecond; }));
        row(id, "commands_per_second", overall,
            spreadOver(run, [](const RepeatResult &r) { return r.commandsPerSecond; }));
    }
    return csv;
}

namespace {

// "| a | b |"; an empty cell stays "| |".
QString markdownRow(const QStringList &cells)
{
    QString row = QStringLiteral("|");
    for (const QString &cell : cells)
        row += cell.isEmpty() ? QStringLiteral(" |") : QStringLiteral(" ") + cell + QStringLiteral(" |");
    return row + QLatin1Char('\n');
}

// A header row naming the servers, then the alignment row: labels left, figures right.
QString markdownHeader(const QString &first, const QStringList &ids)
{
    QString header = markdownRow(QStringList{first} + ids) + QStringLiteral("|---");
    for (int i = 0; i < ids.size(); ++i)
        header += QStringLiteral("|---:");
    return header + QStringLiteral("|\n");
}

// (max − min) / median in percent; 0 when every repeat gave the same figure.
double spreadPercent(const Spread &spread)
{
    return spread.median == 0 ? 0 : 100.0 * (spread.max - spread.min) / spread.median;
}

// How far the repeats agree: the range (and 95% interval) of the time figure, and how much
// the memory figures moved, which a deterministic workload should not make them do.
QString markdownAcrossRepeats(const ResultsBundle &bundle, const QStringList &ids)
{
    QString markdown = QStringLiteral("\n### Across %1 repeats\n\n").arg(bundle.repeats) + markdownHeader(QString(), ids);
    auto row = [&](const QString &label, const std::function<QString(const ServerRun &)> &text) {
        QStringList cells{label};
        for (const QString &id : ids)
            cells << text(*bundle.server(id));
        markdown += markdownRow(cells);
    };
    auto usec = [](const ServerRun &run) { return spreadOver(run, [](const RepeatResult &r) { return r.usecPerCall(); }); };
    row(QStringLiteral("µs per command, min–max"), [&](const ServerRun &run) {
        const Spread spread = usec(run);
        return formatFigure(spread.min) + QStringLiteral("–") + formatFigure(spread.max);
    });
    bool anyInterval = false;
    for (const QString &id : ids)
        anyInterval = anyInterval || usec(*bundle.server(id)).hasInterval();
    if (anyInterval) {
        row(QStringLiteral("µs per command, 95% interval"), [&](const ServerRun &run) {
            const Spread spread = usec(run);
            return spread.hasInterval() ? formatFigure(spread.ciLow) + QStringLiteral("–") + formatFigure(spread.ciHigh)
                                        : QStringLiteral("—");
        });
    }
    const QString baseline = baselineId(bundle);
    const ServerRun *base = ids.contains(baseline) ? bundle.server(baseline) : nullptr;
    if (base && ids.size() > 1) {
        bool intervals = true;
        for (const QString &id : ids)
            intervals = intervals && (id == baseline || pairedRatioSpread(*bundle.server(id), *base).hasInterval());
        row(QStringLiteral("µs per command against %1 in the same repeat, %2")
                .arg(baseline, intervals ? QStringLiteral("95% interval") : QStringLiteral("min–max")),
            [&](const ServerRun &run) {
                if (&run == base)
                    return QStringLiteral("baseline");
                const Spread ratio = pairedRatioSpread(run, *base);
                if (ratio.n == 0)
                    return QStringLiteral("—");
                return formatChangeRange(ratio, intervals);
            });
    }
    row(QStringLiteral("memory per attribute, spread"), [&](const ServerRun &run) {
        const double overall = spreadPercent(spreadOver(run, [](const RepeatResult &r) { return r.bytesPerKey; }));
        QString widestType;
        double widest = 0;
        for (const QString &type : typesOf(bundle, run)) {
            if (unsupportedType(run, type))
                continue;
            const double percent = spreadPercent(typeSpread(run, type, &TypeMemory::bytesPerKey));
            if (percent > widest) {
                widest = percent;
                widestType = type;
            }
        }
        if (overall == 0 && widest == 0)
            return QStringLiteral("identical");
        QString text = QString::number(overall, 'f', 2) + QLatin1Char('%');
        if (!widestType.isEmpty())
            text += QStringLiteral(" (%1: %2%)").arg(widestType, QString::number(widest, 'f', 2));
        return text;
    });
    // Every server of a timed pass is timed again together, so the first one speaks for all.
    int retimed = 0;
    QStringList slowRepeats;
    for (const RepeatResult &repeat : bundle.server(ids.front())->repeats) {
        retimed += repeat.retimed;
        if (repeat.slowPasses > 0)
            slowRepeats << QString::number(repeat.repeat + 1);
    }
    if (retimed > 0)
        markdown += QStringLiteral("\nTimed passes run again because the machine ran slower than usual during them: %1.")
                        .arg(retimed);
    if (!slowRepeats.isEmpty())
        markdown += QStringLiteral("%1Still slower than usual after every attempt, and kept: repeat %2.")
                        .arg(retimed > 0 ? QStringLiteral(" ") : QStringLiteral("\n"), slowRepeats.join(QStringLiteral(", ")));
    if (retimed > 0 || !slowRepeats.isEmpty())
        markdown += QLatin1Char('\n');
    if (base && ids.size() > 1)
        markdown += QStringLiteral("\nThe change against %1 is taken repeat by repeat: the versions of a repeat are timed "
                                   "side by side, so a change in the machine's own speed between repeats drops out of "
                                   "it.\n").arg(baseline);
    return markdown;
}

} // namespace

QString bundleToMarkdown(const ResultsBundle &bundle)
{
    QStringList ids;
    for (const QString &id : orderedServerIds(bundle)) {
        if (firstOkRepeat(*bundle.server(id)))
            ids << id;
    }
    const QString baseline = baselineId(bundle);
    const ServerRun *base = bundle.server(baseline);
    const bool baseUsable = base && firstOkRepeat(*base);

    QString markdown;
    auto header = [&](const QString &first) { markdown += markdownHeader(first, ids); };
    // One cell: the median and, away from the baseline, its change.
    using Figure = std::function<std::optional<double>(const ServerRun &)>;
    auto cell = [&](const QString &id, const Figure &figure, const QString &missing) {
        const std::optional<double> value = figure(*bundle.server(id));
        if (!value)
            return missing;
        QString result = formatFigure(*value);
        if (baseUsable && id != baseline) {
            if (const std::optional<double> reference = figure(*base); reference && *reference != 0)
                result += QStringLiteral(" (") + formatChange(*value, *reference) + QLatin1Char(')');
        }
        return result;
    };
    auto line = [&](const QString &label, const Figure &figure, const QString &missing = QStringLiteral("—")) {
        QStringList cells{label};
        for (const QString &id : ids)
            cells << cell(id, figure, missing);
        markdown += markdownRow(cells);
    };

    markdown += QStringLiteral("Workload: %1, %2 events, %3 commands. Baseline: %4.\n\n")
                    .arg(bundle.workload.name)
                    .arg(bundle.workload.events)
                    .arg(bundle.workload.commands)
                    .arg(baseline);

    markdown += QStringLiteral("### Memory per stored attribute (bytes per key)\n\n");
    header(QStringLiteral("Attribute"));
    line(QStringLiteral("All attributes"), [](const ServerRun &run) -> std::optional<double> {
        return spreadOver(run, [](const RepeatResult &r) { return r.bytesPerKey; }).median;
    });
    QStringList types = bundle.workload.types;
    for (const QString &id : ids) {
        for (const QString &type : typesOf(bundle, *bundle.server(id))) {
            if (!types.contains(type))
                types << type;
        }
    }
    for (const QString &type : types) {
        line(type, [&type](const ServerRun &run) -> std::optional<double> {
            if (unsupportedType(run, type))
                return std::nullopt;
            return typeSpread(run, type, &TypeMemory::bytesPerKey).median;
        }, QStringLiteral("unsupported"));
    }

    markdown += QStringLiteral("\n### Server time per command (µs per call)\n\n");
    header(QStringLiteral("Command"));
    line(QStringLiteral("All commands"), [](const ServerRun &run) -> std::optional<double> {
        return spreadOver(run, [](const RepeatResult &r) { return r.usecPerCall(); }).median;
    });
    QStringList commands = baseUsable ? commandsOf(*base) : QStringList();
    for (const QString &id : ids) {
        for (const QString &command : commandsOf(*bundle.server(id))) {
            if (!commands.contains(command))
                commands << command;
        }
    }
    for (const QString &command : commands) {
        line(command, [&command](const ServerRun &run) -> std::optional<double> {
            std::vector<double> values;
            for (const RepeatResult &repeat : run.repeats) {
                const auto found = repeat.byCommand.find(command);
                if (isOk(repeat) && found != repeat.byCommand.end())
                    values.push_back(found->second.usecPerCall());
            }
            if (values.empty())
                return std::nullopt;
            return spreadOf(std::move(values)).median;
        });
    }
    line(QStringLiteral("µs per event"), [](const ServerRun &run) -> std::optional<double> {
        return spreadOver(run, [](const RepeatResult &r) { return r.usecPerEvent(); }).median;
    });
    if (bundle.repeats > 1)
        markdown += markdownAcrossRepeats(bundle, ids);
    return markdown;
}
