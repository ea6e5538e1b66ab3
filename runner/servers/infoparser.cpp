#include "infoparser.h"

#include "messagetext.h"

#include <QList>
#include <QStringView>
#include <cmath>
#include <algorithm>
#include <limits>

namespace {

// INFO separates lines with CRLF; section headers start with '#'.
template <typename Visit>
void forEachField(const QString &info, Visit visit)
{
    for (QStringView line : QStringView(info).split(QLatin1Char('\n'))) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            continue;
        visit(line.left(colon), line.mid(colon + 1));
    }
}

} // namespace

std::optional<long long> parseInfoCount(QStringView value)
{
    if (value.isEmpty() || std::any_of(value.begin(), value.end(), [](QChar c) { return c < u'0' || c > u'9'; }))
        return std::nullopt;
    bool ok = false;
    const long long count = value.toLongLong(&ok);
    return ok ? std::optional<long long>(count) : std::nullopt;
}

Outcome<long long> infoCount(const std::map<QString, QString> &fields, const QString &name, const QString &where,
                             std::optional<long long> fallback)
{
    const auto found = fields.find(name);
    if (found == fields.end()) {
        if (fallback)
            return *fallback;
        return Error{QStringLiteral("%1 has no %2").arg(where, name)};
    }
    if (const std::optional<long long> count = parseInfoCount(found->second))
        return *count;
    return Error{QStringLiteral("%1 %2 is %3, not a count from 0 to %4")
                     .arg(where, name, quotedForMessage(found->second, 60))
                     .arg(std::numeric_limits<long long>::max())};
}

std::map<QString, QString> parseInfoFields(const QString &info)
{
    std::map<QString, QString> fields;
    forEachField(info, [&](QStringView name, QStringView value) {
        fields[name.toString()] = value.toString();
    });
    return fields;
}

long long parseErrorCount(const QString &info, QStringView prefix)
{
    static const QLatin1String errorstat("errorstat_");
    static const QLatin1String count("count=");
    long long found = 0;
    forEachField(info, [&](QStringView name, QStringView value) {
        if (!name.startsWith(errorstat) || name.mid(errorstat.size()) != prefix || !value.startsWith(count))
            return;
        const QStringView number = value.mid(count.size());
        const qsizetype comma = number.indexOf(QLatin1Char(','));
        found = (comma < 0 ? number : number.left(comma)).toLongLong();
    });
    return found;
}

std::map<QString, CommandStat> parseCommandStats(const QString &info)
{
    static const QLatin1String prefix("cmdstat_");
    std::map<QString, CommandStat> stats;
    forEachField(info, [&](QStringView name, QStringView value) {
        if (!name.startsWith(prefix))
            return;
        CommandStat stat;
        for (QStringView pair : value.split(QLatin1Char(','))) {
            const qsizetype equals = pair.indexOf(QLatin1Char('='));
            if (equals <= 0)
                continue;
            const QStringView key = pair.left(equals);
            const QStringView number = pair.mid(equals + 1);
            if (key == QLatin1String("calls"))
                stat.calls = number.toLongLong();
            else if (key == QLatin1String("usec"))
                stat.usec = number.toLongLong();
        }
        stats[name.mid(prefix.size()).toString().toLower()] = stat;
    });
    return stats;
}

InfoServer parseInfoServer(const QString &info)
{
    const std::map<QString, QString> fields = parseInfoFields(info);
    auto field = [&](const char *name) {
        const auto it = fields.find(QLatin1String(name));
        return it == fields.end() ? QString() : it->second;
    };
    InfoServer server;
    const QString valkeyVersion = field("valkey_version");
    server.version = valkeyVersion.isEmpty() ? field("redis_version") : valkeyVersion;
    server.product = field("server_name").toLower();
    if (server.product.isEmpty() && !server.version.isEmpty())
        server.product = valkeyVersion.isEmpty() ? QStringLiteral("redis") : QStringLiteral("valkey");
    return server;
}

namespace {

std::optional<long long> countField(const std::map<QString, QString> &fields, const char *name)
{
    const auto found = fields.find(QLatin1String(name));
    bool ok = false;
    const long long value = found == fields.end() ? -1 : found->second.toLongLong(&ok);
    return ok && value >= 0 ? std::optional<long long>(value) : std::nullopt;
}

// "0.013999" seconds -> 13999 µs.
std::optional<long long> secondsFieldUsec(const std::map<QString, QString> &fields, const char *name)
{
    const auto found = fields.find(QLatin1String(name));
    bool ok = false;
    const double seconds = found == fields.end() ? -1 : found->second.toDouble(&ok);
    return ok && seconds >= 0 && seconds < 1e12 ? std::optional<long long>(std::llround(seconds * 1e6)) : std::nullopt;
}

} // namespace

ServerClock parseServerClock(const QString &info)
{
    const std::map<QString, QString> fields = parseInfoFields(info);
    ServerClock clock;
    const std::optional<long long> user = secondsFieldUsec(fields, "used_cpu_user_main_thread");
    const std::optional<long long> sys = secondsFieldUsec(fields, "used_cpu_sys_main_thread");
    if (user && sys)
        clock.mainThreadCpuUsec = *user + *sys;
    clock.eventLoopCycles = countField(fields, "eventloop_cycles");
    clock.eventLoopUsec = countField(fields, "eventloop_duration_sum");
    clock.eventLoopCommandUsec = countField(fields, "eventloop_duration_cmd_sum");
    clock.commandsProcessed = countField(fields, "total_commands_processed");
    return clock;
}
