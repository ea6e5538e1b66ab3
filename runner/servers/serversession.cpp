#include "serversession.h"

#include "infoparser.h"
#include "memoryreport.h"

#include <QElapsedTimer>
#include <QThread>
#include <algorithm>

Status ServerSession::connect(const QString &host, int port, const Credentials &credentials, int timeoutMs,
                              const QString &name, const TlsSettings &tls)
{
    m_address = {host, port, credentials, timeoutMs, name, tls};
    return open(m_connection, name);
}

Status ServerSession::open(RedisConnection &connection, const QString &name) const
{
    Status status = connection.connectTcp(m_address.host, m_address.port, m_address.timeoutMs, name, m_address.tls);
    if (!status)
        return status;
    return connection.auth(m_address.credentials);
}

Outcome<Reply> ServerSession::call(std::initializer_list<const char *> args)
{
    std::vector<std::string> words(args.begin(), args.end());
    Outcome<Reply> reply = m_connection.command(words);
    if (!reply)
        return reply;
    if (reply->isError()) {
        std::string joined;
        for (const std::string &word : words)
            joined += (joined.empty() ? "" : " ") + word;
        return Error{QStringLiteral("%1: %2 failed: %3")
                         .arg(m_connection.name(), QString::fromStdString(joined),
                              QString::fromStdString(reply->text))};
    }
    return reply;
}

Outcome<QString> ServerSession::info(const char *section)
{
    return m_connection.info(QString::fromLatin1(section));
}

Outcome<ServerClock> ServerSession::serverClock()
{
    Outcome<Reply> reply = m_connection.command({"INFO", "stats", "cpu"});
    if (!reply)
        return Error{reply.error()};
    // A server that refuses it (INFO with several sections arrived in Redis 7.0; an endpoint's
    // ACL) is measured without its clock: its server time reads absent, the pass goes on.
    if (reply->isError()) {
        if (!std::exchange(m_clockRefused, true))
            m_notes << QStringLiteral("%1: INFO stats cpu refused (%2): its server time per command in all is not read")
                           .arg(m_connection.name(), QString::fromStdString(reply->text));
        return ServerClock();
    }
    return parseServerClock(QString::fromStdString(reply->text));
}

Status ServerSession::flushSync(int timeoutMs)
{
    Outcome<Reply> flushed = call({"FLUSHALL", "SYNC"});
    if (!flushed)
        return Error{flushed.error()};
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        Outcome<QString> memory = info("memory");
        if (!memory)
            return Error{memory.error()};
        const auto fields = parseInfoFields(memory.value());
        const auto pending = fields.find(QStringLiteral("lazyfree_pending_objects"));
        if (pending == fields.end() || pending->second.toLongLong() == 0)
            return Status::success();
        if (timer.elapsed() > timeoutMs)
            return Error{QStringLiteral("%1: lazyfree_pending_objects still %2 after FLUSHALL SYNC")
                             .arg(m_connection.name(), pending->second)};
        QThread::msleep(5);
    }
}

namespace {

Outcome<int> connectedClients(ServerSession &session)
{
    Outcome<QString> clients = session.info("clients");
    if (!clients)
        return Error{clients.error()};
    const auto fields = parseInfoFields(clients.value());
    const auto connected = fields.find(QStringLiteral("connected_clients"));
    return connected == fields.end() ? 1 : connected->second.toInt();
}

} // namespace

Status ServerSession::noteIdleClients()
{
    Outcome<int> clients = connectedClients(*this);
    if (!clients)
        return Error{clients.error()};
    m_idleClients = std::max(1, clients.value());
    return Status::success();
}

Status ServerSession::waitForIdleClients(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        Outcome<int> clients = connectedClients(*this);
        if (!clients)
            return Error{clients.error()};
        if (clients.value() <= m_idleClients)
            return Status::success();
        if (timer.elapsed() > timeoutMs) {
            // Not fatal: the figure then carries another connection's buffers (a few KB), so
            // say which connections were there instead of failing the server.
            Outcome<Reply> list = m_connection.command({"CLIENT", "LIST"});
            m_notes << QStringLiteral("%1: %2 clients still connected after %3 ms (expected %4); the memory "
                                      "figure may include their buffers. CLIENT LIST: %5")
                           .arg(m_connection.name())
                           .arg(clients.value())
                           .arg(timeoutMs)
                           .arg(m_idleClients)
                           .arg(list ? QString::fromStdString(list->text).trimmed() : list.error());
            return Status::success();
        }
        QThread::msleep(2);
    }
}

Status ServerSession::forgetNonData()
{
    if (Outcome<Reply> log = call({"ACL", "LOG", "RESET"}); !log)
        return Error{log.error()};
    const Outcome<Reply> scripts = call({"SCRIPT", "FLUSH", "SYNC"});
    return scripts ? Status::success() : Status(Error{scripts.error()});
}

Status ServerSession::resetStats()
{
    m_connection.clearSentCommands();
    m_statsBase.clear();
    if (m_resetByDifference) {
        // The server counts this INFO after it has run: it is in the next reading, not in the
        // base, and in ownCommands() too, as a RESETSTAT would be.
        Outcome<QString> text = info("commandstats");
        if (!text)
            return Error{text.error()};
        m_statsBase = parseCommandStats(text.value());
        return Status::success();
    }
    Outcome<Reply> reply = call({"CONFIG", "RESETSTAT"});
    return reply ? Status::success() : Status(Error{reply.error()});
}

Outcome<long long> ServerSession::usedMemory()
{
    Outcome<MemoryReading> reading = memoryReading();
    if (!reading)
        return Error{reading.error()};
    return reading->used;
}

Outcome<ServerSession::MemoryReading> ServerSession::memoryReading()
{
    // INFO memory and CLIENT INFO go in one pipeline, so the server answers both in the same
    // event-loop turn, before its cron can resize this connection's buffers in between.
    const Outcome<std::vector<Reply>> replies = m_connection.pipeline({{"INFO", "memory"}, {"CLIENT", "INFO"}});
    if (!replies)
        return Error{replies.error()};
    const Reply &memory = replies->at(0);
    const Reply &self = replies->at(1);
    if (memory.isError())
        return Error{QStringLiteral("%1: INFO memory failed: %2")
                         .arg(m_connection.name(), QString::fromStdString(memory.text))};
    const auto fields = parseInfoFields(QString::fromStdString(memory.text));
    const QString where = QStringLiteral("%1: INFO memory").arg(m_connection.name());
    const Outcome<long long> used = infoCount(fields, QStringLiteral("used_memory"), where);
    if (!used)
        return Error{used.error()};
    // This connection's own buffers are Versus's, not the data's; servers before CLIENT INFO
    // (Redis 6.2) answer an error and their figure keeps them.
    const long long ownBuffers = self.isError() ? 0 : connectionMemoryBeforeReplies(self.text);
    // The EVAL script cache (bodies and their table, in used_memory) grows with the scripts a
    // capture sends, not with the keys it stores: it is no stored attribute's memory.
    const Outcome<long long> scriptCache = infoCount(fields, QStringLiteral("used_memory_scripts_eval"), where, 0);
    if (!scriptCache)
        return Error{scriptCache.error()};
    MemoryReading reading;
    reading.used = used.value() - ownBuffers - scriptCache.value();
    const auto rehashing = fields.find(QStringLiteral("mem_overhead_db_hashtable_rehashing"));
    if (rehashing != fields.end())
        reading.rehashing = rehashing->second.toLongLong() > 0 ? 1 : 0;
    return reading;
}

Outcome<long long> ServerSession::settledUsedMemory(int timeoutMs)
{
    Status alone = waitForIdleClients(timeoutMs);
    if (!alone)
        return Error{alone.error()};
    QElapsedTimer timer;
    timer.start();
    Outcome<MemoryReading> previous = memoryReading();
    int unchanged = 0;
    bool rehashing = previous && previous->rehashing == 1;
    // The server's cron runs every 100 ms at the default hz; two quiet periods in a row with no
    // table rehashing mean no rehash step or lazy free is pending.
    while (previous && (unchanged < 2 || rehashing)) {
        const int limit = rehashing ? kRehashLimitMs : timeoutMs;
        if (timer.elapsed() >= limit)
            break;
        QThread::msleep(110);
        Outcome<MemoryReading> current = memoryReading();
        if (!current)
            return Error{current.error()};
        unchanged = current->used == previous->used ? unchanged + 1 : 0;
        rehashing = current->rehashing == 1;
        previous = current;
    }
    if (!previous)
        return Error{previous.error()};
    if (rehashing) {
        m_notes << QStringLiteral("%1: a key table was still rehashing after %2 s; the memory figure includes its old "
                                  "bucket array")
                       .arg(m_connection.name())
                       .arg(timer.elapsed() / 1000);
    }
    return previous->used;
}

Outcome<long long> ServerSession::dbSize()
{
    Outcome<Reply> reply = call({"DBSIZE"});
    if (!reply)
        return Error{reply.error()};
    // Another kind of reply (a proxy's, a broken server's) is no key count: its integer field
    // is 0, which would read as "no keys" and leave every memory figure without a divisor.
    if (reply->kind != Reply::Kind::Integer || reply->integer < 0)
        return Error{QStringLiteral("%1: DBSIZE answered %2, not a count of keys")
                         .arg(m_connection.name(), describeReply(reply.value()))};
    return reply->integer;
}

Outcome<ServerSession::LossCounters> ServerSession::lossCounters()
{
    Outcome<QString> stats = info("stats");
    if (!stats)
        return Error{stats.error()};
    Outcome<QString> errors = info("errorstats");
    if (!errors)
        return Error{errors.error()};
    const Outcome<long long> evicted = infoCount(parseInfoFields(stats.value()), QStringLiteral("evicted_keys"),
                                                 QStringLiteral("%1: INFO stats").arg(m_connection.name()), 0);
    if (!evicted)
        return Error{evicted.error()};
    LossCounters counters;
    counters.evictedKeys = evicted.value();
    counters.outOfMemoryErrors = parseErrorCount(errors.value(), u"OOM");
    return counters;
}

Outcome<ServerSession::SettingsReading> ServerSession::readSettings()
{
    Outcome<Reply> reply = m_connection.command({"CONFIG", "GET", "*"});
    if (!reply)
        return Error{reply.error()};
    SettingsReading reading;
    if (reply->isError()) {
        reading.refusal = refusalText(QStringLiteral("CONFIG GET"), reply.value());
        return reading;
    }
    const std::vector<Reply> &pairs = reply->elements;
    for (size_t i = 0; i + 1 < pairs.size(); i += 2)
        reading.settings[QString::fromStdString(pairs[i].text)] = QString::fromStdString(pairs[i + 1].text);
    if (reading.settings.empty())
        return Error{QStringLiteral("%1: CONFIG GET * answered no settings").arg(m_connection.name())};
    return reading;
}

Outcome<std::map<QString, QString>> ServerSession::configSettings()
{
    Outcome<SettingsReading> reading = readSettings();
    if (!reading)
        return Error{reading.error()};
    if (!reading->refusal.isEmpty())
        return Error{QStringLiteral("%1: %2").arg(m_connection.name(), reading->refusal)};
    return std::move(reading->settings);
}

Outcome<std::map<QString, CommandStat>> ServerSession::commandStats()
{
    Outcome<QString> text = info("commandstats");
    if (!text)
        return Error{text.error()};
    std::map<QString, CommandStat> stats = parseCommandStats(text.value());
    if (m_statsBase.empty())
        return stats;
    std::map<QString, CommandStat> since;
    for (const auto &[name, stat] : stats) {
        const auto base = m_statsBase.find(name);
        if (base == m_statsBase.end()) {
            since[name] = stat;
        } else if (stat.calls > base->second.calls && stat.usec >= base->second.usec) {
            since[name] = CommandStat{stat.calls - base->second.calls, stat.usec - base->second.usec};
        }
    }
    return since;
}

Outcome<ServerSession::KeySurvey> ServerSession::surveyKeys()
{
    // The survey's pipelines are far larger than a read, so the connection sending them ends up
    // owning a query buffer of its own. On Redis 7.4 and later the server then allocates a new
    // shared one only when the next client reads: done on this session, that 20 KB would land
    // inside the next pass's figure. A connection of its own takes the buffer away when it closes.
    RedisConnection connection;
    if (Status opened = open(connection, m_address.name + QStringLiteral(" survey")); !opened)
        return Error{opened.error()};
    return surveyKeysOver(connection);
}

Outcome<ServerSession::KeySurvey> ServerSession::surveyKeysOver(RedisConnection &connection)
{
    KeySurvey survey;
    std::string cursor = "0";
    do {
        Outcome<Reply> page = connection.command({"SCAN", cursor, "COUNT", "1000"});
        if (!page)
            return Error{page.error()};
        if (page->kind != Reply::Kind::Array || page->elements.size() != 2)
            return Error{QStringLiteral("%1: unexpected SCAN reply").arg(connection.name())};
        cursor = page->elements[0].text;
        const std::vector<Reply> &keys = page->elements[1].elements;
        if (keys.empty())
            continue;
        std::vector<std::vector<std::string>> commands;
        for (const Reply &key : keys) {
            commands.push_back({"OBJECT", "ENCODING", key.text});
            commands.push_back({"MEMORY", "USAGE", key.text, "SAMPLES", "0"});
        }
        const Outcome<std::vector<Reply>> replies = connection.pipeline(commands);
        if (!replies)
            return Error{replies.error()};
        for (size_t i = 0; i + 1 < replies->size(); i += 2) {
            const Reply &encoding = replies->at(i);
            const Reply &usage = replies->at(i + 1);
            // A key that expired or was evicted between SCAN and here answers nil: not counted.
            if (encoding.kind == Reply::Kind::Nil || encoding.isError())
                continue;
            ++survey.keys;
            ++survey.encodings[QString::fromStdString(encoding.text)];
            if (usage.kind == Reply::Kind::Integer)
                survey.memoryUsageBytes += usage.integer;
        }
    } while (cursor != "0");
    return survey;
}
