#pragma once
// What a run changes on an endpoint, written down on this machine before the change and
// removed once it is put back (endpointstate.h). A run that never gets to put it back (SIGKILL,
// a crash, a power cut) leaves the marker, and the next run on that endpoint reads from it the
// owner's values: `latency-tracking no` found on the server is then Versus's leftover, not the
// owner's choice, and the owner's value is what that run puts back.
//
// One file per server, keyed by who the server is, not by how it was typed: `localhost:P`,
// `127.0.0.1:P` and `[::1]:P` reach one server and find one marker. The key is the server's
// INFO server run_id (40 hex digits, new at every start: a restarted server read its own
// settings again, so a marker of an earlier run_id is stale); a server that does not tell its
// run_id (a proxy) is keyed by its address as typed. The file is
// $XDG_STATE_HOME/versus/endpoints/<key>.json (by default ~/.local/state): {"endpoint" (the
// address the run used), "run_id", "pid" (the Versus that wrote it), "settings" {name: the
// owner's value}}.

#include "outcome.h"
#include <QString>
#include <map>
#include <optional>
#include <vector>

struct EndpointMarker {
    QString endpoint;                      // "127.0.0.1:6379", as the run that wrote it named it
    QString runId;
    qint64 pid = 0;
    std::map<QString, QString> settings;   // "latency-tracking" → "yes", as the owner had it
};

// The key of the server at `host`:`port` whose INFO server run_id is `runId` (empty: unknown).
QString endpointMarkerKey(const QString &runId, const QString &host, int port);
QString endpointMarkerPath(const QString &key);
// None when there is no marker; an error names the file (not a regular file, too large, not JSON).
Outcome<std::optional<EndpointMarker>> readEndpointMarker(const QString &key);
Status writeEndpointMarker(const QString &key, const EndpointMarker &marker);
void removeEndpointMarker(const QString &key);
// The keys of the markers of runs at `endpoint` ("127.0.0.1:6379", as typed) on a server other
// than `runId` whose Versus no longer runs: the server restarted since (or another server took
// its address), so nothing is left to put back. Markers that cannot be read are not listed.
std::vector<QString> staleEndpointMarkers(const QString &endpoint, const QString &runId);
// Whether the Versus that wrote it still runs (a process of that pid whose program is versus).
bool markerWriterAlive(const EndpointMarker &marker);
// The marker's settings the server still has at the value Versus sets (`versusValues`, e.g.
// latency-tracking → no) where the owner's was another: name → the owner's value. A setting
// someone changed since is the owner's again and is not listed.
std::map<QString, QString> settingsLeftBy(const EndpointMarker &marker, const std::map<QString, QString> &versusValues,
                                          const std::map<QString, QString> &now);
