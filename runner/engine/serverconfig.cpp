#include "serverconfig.h"

#include "serversession.h"

#include <algorithm>

namespace {

Outcome<Reply> command(ServerSession &session, const std::vector<std::string> &args)
{
    return session.connection().command(args);
}

// CONFIG GET name: the value, or nothing when the version has no such setting.
Outcome<std::optional<QString>> currentValue(ServerSession &session, const QString &name)
{
    Outcome<Reply> reply = command(session, {"CONFIG", "GET", name.toStdString()});
    if (!reply)
        return Error{reply.error()};
    if (reply->isError())
        return Error{QString::fromStdString(reply->text)};
    for (size_t i = 0; i + 1 < reply->elements.size(); i += 2) {
        if (QString::fromStdString(reply->elements[i].text).compare(name, Qt::CaseInsensitive) == 0)
            return std::optional<QString>(QString::fromStdString(reply->elements[i + 1].text));
    }
    return std::optional<QString>();
}

bool isStartOnly(const std::string &error)
{
    return error.find("immutable") != std::string::npos || error.find("can't set") != std::string::npos;
}

// CONFIG GET says nothing of which settings are sensitive; the servers flag as sensitive (and
// redact in their logs) requirepass, masterauth and its newer name primaryauth, and the TLS key
// passphrases: every name ending in "auth" or holding "pass" or "secret" is hidden.
bool isSecret(const QString &name)
{
    return name.contains(QLatin1String("pass")) || name.endsWith(QLatin1String("auth")) || name.contains(QLatin1String("secret"));
}

} // namespace

QStringList startArguments(const ServerSettings &settings)
{
    QStringList arguments;
    for (const auto &[name, value] : settings)
        arguments << QStringLiteral("--") + name << value;
    return arguments;
}

ServerConfigOutcome applyServerConfig(ServerSession &session, const ServerSettings &requested,
                                      const ServerSettings &givenAtStart, const QString &serverName)
{
    QStringList atStart;
    for (const auto &setting : givenAtStart)
        atStart << setting.first;
    ServerConfigOutcome outcome;
    for (const auto &[name, value] : requested) {
        Outcome<std::optional<QString>> current = currentValue(session, name);
        if (!current) {
            outcome.refused[name] = QStringLiteral("%1: CONFIG GET %2 failed: %3").arg(serverName, name, current.error());
            continue;
        }
        if (!current->has_value()) {
            outcome.refused[name] = QStringLiteral("not a setting of %1").arg(serverName);
            continue;
        }
        if (atStart.contains(name)) {
            if ((*current.value()) == value)
                outcome.applied[name] = (*current.value());
            else
                outcome.refused[name] = QStringLiteral("%1 started with --%2 %3 but reports %4").arg(serverName, name, value, (*current.value()));
            continue;
        }
        Outcome<Reply> set = command(session, {"CONFIG", "SET", name.toStdString(), value.toStdString()});
        if (set && !set->isError()) {
            Outcome<std::optional<QString>> after = currentValue(session, name);
            outcome.applied[name] = after && after->has_value() ? (*after.value()) : value;
        } else if (set && isStartOnly(set->text)) {
            outcome.startOnly.emplace_back(name, value);
        } else {
            outcome.refused[name] = QStringLiteral("%1 refused %2 %3: %4")
                                        .arg(serverName, name, value, set ? QString::fromStdString(set->text) : set.error());
        }
    }
    return outcome;
}

Outcome<std::map<QString, CommandKind>> commandKinds(RedisConnection &connection, const QStringList &names)
{
    constexpr size_t kFlagsField = 2;
    std::vector<std::string> ask{"COMMAND", "INFO"};
    for (const QString &name : names)
        ask.push_back(name.toStdString());
    const Outcome<Reply> reply = connection.command(ask);
    if (!reply)
        return Error{reply.error()};
    if (reply->isError() || reply->elements.size() != size_t(names.size()))
        return Error{QStringLiteral("%1: COMMAND INFO: %2")
                         .arg(connection.name(), reply->isError() ? QString::fromStdString(reply->text)
                                                                  : QStringLiteral("not one entry per command"))};
    std::map<QString, CommandKind> kinds;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const Reply &entry = reply->elements[size_t(i)];
        if (entry.kind != Reply::Kind::Array || entry.elements.size() <= kFlagsField)
            continue;   // not a command of this server
        CommandKind kind = CommandKind::Neither;
        for (const Reply &flag : entry.elements[kFlagsField].elements) {
            if (flag.text == "write")
                kind = CommandKind::Write;
            else if (flag.text == "readonly" && kind == CommandKind::Neither)
                kind = CommandKind::Read;
        }
        kinds[names[i].toUpper()] = kind;
    }
    return kinds;
}

Outcome<ServerSession::SettingsReading> recordedSettings(ServerSession &session)
{
    Outcome<ServerSession::SettingsReading> settings = session.readSettings();
    if (!settings)
        return settings;
    for (auto &[name, value] : settings->settings) {
        if (isSecret(name) && !value.isEmpty())
            value = QStringLiteral("(hidden)");
    }
    return settings;
}

namespace {

// The settings --server-config accepts: only those that change how data is stored or how long
// commands take, the ones a version comparison needs to tell a code change from a default.
// An allow-list: anything else (daemonize, replicaof, cluster-config-file, pidfile, supervised,
// dir, logfile, …) could make a launched server outlive the run, write outside its folder or
// talk to a server outside the run. A name ending in '*' stands for every name it begins.
const QStringList &acceptedSettings()
{
    static const QStringList names{
        // encodings and their thresholds
        QStringLiteral("hash-max-listpack-*"), QStringLiteral("hash-max-ziplist-*"), QStringLiteral("set-max-intset-entries"),
        QStringLiteral("set-max-listpack-*"), QStringLiteral("zset-max-listpack-*"), QStringLiteral("zset-max-ziplist-*"),
        QStringLiteral("list-max-listpack-size"), QStringLiteral("list-max-ziplist-size"), QStringLiteral("list-compress-depth"),
        QStringLiteral("stream-node-max-bytes"), QStringLiteral("stream-node-max-entries"), QStringLiteral("hll-sparse-max-bytes"),
        QStringLiteral("hash-seed"),
        // freeing, expiring, rehashing and defragmenting
        QStringLiteral("lazyfree-lazy-*"), QStringLiteral("activerehashing"), QStringLiteral("activedefrag"),
        QStringLiteral("active-defrag-*"), QStringLiteral("active-expire-effort"), QStringLiteral("jemalloc-bg-thread"),
        // the server's clock and threads
        QStringLiteral("hz"), QStringLiteral("dynamic-hz"), QStringLiteral("io-threads"), QStringLiteral("io-threads-do-reads"),
        QStringLiteral("prefetch-batch-max-size"),
        // memory limits and eviction
        QStringLiteral("maxmemory"), QStringLiteral("maxmemory-policy"), QStringLiteral("maxmemory-samples"),
        QStringLiteral("maxmemory-eviction-tenacity"), QStringLiteral("lfu-log-factor"), QStringLiteral("lfu-decay-time"),
    };
    return names;
}

bool isAcceptedSetting(const QString &name)
{
    for (const QString &accepted : acceptedSettings()) {
        if (accepted.endsWith(QLatin1Char('*')) ? name.startsWith(accepted.chopped(1)) && name.size() >= accepted.size()
                                                : name == accepted)
            return true;
    }
    return false;
}

// Every accepted value is a number, a size ("100mb"), a word ("allkeys-lru", "yes") or a
// hash seed: nothing with spaces, quotes or line breaks reaches a server's command line.
bool isPlainValue(const QString &value)
{
    if (value.isEmpty() || value.size() > 64)
        return false;
    return std::all_of(value.begin(), value.end(), [](QChar c) {
        return (c.unicode() < 128 && c.isLetterOrNumber()) || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.');
    });
}

} // namespace

QString acceptedSettingsText()
{
    return acceptedSettings().join(QStringLiteral(", "));
}

Outcome<std::pair<QString, QString>> parseServerSetting(const QString &text, const QString &origin)
{
    const int equals = text.indexOf(QLatin1Char('='));
    const QString name = text.left(equals).trimmed().toLower();
    if (equals <= 0 || name.isEmpty())
        return Error{QStringLiteral("%1: expected name=value, got '%2'").arg(origin, text.left(64))};
    for (const QChar c : name) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')))
            return Error{QStringLiteral("%1: '%2' is not a setting name").arg(origin, name.left(64))};
    }
    static const QStringList managed{QStringLiteral("port"), QStringLiteral("bind"), QStringLiteral("dir"),
                                     QStringLiteral("requirepass"), QStringLiteral("latency-tracking"),
                                     QStringLiteral("unixsocket"), QStringLiteral("pidfile"), QStringLiteral("logfile")};
    if (managed.contains(name))
        return Error{QStringLiteral("%1: Versus sets %2 itself on the servers it launches").arg(origin, name)};
    // The value is never repeated: a refused setting may be a password (masterauth=…).
    if (!isAcceptedSetting(name))
        return Error{QStringLiteral("%1: %2 is not accepted: only settings that change how data is stored or timed are "
                                    "(%3)")
                         .arg(origin, name.left(64), acceptedSettingsText())};
    const QString value = text.mid(equals + 1).trimmed();
    if (!isPlainValue(value))
        return Error{QStringLiteral("%1: the value of %2 must be 1 to 64 letters, digits, '.', '_' or '-'").arg(origin, name)};
    return std::make_pair(name, value);
}
