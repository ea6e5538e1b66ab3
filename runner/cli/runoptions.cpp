#include "runoptions.h"

#include "buildconsole.h"
#include "endpointconsent.h"
#include "endpointpassword.h"
#include "endpointprobe.h"
#include "topologyspecs.h"
#include "redisconnection.h"
#include "servercatalog.h"
#include "serverconfig.h"
#include "sweepoptions.h"
#include "tlsoptions.h"
#include "workloadfactory.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <optional>

namespace {

// src:PATH, a source tree or tarball: built into the cache (once), then taken from there.
Outcome<ServerSpec> builtFromSource(ServerCatalog &catalog, const QString &path)
{
    const QString expanded = path.startsWith(QLatin1String("~/")) ? QDir::homePath() + path.mid(1) : path;
    const Outcome<BuiltServer> built = buildWithConsoleProgress(expanded, stderr);
    if (!built)
        return Error{QStringLiteral("--servers: src:%1: %2").arg(path, built.error())};
    catalog.discover();
    const CatalogEntry *found = catalog.find(built->label);
    if (!found)
        return Error{QStringLiteral("--servers: src:%1 was built as %2, which the catalog does not list").arg(path, built->label)};
    if (!found->usable())
        return Error{QStringLiteral("--servers: %1 cannot be used: %2").arg(built->label, found->problem)};
    return found->spec;
}

Outcome<ServerSpec> resolveServer(ServerCatalog &catalog, const QString &entry)
{
    if (entry.startsWith(QLatin1String("src:")))
        return builtFromSource(catalog, entry.mid(4));
    // host:port, IPv4:port or [IPv6]:port; ServerCatalog::parseEndpoint checks the parts.
    static const QRegularExpression hostPort(QStringLiteral("^(?:\\[[^/\\s\\]]*\\]|[^/:\\s\\[\\]]+):\\d+$"));
    if (entry.contains(QLatin1Char('/')))
        return catalog.addBinary(entry);
    if (hostPort.match(entry).hasMatch())
        return ServerCatalog::parseEndpoint(entry);
    const CatalogEntry *found = catalog.find(entry);
    if (!found) {
        QStringList known;
        for (const CatalogEntry &candidate : catalog.entries())
            known << candidate.spec.label;
        return Error{QStringLiteral("--servers: unknown server '%1'; known: %2 (or give a binary path or host:port)")
                         .arg(entry, known.isEmpty() ? QStringLiteral("none, run scripts/fetch-servers") : known.join(QStringLiteral(", ")))};
    }
    if (!found->usable())
        return Error{QStringLiteral("--servers: %1 cannot be used: %2").arg(entry, found->problem)};
    return found->spec;
}

// The default servers are the upstream release builds where the cache has them. Where it does
// not, the run measures Debian's packages, whose jemalloc quantum is not the one most deployments
// run: said before the run, with how to get the upstream builds.
QString debianPackagesNotice(const std::vector<ServerSpec> &servers)
{
    QStringList debian;
    for (const ServerSpec &spec : servers) {
        if (spec.origin.kind == BuildKind::DebianPackage)
            debian << spec.label;
    }
    if (debian.isEmpty())
        return QString();
    return QStringLiteral("%1 %2 Debian's package%3 (system jemalloc, 16-byte quantum), not the upstream release build most "
                          "deployments run (8-byte quantum); scripts/fetch-servers --upstream builds those (a few minutes each), "
                          "and later runs take them by default")
        .arg(debian.join(QStringLiteral(", ")), debian.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
             debian.size() == 1 ? QString() : QStringLiteral("s"));
}

// Asks an endpoint who it is before anything runs, so a wrong port, a missing or wrong password
// is bad input (exit 2) rather than a failed server. An endpoint that cannot be reached at all
// is left to the run, which reports it as a failed server: then there is no probe.
Outcome<std::optional<EndpointProbe>> checkEndpoint(const ServerSpec &spec)
{
    RedisConnection connection;
    if (Status connected = connection.connectTcp(spec.host, spec.port, 3000, spec.label, spec.tls); !connected) {
        // Over TLS a server that takes the TCP connection and fails the handshake is reachable:
        // its certificate, CA or port is the input at fault.
        if (spec.tls.enabled && connection.connectTcp(spec.host, spec.port, 3000, spec.label))
            return Error{QStringLiteral("--servers: %1").arg(connected.error())};
        return std::optional<EndpointProbe>();
    }
    connection.close();
    const Outcome<EndpointProbe> probe = probeEndpoint(spec, 3000, howToGivePassword());
    if (!probe)
        return Error{QStringLiteral("--servers: %1").arg(probe.error())};
    // A refused INFO is the login at fault (bad input); a server without a version is left to the run.
    if (!probe->infoRefusal.isEmpty())
        return Error{QStringLiteral("--servers: %1").arg(probe->unmeasurableBecause(spec.label))};
    return std::optional<EndpointProbe>(probe.value());
}

// Without --allow-flush an endpoint is refused, saying what the run would do to it.
Status consentTo(const QString &name, const std::optional<EndpointProbe> &probe, bool allowFlush, QStringList &notices)
{
    const QString lost = probe ? whatIsLost(*probe) : QStringLiteral("it holds an unknown number of keys (it did not answer)");
    if (allowFlush) {
        notices << QStringLiteral("%1 (--allow-flush): %2; %3").arg(name, irreversibleEffects(probe ? &*probe : nullptr), lost);
        return Status::success();
    }
    return Error{QStringLiteral("--servers: %1 is an endpoint Versus does not launch, and a run there cannot be undone: %2. "
                                "%3. Refused unless --allow-flush is given")
                     .arg(name, irreversibleEffects(probe ? &*probe : nullptr), lost.left(1).toUpper() + lost.mid(1))};
}

Outcome<int> positiveInt(const QCommandLineParser &parser, const QString &name, int fallback)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < 1)
        return Error{QStringLiteral("--%1: expected a whole number of at least 1, got '%2'").arg(name, parser.value(name))};
    return value;
}

} // namespace

void addRunOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("servers"), QStringLiteral("Comma-separated servers: catalog labels (valkey-8.0.1), binary paths, "
                                                   "src:PATH (a source tree or release tarball, built first: see versus build), "
                                                   "or host:port endpoints. Default: every Valkey version in the catalog."),
         QStringLiteral("list")},
        {QStringLiteral("topology"),
         QStringLiteral("Run each launched server standalone (default) and/or as a cluster of N primaries launched on this "
                        "machine, each its own series: standalone,cluster:1 compares a version with itself. cluster is "
                        "cluster:3. Endpoints run as they are."),
         QStringLiteral("list"), QStringLiteral("standalone")},
        {QStringLiteral("workload"), QStringLiteral("ecommerce (default), hash-ttl, or a file (events JSONL, MONITOR "
                                                    "output, command file, raw RESP)."),
         QStringLiteral("name|file"), QStringLiteral("ecommerce")},
        {QStringLiteral("attributes"), QStringLiteral("Attribute configuration for the ecommerce workload."), QStringLiteral("file")},
        {QStringLiteral("events"), QStringLiteral("Generate this many events instead of the built-in recording."), QStringLiteral("n")},
        {QStringLiteral("set"), QStringLiteral("Workload parameter, repeatable: --set keys=20000. ecommerce: seed, shoppers, "
                                                  "hash-tag=shopper|none; hash-ttl: keys, value-size, ttl, hash-tag=user|none."), QStringLiteral("name=value")},
        {QStringLiteral("sweep"),
         QStringLiteral("Run the workload at each of these values of one of its parameters (one --sweep), on every "
                        "server, all in one bundle: --sweep value-size=16,64,256. batch sweeps the events per pipeline "
                        "for any workload (--sweep batch=1,16,256; 1 to 10000, not with --batch). N values cost N runs."),
         QStringLiteral("name=v1,v2,...")},
        {QStringLiteral("repeat"), QStringLiteral("Repeats, each on freshly started servers, interleaved across versions (default 1). With 5 or more, changes get a 95% interval taken repeat by repeat."), QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("schedule"), QStringLiteral("fair (default: one server executes at a time, on a CPU of its own) or concurrent."),
         QStringLiteral("fair|concurrent"), QStringLiteral("fair")},
        {QStringLiteral("batch"), QStringLiteral("Events per pipeline (default 1, as an application sends them)."), QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("clients"),
         QStringLiteral("Replay connections per server (per primary of a cluster), each sending its events' pipelines "
                        "one after another as an application's client does; one key's commands always go through "
                        "the same one (default %1, at most %2).").arg(RunRequest().clients).arg(RunRequest::kMostClients),
         QStringLiteral("n"), QString::number(RunRequest().clients)},
        {QStringLiteral("timeout"), QStringLiteral("Milliseconds a server may stay silent before it is marked failed (default 10000)."),
         QStringLiteral("ms"), QStringLiteral("10000")},
        {QStringLiteral("allow-flush"),
         QStringLiteral("Allow runs on host:port endpoints Versus did not launch. What it does there cannot be undone: every key "
                        "of every database is deleted (FLUSHALL, before each pass and at the end; its replicas, and its RDB "
                        "or AOF file when it persists, lose them too), and its statistics are reset (CONFIG RESETSTAT: INFO stats counters, "
                        "commandstats, errorstats, latency histograms). Each endpoint's keys, database by database, are "
                        "printed before the run, and in the refusal without this option. latency-tracking, which Versus "
                        "turns off for the run, is put back at the end, and so is every function library the workload "
                        "loaded or replaced (one another client changes during the run is kept), also after a failure, a "
                        "cancel or Ctrl-C. On a server that refuses CONFIG (a managed service) only the keys are deleted: "
                        "its statistics and settings are left as they are, and the figures say how it was measured.")},
        {QStringLiteral("lenient"), QStringLiteral("Skip and count malformed capture lines instead of failing.")},
        {QStringLiteral("server-config"),
         QStringLiteral("Apply this setting to every launched server (repeatable), e.g. hash-max-listpack-entries=64, to "
                        "tell a code change from a change of default. Only settings that change how data is stored or "
                        "timed are accepted, with plain values: %1; anything else is refused before anything starts. "
                        "Set with CONFIG SET, or given at start when the server takes it only then; a setting a version "
                        "does not have (its CONFIG GET does not know it) is reported for that server. Endpoints are left "
                        "as they are. The bundle records what each server took.")
             .arg(acceptedSettingsText()),
         QStringLiteral("name=value")},
        {QStringLiteral("self-check"),
         QStringLiteral("Run the first server's build a second time, on a server of its own, as a series of its own "
                        "(\"Valkey 9.1.2 (self-check)\"), interleaved like the others: the smallest change in time per "
                        "command it resolves is this machine's noise floor, quoted beside every time verdict and "
                        "recorded in the bundle. Needs --repeat 2 or more for a floor; never compared as a version.")},
        {QStringLiteral("profile"),
         QStringLiteral("After every server's timed passes, replay the workload once more into each launched server, untimed, "
                        "under perf record (cpu-clock, 499 Hz) and fold its samples into categories (command execution, hash "
                        "table lookups, memory allocation, networking and system calls, …) with the build's symbol status. "
                        "Never touches the timed figures. Where perf is missing or refused, the run goes on and says why.")},
        {QStringLiteral("out"), QStringLiteral("Write the results bundle (JSON) here."), QStringLiteral("bundle.json")},
    });
    addPasswordOptions(parser);
    addTlsOptions(parser);
}

namespace {

// --repeat, --batch, --clients, --timeout, --schedule, --allow-flush and --profile.
Status readRunSettings(const QCommandLineParser &parser, RunRequest &request)
{
    Outcome<int> repeats = positiveInt(parser, QStringLiteral("repeat"), 1);
    if (!repeats)
        return Error{repeats.error()};
    request.repeats = repeats.value();
    Outcome<int> batch = positiveInt(parser, QStringLiteral("batch"), 1);
    if (!batch)
        return Error{batch.error()};
    request.eventsPerBatch = batch.value();
    Outcome<int> clients = positiveInt(parser, QStringLiteral("clients"), RunRequest().clients);
    if (!clients)
        return Error{clients.error()};
    if (clients.value() > RunRequest::kMostClients)
        return Error{QStringLiteral("--clients: at most %1, got %2").arg(RunRequest::kMostClients).arg(clients.value())};
    request.clients = clients.value();
    Outcome<int> timeout = positiveInt(parser, QStringLiteral("timeout"), 10000);
    if (!timeout)
        return Error{timeout.error()};
    request.commandTimeoutMs = timeout.value();
    const QString schedule = parser.value(QStringLiteral("schedule"));
    if (schedule == QLatin1String("fair"))
        request.schedule = Schedule::Fair;
    else if (schedule == QLatin1String("concurrent"))
        request.schedule = Schedule::Concurrent;
    else
        return Error{QStringLiteral("--schedule: expected fair or concurrent, got '%1'").arg(schedule)};
    request.allowFlush = parser.isSet(QStringLiteral("allow-flush"));
    request.profile = parser.isSet(QStringLiteral("profile"));
    for (const QString &setting : parser.values(QStringLiteral("server-config"))) {
        Outcome<std::pair<QString, QString>> parsed = parseServerSetting(setting);
        if (!parsed)
            return Error{parsed.error()};
        request.serverConfig.push_back(parsed.value());
    }
    return Status::success();
}

// The --set parameters.
Outcome<std::map<QString, QString>> parametersFromParser(const QCommandLineParser &parser)
{
    std::map<QString, QString> parameters;
    for (const QString &assignment : parser.values(QStringLiteral("set"))) {
        const int equals = assignment.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return Error{QStringLiteral("--set: expected name=value, got '%1'").arg(assignment)};
        parameters[assignment.left(equals)] = assignment.mid(equals + 1);
    }
    return parameters;
}

// --workload with `parameters`, --attributes, --events and --lenient.
Outcome<std::shared_ptr<Workload>> workloadFromParser(const QCommandLineParser &parser,
                                                      const std::map<QString, QString> &parameters)
{
    long long events = 0;
    if (parser.isSet(QStringLiteral("events"))) {
        bool ok = false;
        events = parser.value(QStringLiteral("events")).toLongLong(&ok);
        if (!ok || events < 1)
            return Error{QStringLiteral("--events: expected a positive number, got '%1'").arg(parser.value(QStringLiteral("events")))};
    }
    return makeWorkload(parser.value(QStringLiteral("workload")), parameters, parser.value(QStringLiteral("attributes")),
                        events, parser.isSet(QStringLiteral("lenient")));
}

// The workload, or with --sweep one workload per point (the first one is the plan's workload).
Status workloadsFromParser(const QCommandLineParser &parser, RunPlan &plan)
{
    const Outcome<std::map<QString, QString>> parameters = parametersFromParser(parser);
    if (!parameters)
        return Error{parameters.error()};
    const Outcome<SweepValues> sweep =
        parseSweep(parser.values(QStringLiteral("sweep")), parser.value(QStringLiteral("workload")), parameters.value(),
                   parser.isSet(QStringLiteral("batch")));
    if (!sweep)
        return Error{sweep.error()};
    if (sweep->parameter.isEmpty()) {
        Outcome<std::shared_ptr<Workload>> workload = workloadFromParser(parser, parameters.value());
        if (!workload)
            return Error{workload.error()};
        plan.request.workload = workload.value();
        return Status::success();
    }
    Outcome<SweepRequest> request = sweepRequest(sweep.value(), parameters.value(),
                                                 [&parser](const std::map<QString, QString> &at) {
                                                     return workloadFromParser(parser, at);
                                                 });
    if (!request)
        return Error{request.error()};
    plan.request.workload = request->points.front().workload;
    plan.sweep = request.value();
    return Status::success();
}

// One --servers entry that names an endpoint: its password, what it holds, the consent.
Outcome<std::optional<EndpointProbe>> prepareEndpoint(const QCommandLineParser &parser, ServerSpec &server,
                                                     std::optional<EndpointPassword> &password, RunPlan &plan)
{
    if (!password) {
        Outcome<EndpointPassword> read = readEndpointPassword(parser);
        if (!read)
            return Error{read.error()};
        password = read.value();
        plan.notices << password->notices;
    }
    server.user = password->user;
    server.password = password->password;
    server.authOtherNodes = parser.isSet(QStringLiteral("allow-cluster-auth"));
    Outcome<std::optional<EndpointProbe>> probe = checkEndpoint(server);
    if (!probe)
        return probe;
    if (Status consent = consentTo(server.label, probe.value(), plan.request.allowFlush, plan.notices); !consent)
        return Error{consent.error()};
    return probe;
}

// --topology: every launched server once per topology; then, with --self-check, the first one again.
Status inTopologies(const QCommandLineParser &parser, RunRequest &request)
{
    const Outcome<std::vector<Topology>> topologies = parseTopologies(parser.value(QStringLiteral("topology")));
    if (!topologies)
        return Error{QStringLiteral("--topology: %1").arg(topologies.error())};
    Outcome<std::vector<ServerSpec>> specs = specsInTopologies(request.servers, topologies.value());
    if (!specs)
        return Error{QStringLiteral("--topology: %1").arg(specs.error())};
    request.servers = std::move(specs.value());
    if (!parser.isSet(QStringLiteral("self-check")))
        return Status::success();
    Outcome<std::vector<ServerSpec>> checked = specsWithSelfCheck(std::move(request.servers));
    if (!checked)
        return Error{QStringLiteral("--self-check: %1").arg(checked.error())};
    request.servers = std::move(checked.value());
    return Status::success();
}

// --tls on every server: endpoints are reached as the options say, launched servers are
// launched TLS-only. The options beyond --tls are for endpoints alone.
Status withTls(const QCommandLineParser &parser, const TlsChoice &choice, RunPlan &plan)
{
    if (!choice.settings.enabled)
        return Status::success();
    bool anyEndpoint = false;
    TlsSettings launched;
    launched.enabled = true;
    for (ServerSpec &server : plan.request.servers) {
        anyEndpoint = anyEndpoint || server.isEndpoint;
        if (!server.isEndpoint)
            server.tls = launched;
    }
    if (!anyEndpoint && hasEndpointTlsOptions(parser))
        return Error{QStringLiteral("--cacert, --cert, --key, --sni and --insecure are for host:port endpoints; launched "
                                    "servers get a throwaway certificate of the run, which Versus checks")};
    if (anyEndpoint)
        plan.notices << choice.notices;
    return Status::success();
}

// --servers (or every Valkey version of the catalog); for endpoints their password, consent
// and identity (one server named twice is refused).
Status serversFromParser(const QCommandLineParser &parser, RunPlan &plan)
{
    RunRequest &request = plan.request;
    if (Status passwordOptions = checkPasswordOptions(parser); !passwordOptions)
        return passwordOptions;
    const Outcome<TlsChoice> tls = tlsChoiceFromParser(parser);
    if (!tls)
        return Error{tls.error()};
    ServerCatalog catalog;
    catalog.discover();
    if (!parser.isSet(QStringLiteral("servers"))) {
        request.servers = catalog.defaultSelection();
        if (request.servers.empty())
            return Error{QStringLiteral("no Valkey server found in %1 or on PATH; run scripts/fetch-servers or pass --servers")
                             .arg(ServerCatalog::defaultCacheDir())};
        if (const QString notice = debianPackagesNotice(request.servers); !notice.isEmpty())
            plan.notices << notice;
        if (Status secured = withTls(parser, tls.value(), plan); !secured)
            return secured;
        return inTopologies(parser, request);
    }
    std::optional<EndpointPassword> password;
    std::vector<NamedProbe> probes;
    const QStringList entries = parser.value(QStringLiteral("servers")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &raw : entries) {
        Outcome<ServerSpec> spec = resolveServer(catalog, raw.trimmed());
        if (!spec)
            return Error{spec.error()};
        ServerSpec server = spec.value();
        for (const ServerSpec &earlier : request.servers) {
            if (earlier.label == server.label)
                return Error{QStringLiteral("--servers: %1 is listed twice").arg(server.label)};
        }
        if (server.isEndpoint) {
            server.tls = tls->settings;
            Outcome<std::optional<EndpointProbe>> probe = prepareEndpoint(parser, server, password, plan);
            if (!probe)
                return Error{probe.error()};
            if (probe.value())
                probes.push_back({server.label, *probe.value()});
            if (probe.value())
                describeEndpoint(server, *probe.value());
        }
        request.servers.push_back(server);
    }
    if (Status distinct = refuseSameServerTwice(probes); !distinct)
        return Error{QStringLiteral("--servers: %1").arg(distinct.error())};
    if (Status secured = withTls(parser, tls.value(), plan); !secured)
        return secured;
    return inTopologies(parser, request);
}

} // namespace

Outcome<RunPlan> runPlanFromParser(const QCommandLineParser &parser)
{
    RunPlan plan;
    if (Status settings = readRunSettings(parser, plan.request); !settings)
        return Error{settings.error()};
    if (Status workloads = workloadsFromParser(parser, plan); !workloads)
        return Error{workloads.error()};
    if (Status servers = serversFromParser(parser, plan); !servers)
        return Error{servers.error()};
    if (plan.sweep)
        plan.sweep->run = plan.request;
    plan.bundlePath = parser.value(QStringLiteral("out"));
    return plan;
}
