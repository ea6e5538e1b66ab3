#pragma once
// Parsing of INFO output. commandstats rows look like
//   cmdstat_set:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0
// Subcommands appear as cmdstat_config|get.

#include "commandstat.h"
#include "serverclock.h"
#include "outcome.h"
#include <QString>
#include <QStringView>
#include <map>
#include <optional>

// Every "field:value" line of any INFO section(s).
std::map<QString, QString> parseInfoFields(const QString &info);

// A count INFO reports (used_memory, evicted_keys, …) as a whole number from 0 to 2^63 − 1;
// nullopt for anything else (a sign, a fraction, text, a number past 64 bits). A proxy or a
// broken server can answer used_memory:100000000000000000000000, which QString::toLongLong
// reads as 0 and a memory figure then as a large negative change: no figure is made of it.
std::optional<long long> parseInfoCount(QStringView value);
// The field `name` of `fields` as a count. `where` names the server and the section ("valkey-9.1.2:
// INFO memory"); the Error says what the server answered instead: "valkey-9.1.2: INFO memory
// used_memory is "100000000000000000000000", not a count from 0 to 9223372036854775807".
// `fallback` is the value of an absent field; without one an absent field is an Error too.
Outcome<long long> infoCount(const std::map<QString, QString> &fields, const QString &name, const QString &where,
                             std::optional<long long> fallback = std::nullopt);

// INFO commandstats -> command name (lower case, "config|get" for subcommands) -> calls/usec.
std::map<QString, CommandStat> parseCommandStats(const QString &info);

// INFO errorstats -> how many error replies the server gave with `prefix` as their first word
// ("OOM" from errorstat_OOM:count=5); 0 when it gave none (or has no errorstats: before 6.2).
long long parseErrorCount(const QString &info, QStringView prefix);

// Server identity from INFO server: valkey_version when present (Valkey reports
// redis_version:7.2.4 on every version), otherwise redis_version.
struct InfoServer {
    QString product;   // "valkey" or "redis" (server_name, else inferred); empty when not INFO server
    QString version;
};
InfoServer parseInfoServer(const QString &info);

// INFO stats and cpu -> the server's clock (serverclock.h). A field the server does not report,
// or one that is not a number of 0 or more, stays absent.
ServerClock parseServerClock(const QString &info);
