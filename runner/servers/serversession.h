#pragma once
// The measuring side of one server: flushing to a clean baseline, reading INFO, counting keys
// and their encodings. Uses its own connection, separate from the replay connection, and
// belongs to the worker thread that created it. The connection counts every command it sends
// (ownCommands()), from CONFIG RESETSTAT on, so a timed pass's commandstats can be cleared of them.

#include "outcome.h"
#include "redisconnection.h"
#include "commandstat.h"
#include "serverclock.h"
#include <QString>
#include <QStringList>
#include <utility>
#include <map>

class ServerSession {
public:
    Status connect(const QString &host, int port, const Credentials &credentials, int timeoutMs, const QString &name,
                   const TlsSettings &tls = {});
    Status connect(const QString &host, int port, const QString &password, int timeoutMs, const QString &name)
    {
        return connect(host, port, Credentials{QString(), password}, timeoutMs, name);
    }
    RedisConnection &connection() { return m_connection; }

    // FLUSHALL SYNC, then waits until lazyfree_pending_objects is 0: a baseline taken while a
    // background free is still running would be wrong.
    Status flushSync(int timeoutMs);
    // CONFIG RESETSTAT; ownCommands() then counts from it (the RESETSTAT itself included: the
    // server counts it after resetting). By difference (setResetByDifference), nothing is sent
    // but INFO commandstats: what it reads becomes the base that commandStats() subtracts, so
    // every reader sees the counts since this call either way.
    Status resetStats();
    // For a server that may not or must not be reset (a managed service refusing CONFIG, or
    // latency tracking left on, whose histograms a reset would free: measurementlimits.h).
    void setResetByDifference(bool byDifference) { m_resetByDifference = byDifference; }
    // Frees what a pass leaves that is no stored data: the ACL log entries of the replay user's
    // refused commands (ACL LOG RESET; about 1.4 KB each) and the EVAL script cache (SCRIPT
    // FLUSH SYNC), so a memory reading holds the keys alone. Launched servers only: an
    // endpoint's log and scripts are its owner's.
    Status forgetNonData();
    const CommandTally &ownCommands() const { return m_connection.sentCommands(); }
    // Remembers how many clients are connected while Versus has only this connection open
    // (1 on a launched server; an endpoint may have clients of its own).
    Status noteIdleClients();
    int idleClients() const { return m_idleClients; }
    // Polls INFO clients until no more than the idle clients are connected: the server frees
    // a closed connection's buffers only when it notices the close.
    Status waitForIdleClients(int timeoutMs);
    // Warnings gathered while measuring, for the server's log; taken (and cleared) by the caller.
    QStringList takeNotes() { return std::exchange(m_notes, {}); }
    // used_memory less this connection's own memory (CLIENT INFO tot-mem, less the reply list,
    // which holds only this reading's own replies, allocated after INFO measured).
    Outcome<long long> usedMemory();
    struct MemoryReading {
        long long used = 0;     // less this connection's own memory
        int rehashing = -1;     // 1: a key table is rehashing, 0: none, -1: the server does not say
    };
    Outcome<MemoryReading> memoryReading();
    // used_memory as a clean figure: no connection but the idle ones is open, this one's own
    // buffers are left out (usedMemory()), no key table is rehashing, and the figure has stopped
    // moving. A table that rehashes holds its old and new bucket arrays, and used_memory stays
    // flat until the old one is freed, so "stopped moving" alone can read mid-rehash (Valkey
    // 8.0.1, 20,000 keys: 256.8 against a settled 250.2 bytes per key). Servers that report
    // mem_overhead_db_hashtable_rehashing (Valkey 8.0 and later) are waited for until it is 0, up
    // to kRehashLimitMs; others (Redis 7.x, 8.0) only until the figure stops moving.
    Outcome<long long> settledUsedMemory(int timeoutMs);
    static constexpr int kRehashLimitMs = 60000;
    Outcome<long long> dbSize();
    // What the server has given up of data since it started or its statistics were reset: keys
    // `maxmemory` evicted (INFO stats evicted_keys) and commands refused as out of memory (INFO
    // errorstats errorstat_OOM). A pass's are the change between its edges.
    struct LossCounters {
        long long evictedKeys = 0;
        long long outOfMemoryErrors = 0;
    };
    Outcome<LossCounters> lossCounters();
    // CONFIG GET *: every setting the server has, by name; a refusal is an error.
    Outcome<std::map<QString, QString>> configSettings();
    // The same, where a refusal (CONFIG renamed or forbidden, as managed services do) is an
    // answer: `refusal` is then the server's reply, quoted. Only an unreachable server is an error.
    struct SettingsReading {
        std::map<QString, QString> settings;
        QString refusal;
    };
    Outcome<SettingsReading> readSettings();
    // INFO commandstats as the server counts it since resetStats(): every command, Versus's own
    // included. By difference, the rows that did not move are left out, as after a reset; a row
    // that went back (another client reset the statistics) reads as none.
    Outcome<std::map<QString, CommandStat>> commandStats();
    Outcome<QString> info(const char *section);
    // INFO stats and cpu in one call: the server's own clock now (serverclock.h). The INFO is
    // Versus's own, counted like every other command this connection sends. A server that
    // refuses it gives a clock with every counter absent (said once in takeNotes()).
    Outcome<ServerClock> serverClock();

    struct KeySurvey {
        long long keys = 0;
        long long memoryUsageBytes = 0;                 // Σ MEMORY USAGE, second opinion
        std::map<QString, long long> encodings;         // OBJECT ENCODING histogram
    };
    // Walks every key with SCAN and asks OBJECT ENCODING and MEMORY USAGE for each, pipelined,
    // on a connection opened for the survey and closed after it.
    Outcome<KeySurvey> surveyKeys();

private:
    struct Address {
        QString host;
        int port = 0;
        Credentials credentials;
        int timeoutMs = 0;
        QString name;
        TlsSettings tls;
    };
    Status open(RedisConnection &connection, const QString &name) const;
    static Outcome<KeySurvey> surveyKeysOver(RedisConnection &connection);
    Address m_address;
    Outcome<Reply> call(std::initializer_list<const char *> args);
    RedisConnection m_connection;
    bool m_resetByDifference = false;
    std::map<QString, CommandStat> m_statsBase;   // by difference: commandstats at resetStats()
    int m_idleClients = 1;
    bool m_clockRefused = false;
    QStringList m_notes;
};
