#pragma once
// What a workload is, as a workload describes itself and as a results bundle records it.

#include <QString>
#include <QStringList>
#include <map>
#include <utility>
#include <vector>

struct WorkloadInfo {
    QString name;                        // "ecommerce", "hash-ttl", "capture"
    QString sourceFile;                  // recording or capture path; empty if generated
    QString sourceSha256;
    std::map<QString, QString> parameters;
    long long events = 0;                // events in one full pass
    long long commands = 0;              // commands in one full pass
    QStringList types;                   // category order of the memory figures
    // What the workload calls its types in a sentence: "type", or "pattern" (hash-ttl: ways to
    // store the same keys). Views say "All patterns", "each pattern".
    QString categoryNoun = QStringLiteral("type");
    // The distinct command names of one pass, upper case, sorted: known before anything is
    // sent (an endpoint without ACL refuses some of them; a live probe may have to wait).
    // Not saved in bundles.
    QStringList commandNames;
    // True when each type is replayed and timed alone (hash-ttl: the patterns reuse key
    // names); false when all types share one timed pass and are measured apart afterwards.
    bool typesTimedAlone = false;
    // The type the others are measured against, as a ratio on each server ("set-ex" for
    // hash-ttl: HSETEX 1.86× SET … EX); empty when the workload has none.
    QString referenceType;
    // Named groups of commands (upper case) whose server time is reported together, as the
    // studies phrase it: "writes", "TTL refreshes", "dedup checks". In workload order.
    std::vector<std::pair<QString, QStringList>> commandGroups;
    // Commands the workload's description makes a claim about (upper case): each stays a row of
    // its own in every table and chart, however few its calls ("ZREMRANGEBYRANK": the
    // customer-profile study reports it fell 50%). A one-command group is named already.
    QStringList namedCommands;
    // A capture's commands that were not replayed, by what they were: "SELECT", "FLUSHALL",
    // "CONFIG SET", the [lua] lines a replayed script ran, "malformed line" (--lenient).
    std::map<QString, long long> skipped;
    // True when a command a server does not know leaves out only that command on that server
    // (captures: each command is its own piece of work); false when it makes the whole type
    // unsupported (a built-in pattern is its commands together). Not saved in bundles.
    bool unsupportedByCommand = false;
};
