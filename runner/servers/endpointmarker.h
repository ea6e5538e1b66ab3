#pragma once
// What a run changes on an endpoint, written down on this machine before the change and
// removed once it is put back (endpointstate.h). A run that never gets to put it back (SIGKILL,
// a crash, a power cut) leaves the marker, and the next run on that endpoint reads from it the
// owner's values: `latency-tracking no` found on the server is then Versus's leftover, not the
// owner's choice, and the owner's value is what that run puts back.
//
// One file per endpoint, $XDG_STATE_HOME/versus/endpoints/<host>_<port>.json (by default
// ~/.local/state): {"endpoint", "run_id" (INFO server: a restarted server read its own settings
// again, so a marker of an earlier run_id is stale), "pid" (the Versus that wrote it),
// "settings" {name: the owner's value}}.

#include "outcome.h"
#include <QString>
#include <map>
#include <optional>

struct EndpointMarker {
    QString endpoint;                      // "127.0.0.1:6379"
    QString runId;
    qint64 pid = 0;
    std::map<QString, QString> settings;   // "latency-tracking" → "yes", as the owner had it
};

QString endpointMarkerPath(const QString &host, int port);
// None when there is no marker; an error names the file (not a regular file, too large, not JSON).
Outcome<std::optional<EndpointMarker>> readEndpointMarker(const QString &host, int port);
Status writeEndpointMarker(const QString &host, int port, const EndpointMarker &marker);
void removeEndpointMarker(const QString &host, int port);
// Whether the Versus that wrote it still runs (a process of that pid whose program is versus).
bool markerWriterAlive(const EndpointMarker &marker);
// The marker's settings the server still has at the value Versus sets (`versusValues`, e.g.
// latency-tracking → no) where the owner's was another: name → the owner's value. A setting
// someone changed since is the owner's again and is not listed.
std::map<QString, QString> settingsLeftBy(const EndpointMarker &marker, const std::map<QString, QString> &versusValues,
                                          const std::map<QString, QString> &now);
