#pragma once
// Another client's hand in a pass on an endpoint, seen in INFO commandstats: a FLUSHALL,
// FLUSHDB or SWAPDB that Versus did not send (the pass's keys deleted or moved), a CONFIG
// RESETSTAT that Versus did not send or statistics that went back (the pass's counts lost), or
// fewer calls of a workload command than Versus sent and the server answered without an error.
// Any of these fails the series: its memory and µs would be another client's as much as the
// workload's. Launched servers are not checked: a random password keeps strangers out, and
// they get no extra command.
//
// A timed pass reads commandstats from its own CONFIG RESETSTAT on; any other pass on an
// endpoint reads it before and after the replay and takes the difference.

#include "commandstat.h"
#include "commandtally.h"
#include <QString>
#include <map>

struct Interference {
    std::map<QString, long long> flushes;     // "FLUSHALL" → calls no one of Versus's made
    bool statsReset = false;                  // a foreign CONFIG RESETSTAT, or counts that went back
    struct Fewer {
        long long counted = 0;
        long long sent = 0;                   // sent and answered without an error
    };
    std::map<QString, Fewer> fewerCalls;      // "HSET" → counted fewer than sent

    bool any() const { return !flushes.empty() || statsReset || !fewerCalls.empty(); }
    // "another client interfered with the pass timed: hsetex (FLUSHALL 1 sent by another client: keys
    // deleted; calls fewer than sent: HSET 7,613 of 20,000; …); 7,613 keys after the pass …"
    QString describe(const QString &pass, long long keysAfter) const;
};

// A timed pass: `counted` is commandstats since Versus's CONFIG RESETSTAT, `versusOwn` every
// command Versus sent since then (control and replay connections), `sent` the workload's
// commands and `errors` those of them answered with an error (not counted as calls).
Interference interferenceSinceReset(const std::map<QString, CommandStat> &counted, const CommandTally &versusOwn,
                                    const CommandTally &sent, const CommandTally &errors);

// Any other pass: commandstats before and after it, and Versus's own commands at each reading.
Interference interferenceBetween(const std::map<QString, CommandStat> &before, const std::map<QString, CommandStat> &after,
                                 const CommandTally &ownBefore, const CommandTally &ownAfter, const CommandTally &sent,
                                 const CommandTally &errors);
