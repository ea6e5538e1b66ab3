#pragma once
// Before a run on endpoints (servers Versus did not launch): what it costs them that cannot be
// undone, in the words the consent uses (the CLI's refusal and notice, the window's dialog),
// and the refusal of one server named twice.

#include "endpointprobe.h"
#include "outcome.h"
#include <QString>
#include <vector>

// The keys a flush deletes, database by database, worded to follow "it holds": "db0: 2 keys,
// db3: 1 key", "no keys", or, when INFO keyspace was refused, "db0: 2 keys (the other
// databases could not be counted)".
QString keysLost(const EndpointProbe &probe);

// What a run does to every endpoint that cannot be undone, as one clause:
// "every key of every database is deleted (FLUSHALL) and its statistics are reset (…)".
QString irreversibleEffects();

struct NamedProbe {
    QString name;          // as the user named it: "localhost:6379"
    EndpointProbe probe;
};

// Refuses two names of one server (the same INFO server run_id, however it was reached:
// localhost, 127.0.0.1, [::1]): the run would flush and measure it twice at once. A probe
// without a run_id (INFO refused) is not compared.
Status refuseSameServerTwice(const std::vector<NamedProbe> &probes);
