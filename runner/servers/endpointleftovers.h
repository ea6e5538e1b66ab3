#pragma once
// What a Versus killed during a run on an endpoint left there, found and, with the owner's
// consent, put back: `versus servers --endpoint HOST:PORT` reports it, `--put-back` removes it.
//
// A run on an endpoint adds an ACL user `versus-replay-<random>` (replayaccess.h) and sets
// latency-tracking to no (endpointstate.h); both are undone at its end. SIGKILL skips that end:
// the user stays, with a password no one knows any more, and so does the setting, whose owner's
// value the run wrote down on this machine first (endpointmarker.h). The next run on the
// endpoint already names both; this is how they are removed without starting a run.
//
// Only users of Versus's exact shape are deleted (replayusers.h): an owner's user that merely
// starts with versus-replay- is named and left.
//
// A `versus-replay-` user may also belong to a run going on now, from this machine or another:
// deleting it ends that run's connections. Put back refuses while the marker's Versus still
// runs here, whatever address that run or this one named the server by (the marker is the
// server's: endpointmarker.h); for other machines the consent says so.
// Blocks: call it off the GUI thread.

#include "credentials.h"
#include "endpointmarker.h"
#include "outcome.h"
#include "replayusers.h"
#include "tlssettings.h"
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

struct EndpointLeftovers {
    QString where;                        // "127.0.0.1:6379"
    QString host;
    int port = 0;
    ReplayUsers replayUsers;              // ACL users named versus-replay-*: Versus's, and others'
    QString usersProblem;                 // ACL USERS refused: the users could not be listed
    QString markerKey;                    // endpointMarkerKey(): the server's run id, else the address
    std::optional<EndpointMarker> marker; // what an earlier run on this machine wrote down for this server
    std::vector<QString> staleMarkers;    // keys of this address's markers from before the server restarted
    QString markerProblem;                // the marker could not be read
    bool writerAlive = false;             // the Versus that wrote the marker still runs
    bool markerStale = false;             // no run id tells whether the server restarted since: nothing to put back
    std::map<QString, QString> settingsNow;    // the marker's settings as the server has them now
    std::map<QString, QString> settingsLeft;   // of those, the ones still at Versus's value: name → owner's value

    bool empty() const;
};

// Connects (AUTH with `login` when it has a password) and reads the ACL users, the marker and the
// settings it names. Changes nothing.
Outcome<EndpointLeftovers> findEndpointLeftovers(const QString &host, int port, const Credentials &login, int timeoutMs,
                                                 const TlsSettings &tls = {});

// One line each: what is left and what --put-back does about it; "nothing left by Versus".
QStringList describeEndpointLeftovers(const EndpointLeftovers &leftovers);

// Deletes the users found of Versus's shape (ACL DELUSER), names the others, sets the settings left back to the owner's values and
// removes the marker; refuses while the marker's Versus still runs. Returns what it did.
Outcome<QStringList> putBackEndpointLeftovers(const EndpointLeftovers &leftovers, const Credentials &login, int timeoutMs,
                                              const TlsSettings &tls = {});
