#pragma once
// Before a run on endpoints (servers Versus did not launch): what it costs them that cannot be
// undone, in the words the consent uses (the CLI's refusal and notice, the window's dialog),
// and the refusal of one server named twice.

#include "endpointprobe.h"
#include "outcome.h"
#include <QString>
#include <vector>

// The primaries of a cluster a consent names one by one, each with its slots and keys; the
// others are counted together, so that the consent for a cluster of a thousand primaries stays a
// few lines (each primary names at most EndpointProbe::kSlotRangesNamed of its slot ranges).
constexpr int kPrimariesNamed = 16;

// The databases of one server a consent names one by one; the others are counted together.
constexpr int kDatabasesNamed = 4;

// The keys a flush deletes, database by database, worded to follow "it holds": "db0: 2 keys,
// db3: 1 key", past kDatabasesNamed "…, db3: 1 key, and 99996 more databases holding 99996
// keys in all", "no keys", or, when INFO keyspace was refused, "db0: 2 keys (the other
// databases could not be counted)". A cluster names its first kPrimariesNamed primaries, their
// slots and what each holds, then counts the rest: "primary 127.0.0.1:7001 (slots 0-5460) holds
// db0: 2 keys, and its replica loses them too; …; and 24 more primaries, which hold no keys".
QString keysLost(const EndpointProbe &probe);
// The primaries of `cluster` past the first kPrimariesNamed, together: "and 24 more primaries,
// which hold 12 keys in all"; empty when there are no more.
QString unnamedPrimariesLost(const EndpointProbe &cluster);
// keysLost() as a clause: "it holds db0: 2 keys", "it is a node of a cluster of 3 primaries,
// and the run flushes every one: primary …".
QString whatIsLost(const EndpointProbe &probe);
// One primary of a cluster, as keysLost() words it.
QString clusterNodeKeysLost(const EndpointProbe &primary);

// What a run does to every endpoint that cannot be undone, as one clause:
// "every key of every database is deleted (FLUSHALL) and its statistics are reset (…)". Given
// the probe of an endpoint that refuses CONFIG (every primary, for a cluster), what it does
// there: "every key of every database is deleted (FLUSHALL); its statistics and settings are
// left as they are: it refuses CONFIG (…)".
QString irreversibleEffects(const EndpointProbe *probe = nullptr);
// Whether the probed endpoint (every primary of a cluster) refuses CONFIG.
bool refusesConfig(const EndpointProbe &probe);

struct NamedProbe {
    QString name;          // as the user named it: "localhost:6379"
    EndpointProbe probe;
};

// Refuses two names of one server (the same INFO server run_id, however it was reached:
// localhost, 127.0.0.1, [::1]), or two nodes of one cluster: the run would flush and measure it
// twice at once. A probe without a run_id (INFO refused) is not compared.
Status refuseSameServerTwice(const std::vector<NamedProbe> &probes);
