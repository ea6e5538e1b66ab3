#include "endpointprobe.h"

#include "infoparser.h"
#include "redisconnection.h"

namespace {

bool needsPassword(const QString &reply)
{
    return reply.startsWith(QLatin1String("NOAUTH")) || reply.contains(QLatin1String("Authentication required"));
}

} // namespace

Outcome<EndpointProbe> probeEndpoint(const ServerSpec &spec, int timeoutMs)
{
    EndpointProbe probe;
    probe.where = QStringLiteral("%1:%2").arg(spec.host).arg(spec.port);
    const QString name = spec.label.isEmpty() ? probe.where : spec.label;
    RedisConnection connection;
    if (Status connected = connection.connectTcp(spec.host, spec.port, timeoutMs, name); !connected)
        return Error{connected.error()};
    if (!spec.password.isEmpty()) {
        const QByteArray utf8 = spec.password.toUtf8();
        Outcome<Reply> auth = connection.command({"AUTH", std::string(utf8.constData(), size_t(utf8.size()))});
        if (!auth)
            return Error{QStringLiteral("%1 did not answer like a Valkey or Redis server (%2)").arg(name, auth.error())};
        if (auth->isError())
            return Error{QStringLiteral("%1: the password was rejected: %2").arg(name, QString::fromStdString(auth->text))};
    }
    Outcome<Reply> info = connection.command({"INFO", "server"});
    if (!info)
        return Error{QStringLiteral("%1 did not answer like a Valkey or Redis server (%2)").arg(name, info.error())};
    const QString text = QString::fromStdString(info->text);
    if (info->isError() && needsPassword(text))
        return Error{QStringLiteral("%1 needs a password; give it with --password (%2)").arg(name, text)};
    if (!info->isError()) {
        if (!text.contains(QLatin1String("redis_version:")))
            return Error{QStringLiteral("%1 is not a Valkey or Redis server (INFO server has no redis_version)").arg(name)};
        const InfoServer identity = parseInfoServer(text);
        probe.product = identity.product;
        probe.version = identity.version;
    }
    Outcome<Reply> size = connection.command({"DBSIZE"});
    if (size && size->kind == Reply::Kind::Integer)
        probe.keys = size->integer;
    return probe;
}
