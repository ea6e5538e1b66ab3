#pragma once
// Reading a server's own memory accounting: MEMORY STATS and MEMORY MALLOC-STATS as replied
// (memoryaccounting.h holds what is kept). Both are read-only commands; a server that refuses
// one (an endpoint's ACL, an older version, an allocator other than jemalloc) is no error:
// the part is kept as unavailable, with the reason.

#include "memoryaccounting.h"
#include "outcome.h"
#include "redisconnection.h"

#include <string>

// The MEMORY STATS fields Versus keeps, from a flat name/value array whose "db.N" values are
// arrays of their own. Only integer fields of the allow-list are kept (memoryreport.cpp); a
// reply of another shape is an Error naming what was wrong.
Outcome<std::map<QString, long long>> memoryStatsFields(const Reply &reply);

// The live regions per size class in jemalloc's statistics text: the rows of its first "bins:"
// and "large:" tables (the merged arenas when there are several, else the only arena), by the
// columns their headers name (size, curregs, curlextents). An Error when the text holds no
// bins table (another allocator's text).
Outcome<std::map<long long, long long>> jemallocRegions(const std::string &text);

// The keys with a TTL in INFO keyspace's text, summed over its "db<N>:keys=…,expires=<n>,…"
// lines (0 when no database holds keys); nullopt when a line's count is no 64-bit count.
std::optional<long long> keysWithExpiry(const QString &keyspace);

// This connection's memory as the server counted it for the commands before CLIENT INFO in the
// same pipeline, from its CLIENT INFO line: tot-mem less omem, the reply list. Nothing else is
// pending on a connection that reads every reply before it sends again, so the list holds only
// those commands' replies, allocated after they measured (with the reply buffer shrunk by the
// cron to 1 KB, an INFO memory reply goes to a 20 KB block). 0 when the line has no tot-mem
// (before Redis 6.2).
long long connectionMemoryBeforeReplies(const std::string &clientInfo);

// What the clients that MEMORY STATS counts as clients.normal hold now: this connection's
// memory (its CLIENT INFO line, as above) and every other client's tot-mem in CLIENT LIST,
// replicas left out. nullopt when a line has no id or tot-mem, or this connection is not listed.
std::optional<long long> clientsMemoryNow(const std::string &clientInfo, const std::string &clientList);

// Both, over `connection`: MEMORY STATS with CLIENT INFO and CLIENT LIST in one pipeline (the
// clients' lag and INFO keyspace's keys with a TTL kept beside its fields), then MEMORY
// MALLOC-STATS. A transport failure is an Error; a refusal or an unreadable reply is kept as
// the part's reason, and a refused client list leaves the lag out.
Outcome<MemoryAccounting> readMemoryAccounting(RedisConnection &connection);
