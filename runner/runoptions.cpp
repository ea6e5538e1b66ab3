#include "runoptions.h"

#include "redisconnection.h"
#include "servercatalog.h"
#include "workloadfactory.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace {

Outcome<ServerSpec> resolveServer(ServerCatalog &catalog, const QString &entry)
{
    static const QRegularExpression hostPort(QStringLiteral("^[^/:\\s]+:\\d+$"));
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
        return Error{QStringLiteral("--servers: %1 cannot be used: %2").arg(entry, found->status)};
    return found->spec;
}

// Asks an endpoint who it is before anything runs, so a wrong port, a missing or wrong password
// is bad input (exit 2) rather than a failed server. Only reads: INFO server. An endpoint that
// cannot be reached at all is left to the run, which reports it as a failed server.
Status checkEndpoint(const ServerSpec &spec)
{
    RedisConnection connection;
    if (!connection.connectTcp(spec.host, spec.port, 3000, spec.label))
        return Status::success();
    if (!spec.password.isEmpty()) {
        const QByteArray utf8 = spec.password.toUtf8();
        Outcome<Reply> auth = connection.command({"AUTH", std::string(utf8.constData(), size_t(utf8.size()))});
        if (!auth)
            return Error{QStringLiteral("--servers: %1 did not answer like a Valkey or Redis server (%2)").arg(spec.label, auth.error())};
        if (auth->isError())
            return Error{QStringLiteral("--servers: %1: the password was rejected: %2")
                             .arg(spec.label, QString::fromStdString(auth->text))};
    }
    Outcome<Reply> info = connection.command({"INFO", "server"});
    if (!info)
        return Error{QStringLiteral("--servers: %1 did not answer like a Valkey or Redis server (%2)").arg(spec.label, info.error())};
    const QString text = QString::fromStdString(info->text);
    if (info->isError() && (text.startsWith(QLatin1String("NOAUTH")) || text.contains(QLatin1String("Authentication required"))))
        return Error{QStringLiteral("--servers: %1 needs a password; give it with --password (%2)").arg(spec.label, text)};
    if (info->isError())
        return Status::success();   // INFO renamed or refused by ACL: the run says what it cannot do
    if (!text.contains(QLatin1String("redis_version:")))
        return Error{QStringLiteral("--servers: %1 is not a Valkey or Redis server (INFO server has no redis_version)").arg(spec.label)};
    return Status::success();
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
                                                   "or host:port endpoints. Default: every Valkey version in the catalog."),
         QStringLiteral("list")},
        {QStringLiteral("workload"), QStringLiteral("ecommerce (default), hash-ttl, or a file (events JSONL, MONITOR "
                                                    "output, command file, raw RESP)."),
         QStringLiteral("name|file"), QStringLiteral("ecommerce")},
        {QStringLiteral("attributes"), QStringLiteral("Attribute configuration for the ecommerce workload."), QStringLiteral("file")},
        {QStringLiteral("events"), QStringLiteral("Generate this many events instead of the built-in recording."), QStringLiteral("n")},
        {QStringLiteral("set"), QStringLiteral("Workload parameter, repeatable: --set keys=20000."), QStringLiteral("name=value")},
        {QStringLiteral("repeat"), QStringLiteral("Repeats, each on freshly started servers, interleaved across versions; under the fair schedule a timed pass during which the machine ran slower than usual is timed again (default 1)."), QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("schedule"), QStringLiteral("fair (default: one server executes at a time, on a CPU of its own) or concurrent."),
         QStringLiteral("fair|concurrent"), QStringLiteral("fair")},
        {QStringLiteral("batch"), QStringLiteral("Events per pipeline (default 1, as an application sends them)."), QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("timeout"), QStringLiteral("Milliseconds a server may stay silent before it is marked failed (default 10000)."),
         QStringLiteral("ms"), QStringLiteral("10000")},
        {QStringLiteral("allow-flush"), QStringLiteral("Allow flushing host:port endpoints Versus did not launch. Their data is deleted.")},
        {QStringLiteral("password"), QStringLiteral("AUTH password for host:port endpoints."), QStringLiteral("password")},
        {QStringLiteral("lenient"), QStringLiteral("Skip and count malformed capture lines instead of failing.")},
        {QStringLiteral("out"), QStringLiteral("Write the results bundle (JSON) here."), QStringLiteral("bundle.json")},
    });
}

Outcome<RunPlan> runPlanFromParser(const QCommandLineParser &parser)
{
    RunPlan plan;
    RunRequest &request = plan.request;

    Outcome<int> repeats = positiveInt(parser, QStringLiteral("repeat"), 1);
    if (!repeats)
        return Error{repeats.error()};
    request.repeats = repeats.value();
    Outcome<int> batch = positiveInt(parser, QStringLiteral("batch"), 1);
    if (!batch)
        return Error{batch.error()};
    request.eventsPerBatch = batch.value();
    Outcome<int> timeout = positiveInt(parser, QStringLiteral("timeout"), 10000);
    if (!timeout)
        return Error{timeout.error()};
    request.commandTimeoutMs = timeout.value();

    request.schedule = parser.value(QStringLiteral("schedule"));
    if (request.schedule != QLatin1String("fair") && request.schedule != QLatin1String("concurrent"))
        return Error{QStringLiteral("--schedule: expected fair or concurrent, got '%1'").arg(request.schedule)};
    request.allowFlush = parser.isSet(QStringLiteral("allow-flush"));

    std::map<QString, QString> parameters;
    for (const QString &assignment : parser.values(QStringLiteral("set"))) {
        const int equals = assignment.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return Error{QStringLiteral("--set: expected name=value, got '%1'").arg(assignment)};
        parameters[assignment.left(equals)] = assignment.mid(equals + 1);
    }
    long long events = 0;
    if (parser.isSet(QStringLiteral("events"))) {
        bool ok = false;
        events = parser.value(QStringLiteral("events")).toLongLong(&ok);
        if (!ok || events < 1)
            return Error{QStringLiteral("--events: expected a positive number, got '%1'").arg(parser.value(QStringLiteral("events")))};
    }
    Outcome<std::shared_ptr<Workload>> workload =
        makeWorkload(parser.value(QStringLiteral("workload")), parameters, parser.value(QStringLiteral("attributes")),
                     events, parser.isSet(QStringLiteral("lenient")));
    if (!workload)
        return Error{workload.error()};
    request.workload = workload.value();

    ServerCatalog catalog;
    catalog.discover();
    if (parser.isSet(QStringLiteral("servers"))) {
        const QStringList entries = parser.value(QStringLiteral("servers")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        for (const QString &raw : entries) {
            Outcome<ServerSpec> spec = resolveServer(catalog, raw.trimmed());
            if (!spec)
                return Error{spec.error()};
            ServerSpec server = spec.value();
            if (server.isEndpoint) {
                server.password = parser.value(QStringLiteral("password"));
                if (!request.allowFlush)
                    return Error{QStringLiteral("--servers: %1 is an endpoint Versus does not launch; the run flushes it, "
                                                "so it is refused unless --allow-flush is given")
                                     .arg(raw.trimmed())};
                Status reachable = checkEndpoint(server);
                if (!reachable)
                    return Error{reachable.error()};
            }
            for (const ServerSpec &earlier : request.servers) {
                if (earlier.label == server.label)
                    return Error{QStringLiteral("--servers: %1 is listed twice").arg(server.label)};
            }
            request.servers.push_back(server);
        }
    } else {
        request.servers = catalog.defaultSelection();
        if (request.servers.empty())
            return Error{QStringLiteral("no Valkey server found in %1 or on PATH; run scripts/fetch-servers or pass --servers")
                             .arg(ServerCatalog::defaultCacheDir())};
    }

    plan.bundlePath = parser.value(QStringLiteral("out"));
    return plan;
}
