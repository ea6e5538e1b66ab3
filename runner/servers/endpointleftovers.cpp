#include "endpointleftovers.h"

#include "endpointstate.h"
#include "hostport.h"
#include "infoparser.h"
#include "serversession.h"

namespace {

// The marker of this server (by its run id), and whether it still means anything: its Versus
// running now. Markers of runs at this address on a server that has restarted since are stale.
void readMarker(EndpointLeftovers &found, ServerSession &session)
{
    QString runId;
    if (const Outcome<QString> server = session.info("server"); server)
        runId = parseInfoFields(server.value())[QStringLiteral("run_id")];
    found.markerKey = endpointMarkerKey(runId, found.host, found.port);
    for (const QString &key : staleEndpointMarkers(found.where, runId)) {
        if (key != found.markerKey)
            found.staleMarkers.push_back(key);
    }
    const Outcome<std::optional<EndpointMarker>> marker = readEndpointMarker(found.markerKey);
    if (!marker) {
        found.markerProblem = marker.error();
        return;
    }
    found.marker = marker.value();
    if (!found.marker)
        return;
    found.writerAlive = markerWriterAlive(*found.marker);
    found.markerStale = !found.writerAlive && (runId.isEmpty() || runId != found.marker->runId);
}

Status readSettings(EndpointLeftovers &found, ServerSession &session)
{
    // A run on a server that refuses CONFIG changed no setting: its marker holds none.
    if (!found.marker || found.markerStale || found.marker->settings.empty())
        return Status::success();
    Outcome<std::map<QString, QString>> settings = session.configSettings();
    if (!settings)
        return Error{QStringLiteral("%1 (needed to tell the owner's settings from what Versus set)").arg(settings.error())};
    for (const auto &[name, owners] : found.marker->settings) {
        if (const auto now = settings->find(name); now != settings->end())
            found.settingsNow[name] = now->second;
    }
    found.settingsLeft = settingsLeftBy(*found.marker, EndpointState::settingsChanged(), settings.value());
    return Status::success();
}

QString settingsText(const EndpointLeftovers &found)
{
    QStringList parts;
    for (const auto &[name, owners] : found.settingsLeft)
        parts << QStringLiteral("%1 is %2, Versus's value; the owner's was %3").arg(name, found.settingsNow.at(name), owners);
    return parts.join(QStringLiteral("; "));
}

} // namespace

bool EndpointLeftovers::empty() const
{
    return replayUsers.versus.isEmpty() && !marker && staleMarkers.empty();
}

Outcome<EndpointLeftovers> findEndpointLeftovers(const QString &host, int port, const Credentials &login, int timeoutMs,
                                                 const TlsSettings &tls)
{
    EndpointLeftovers found;
    found.host = host;
    found.port = port;
    found.where = hostPortText(host, port);
    ServerSession session;
    if (Status connected = session.connect(host, port, login, timeoutMs, found.where, tls); !connected)
        return Error{connected.error()};
    if (Outcome<ReplayUsers> users = replayUsersOn(session.connection()); users)
        found.replayUsers = users.value();
    else
        found.usersProblem = users.error();
    readMarker(found, session);
    if (Status settings = readSettings(found, session); !settings)
        return Error{settings.error()};
    return found;
}

QStringList describeEndpointLeftovers(const EndpointLeftovers &found)
{
    QStringList lines;
    if (!found.usersProblem.isEmpty())
        lines << QStringLiteral("%1: its ACL users could not be listed (%2)").arg(found.where, found.usersProblem);
    if (!found.markerProblem.isEmpty())
        lines << QStringLiteral("%1: %2").arg(found.where, found.markerProblem);
    if (!found.replayUsers.versus.isEmpty())
        lines << QStringLiteral("%1: ACL users a run of Versus made, whose password no one knows any more unless a run is "
                                "going on now: %2")
                     .arg(found.where, found.replayUsers.versus.join(QStringLiteral(", ")));
    for (const QString &stale : found.staleMarkers)
        lines << QStringLiteral("%1: a marker of a run of Versus killed before the server restarted; the server read its "
                                "own settings again, nothing to put back: %2").arg(found.where, endpointMarkerPath(stale));
    const QString markerPath = endpointMarkerPath(found.markerKey);
    if (found.marker && found.writerAlive)
        lines << QStringLiteral("%1: Versus (pid %2) is running on it now (as %3); its marker: %4")
                     .arg(found.where).arg(found.marker->pid).arg(found.marker->endpoint, markerPath);
    else if (found.marker && found.markerStale)
        lines << QStringLiteral("%1: a marker of a run of Versus (pid %2) on a server that does not say its run id, which "
                                "cannot be told from a restarted one: nothing to put back: %3")
                     .arg(found.where).arg(found.marker->pid).arg(markerPath);
    else if (found.marker && !found.settingsLeft.empty())
        lines << QStringLiteral("%1: a run of Versus (pid %2) was killed before it put back its settings: %3")
                     .arg(found.where).arg(found.marker->pid).arg(settingsText(found));
    else if (found.marker)
        lines << QStringLiteral("%1: a marker of a run of Versus (pid %2) killed after the settings it changed were put back "
                                "or changed by someone else: %3")
                     .arg(found.where).arg(found.marker->pid).arg(markerPath);
    if (found.empty() && lines.isEmpty())
        lines << QStringLiteral("%1: nothing left by Versus").arg(found.where);
    lines << found.replayUsers.othersLeft(found.where);
    return lines;
}

Outcome<QStringList> putBackEndpointLeftovers(const EndpointLeftovers &found, const Credentials &login, int timeoutMs,
                                              const TlsSettings &tls)
{
    if (found.marker && found.writerAlive)
        return Error{QStringLiteral("%1: Versus (pid %2) is running on it now (as %3); nothing is put back while it runs")
                         .arg(found.where).arg(found.marker->pid).arg(found.marker->endpoint)};
    ServerSession session;
    if (Status connected = session.connect(found.host, found.port, login, timeoutMs, found.where, tls); !connected)
        return Error{connected.error()};
    QStringList done;   // the users of other shapes were named by describeEndpointLeftovers(), and are left
    for (const QString &user : found.replayUsers.versus) {
        const Outcome<Reply> deleted = session.connection().command({"ACL", "DELUSER", user.toStdString()});
        if (!deleted || deleted->isError())
            return Error{QStringLiteral("%1: ACL DELUSER %2 failed: %3")
                             .arg(found.where, user, deleted ? QString::fromStdString(deleted->text) : deleted.error())};
        done << QStringLiteral("%1: ACL user %2 deleted").arg(found.where, user);
    }
    for (const auto &[name, owners] : found.settingsLeft) {
        const Outcome<Reply> set = session.connection().command({"CONFIG", "SET", name.toStdString(), owners.toStdString()});
        if (!set || set->isError())
            return Error{QStringLiteral("%1: CONFIG SET %2 %3 failed: %4")
                             .arg(found.where, name, owners, set ? QString::fromStdString(set->text) : set.error())};
        done << QStringLiteral("%1: %2 put back to %3").arg(found.where, name, owners);
    }
    std::vector<QString> markers = found.staleMarkers;
    if (found.marker)
        markers.push_back(found.markerKey);
    for (const QString &key : markers) {
        removeEndpointMarker(key);
        done << QStringLiteral("%1: marker removed: %2").arg(found.where, endpointMarkerPath(key));
    }
    return done;
}
