// Release-note candidates: for a command whose time changed beyond the noise rule between two
// versions, the entries of the newer one's release notes since the older that name the command
// or its data type. They are what to read first, not the cause: an entry naming HSET may have
// nothing to do with HSET's time, and the cause may be in an entry naming neither.

#include "figuresdata.h"
#include "presentation.h"

#include <QRegularExpression>
#include <QVersionNumber>

namespace {

// The data type of a command as the server's COMMAND INFO groups it ("hash", "sorted_set"…),
// for the commands Versus's workloads send and their kin; none for keyspace commands (EXPIRE,
// DEL), which belong to every type.
QString releaseNoteTypeOf(const QString &command)
{
    static const std::map<QString, QStringList> byType = {
        {QStringLiteral("hash"), {"hset", "hsetnx", "hget", "hmset", "hmget", "hdel", "hgetall", "hincrby", "hincrbyfloat",
                                  "hexists", "hlen", "hkeys", "hvals", "hscan", "hstrlen", "hrandfield", "hsetex", "hgetex",
                                  "hgetdel", "hexpire", "hpexpire", "hexpireat", "hpexpireat", "httl", "hpttl",
                                  "hpersist", "hexpiretime", "hpexpiretime"}},
        {QStringLiteral("sorted set"), {"zadd", "zincrby", "zrem", "zremrangebyrank", "zremrangebyscore", "zremrangebylex",
                                        "zrange", "zrevrange", "zrangebyscore", "zrevrangebyscore", "zcard", "zcount",
                                        "zscore", "zmscore", "zrank", "zrevrank", "zpopmin", "zpopmax", "zscan", "zunionstore",
                                        "zinterstore", "zrangestore"}},
        {QStringLiteral("set"), {"sadd", "srem", "sismember", "smismember", "smembers", "scard", "spop", "srandmember",
                                 "sscan", "smove", "sinter", "sinterstore", "sintercard", "sunion", "sunionstore", "sdiff",
                                 "sdiffstore"}},
        {QStringLiteral("list"), {"lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lrange", "ltrim", "llen", "lindex",
                                  "lset", "lrem", "linsert", "lpos", "lmove", "rpoplpush"}},
        {QStringLiteral("string"), {"set", "get", "setex", "psetex", "setnx", "getex", "getdel", "getset", "mset", "mget",
                                    "incr", "incrby", "incrbyfloat", "decr", "decrby", "append", "strlen", "setrange",
                                    "getrange"}},
        {QStringLiteral("hyperloglog"), {"pfadd", "pfcount", "pfmerge"}},
    };
    for (const auto &[type, commands] : byType) {
        if (commands.contains(command, Qt::CaseInsensitive))
            return type;
    }
    return {};
}

// The words an entry names a type by: "sorted set" also as "zset", a set not as the word "set"
// (SET the command, "set the option"), but as "set type" or its encoding.
QStringList releaseNoteTypeWords(const QString &type)
{
    if (type == QLatin1String("sorted set"))
        return {QStringLiteral("sorted set"), QStringLiteral("sorted sets"), QStringLiteral("zset")};
    if (type == QLatin1String("set"))
        return {QStringLiteral("set type"), QStringLiteral("set data type"), QStringLiteral("intset")};
    if (type == QLatin1String("hash"))
        return {QStringLiteral("hash"), QStringLiteral("hashes")};
    if (type.isEmpty())
        return {};
    return {type, type + QLatin1Char('s')};
}

// Whether `text` holds `word` as a word (case aside): "sorted set" in "Faster … on long sorted sets".
bool releaseNoteNamesWord(const QString &text, const QString &word)
{
    const QRegularExpression pattern(QStringLiteral("(?<![A-Za-z0-9_])%1(?![A-Za-z0-9_])").arg(QRegularExpression::escape(word)),
                                     QRegularExpression::CaseInsensitiveOption);
    return pattern.match(text).hasMatch();
}

// Whether `text` names `command` as release notes write commands: in capitals, as a word of its
// own ("HSET" in "`HSET` now …", not in "HSETEX"), and not as another command's subcommand
// ("SENTINEL SET", "CONFIG SET"). The verb "Set errno", "a set", "explicitly set" name nothing.
bool releaseNoteNamesCommand(const QString &text, const QString &command)
{
    const QRegularExpression pattern(
        QStringLiteral("(?<![A-Za-z0-9_])(?:([A-Z][A-Z]+) )?%1(?![A-Za-z0-9_])").arg(QRegularExpression::escape(command.toUpper())));
    for (QRegularExpressionMatchIterator found = pattern.globalMatch(text); found.hasNext();) {
        if (found.next().captured(1).isEmpty())
            return true;
    }
    return false;
}

// Why no entries can be listed between `older` and `newer`, or empty when they can.
QString releaseNotesUnavailable(const ResultsBundle &bundle, const ServerRun &older, const ServerRun &newer)
{
    if (older.product != newer.product)
        return QStringLiteral("%1 and %2 are different products: no release notes lead from one to the other")
            .arg(serverDisplayName(bundle, older), serverDisplayName(bundle, newer));
    if (QVersionNumber::fromString(older.version) == QVersionNumber::fromString(newer.version))
        return QStringLiteral("%1 and %2 are one version: no release lies between them")
            .arg(serverDisplayName(bundle, older), serverDisplayName(bundle, newer));
    if (!newer.releaseNotes.atHand())
        return QStringLiteral("no release notes at hand for %1").arg(serverDisplayName(bundle, newer));
    return {};
}

void listReleaseNoteEntries(ReleaseNoteCandidates &candidates, const ServerRun &older, const ServerRun &newer)
{
    const QVersionNumber from = QVersionNumber::fromString(older.version);
    const QVersionNumber to = QVersionNumber::fromString(newer.version);
    const QStringList typeWords = releaseNoteTypeWords(candidates.type);
    for (const ReleaseNoteEntry &entry : newer.releaseNotes.entries) {
        const QVersionNumber version = QVersionNumber::fromString(entry.version);
        if (version <= from || version > to)
            continue;
        QString names;
        if (releaseNoteNamesCommand(entry.text, candidates.command))
            names = candidates.command;
        for (const QString &word : typeWords) {
            if (names.isEmpty() && releaseNoteNamesWord(entry.text, word))
                names = candidates.type;
        }
        if (!names.isEmpty())
            candidates.entries.push_back({entry.version, entry.text, names});
    }
}

} // namespace

std::vector<ReleaseNoteCandidates> Figures::releaseNoteCandidates() const
{
    std::vector<ReleaseNoteCandidates> all;
    if (live())
        return all;
    const FigureTable times = commandTime();
    const ServerRun *baseline = bundle().server(baselineId());
    if (!baseline)
        return all;
    for (const QString &serverId : comparedVersionIds()) {
        const ServerRun *run = bundle().server(serverId);
        if (serverId == baseline->id || !run)
            continue;
        const bool newerThanBaseline = QVersionNumber::fromString(run->version) > QVersionNumber::fromString(baseline->version);
        const ServerRun &older = newerThanBaseline ? *baseline : *run;
        const ServerRun &newer = newerThanBaseline ? *run : *baseline;
        for (size_t c = 0; c < times.categories.size(); ++c) {
            const FigureCategory &category = times.categories[c];
            const Figure &figure = times.at(int(c), serverId);
            if (category.kind != CategoryKind::Command || !figure.change || figure.withinNoise || !figure.unresolved.isEmpty())
                continue;
            ReleaseNoteCandidates candidates;
            candidates.serverId = serverId;
            candidates.baselineId = baseline->id;
            candidates.command = category.id.toUpper();
            candidates.type = releaseNoteTypeOf(category.id);
            candidates.change = figure.change;
            candidates.notesOf = newer.id;
            candidates.source = newer.releaseNotes.source;
            candidates.capped = newer.releaseNotes.capped;
            candidates.unavailable = releaseNotesUnavailable(bundle(), older, newer);
            if (candidates.unavailable.isEmpty())
                listReleaseNoteEntries(candidates, older, newer);
            all.push_back(std::move(candidates));
        }
    }
    return all;
}
