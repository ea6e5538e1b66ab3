#include "endpointstate.h"

#include "endpointmarker.h"
#include "hostport.h"
#include "infoparser.h"
#include "replayusers.h"
#include "serversession.h"

#include <algorithm>
#include <set>
#include <vector>
#include <unistd.h>
#include <utility>

namespace {

QString joined(const std::vector<std::string> &words)
{
    QStringList parts;
    for (const std::string &word : words)
        parts << QString::fromStdString(word);
    return parts.join(QLatin1Char(' '));
}

// One command whose error reply is an Error too, naming the command (never its arguments
// beyond the first two: a restored value may be a secret).
Outcome<Reply> call(ServerSession &session, const std::vector<std::string> &args)
{
    Outcome<Reply> reply = session.connection().command(args);
    if (!reply)
        return reply;
    if (reply->isError()) {
        const std::vector<std::string> named(args.begin(), args.begin() + std::min<size_t>(2, args.size()));
        return Error{QStringLiteral("%1: %2 failed: %3")
                         .arg(session.connection().name(), joined(named), QString::fromStdString(reply->text))};
    }
    return reply;
}

bool isUnknownCommand(const Reply &reply)
{
    return reply.isError() && (reply.text.find("unknown command") != std::string::npos
                               || reply.text.find("unknown subcommand") != std::string::npos);
}

// Names (never values: requirepass and masterauth are among them) of the settings that differ.
QStringList differences(const std::map<QString, QString> &before, const std::map<QString, QString> &after)
{
    QStringList names;
    for (const auto &[name, value] : before) {
        const auto now = after.find(name);
        if (now == after.end() || now->second != value)
            names << name;
    }
    for (const auto &[name, value] : after) {
        if (!before.count(name))
            names << name;
    }
    return names;
}

// FUNCTION LIST WITHCODE's reply: each library's code by its name.
std::map<std::string, std::string> librariesOf(const Reply &list)
{
    std::map<std::string, std::string> libraries;
    for (const Reply &library : list.elements) {
        std::string name;
        std::string code;
        for (size_t i = 0; i + 1 < library.elements.size(); i += 2) {
            if (library.elements[i].text == "library_name")
                name = library.elements[i + 1].text;
            else if (library.elements[i].text == "library_code")
                code = library.elements[i + 1].text;
        }
        libraries[name] = code;
    }
    return libraries;
}

QString namesText(const std::vector<std::string> &names)
{
    QStringList parts;
    for (const std::string &name : names)
        parts << QString::fromStdString(name);
    return parts.join(QStringLiteral(", "));
}

} // namespace

// Putting things back is worth waiting for: a server that stalled the run (a CLIENT PAUSE, a
// slow disk) often answers again a few seconds later.
constexpr int kShortestTimeoutMs = 5000;

EndpointState::EndpointState(ServerSpec spec, int timeoutMs, QString name)
    : m_spec(std::move(spec)), m_timeoutMs(std::max(timeoutMs, kShortestTimeoutMs)), m_name(std::move(name))
{
}

const std::map<QString, QString> &EndpointState::settingsChanged()
{
    static const std::map<QString, QString> changed{{QStringLiteral("latency-tracking"), QStringLiteral("no")}};
    return changed;
}

Status EndpointState::connect(ServerSession &session) const
{
    return session.connect(m_spec.host, m_spec.port, m_spec.login(), m_timeoutMs, m_name, m_spec.tls);
}

Outcome<std::map<QString, QString>> EndpointState::readSettings(ServerSession &session) const
{
    Outcome<std::map<QString, QString>> settings = session.configSettings();
    if (!settings)
        return Error{QStringLiteral("%1 (Versus needs it to put back the settings it changes)").arg(settings.error())};
    return settings;
}

Status EndpointState::capture()
{
    ServerSession session;
    if (Status connected = connect(session); !connected)
        return connected;
    Outcome<ServerSession::SettingsReading> settings = session.readSettings();
    if (!settings)
        return Error{settings.error()};
    Outcome<Reply> functions = session.connection().command({"FUNCTION", "LIST", "WITHCODE"});
    if (!functions)
        return Error{functions.error()};
    m_libraries.reset();
    if (!functions->isError()) {
        m_libraries = librariesOf(functions.value());
    } else if (!isUnknownCommand(functions.value())) {
        // A workload that loads a library is refused it the same way (FUNCTION is not a data
        // command): nothing of the owner's can be replaced.
        m_notes << QStringLiteral("%1: %2: function libraries are not kept; the replay may not load any")
                       .arg(m_name, refusalText(QStringLiteral("FUNCTION LIST"), functions.value()));
    }
    m_settings = std::move(settings->settings);
    m_limits = MeasurementLimits();
    m_limits.settingsUnread = settings->refusal;
    if (Status adopted = adoptLeftover(session); !adopted)
        return adopted;
    m_captured = true;
    return Status::success();
}

QStringList EndpointState::takeNotes()
{
    return std::exchange(m_notes, QStringList());
}

Status EndpointState::adoptLeftover(ServerSession &session)
{
    if (const Outcome<QString> server = session.info("server"); server)
        m_runId = parseInfoFields(server.value())[QStringLiteral("run_id")];
    m_markerKey = endpointMarkerKey(m_runId, m_spec.host, m_spec.port);
    // The server restarted since those were written (or another server took the address): it
    // read its own settings again.
    for (const QString &stale : staleEndpointMarkers(hostPortText(m_spec.host, m_spec.port), m_runId))
        removeEndpointMarker(stale);
    const Outcome<std::optional<EndpointMarker>> marker = readEndpointMarker(m_markerKey);
    if (!marker) {
        m_notes << QStringLiteral("%1: an earlier run's marker could not be read: %2").arg(m_name, marker.error());
        return Status::success();
    }
    if (!marker.value())
        return distrustOtherRuns(session);
    const EndpointMarker &left = *marker.value();
    if (markerWriterAlive(left))
        return Error{QStringLiteral("%1: another Versus (pid %2) is running on this server (as %3); two runs on one server "
                                    "flush and reset each other: wait for it to finish (its marker: %4)")
                         .arg(m_name).arg(left.pid).arg(left.endpoint, endpointMarkerPath(m_markerKey))};
    if (left.runId != m_runId || m_runId.isEmpty()) {
        removeEndpointMarker(m_markerKey);   // no run id to tell this server from a restarted one
        return distrustOtherRuns(session);
    }
    for (const auto &[name, owners] : settingsLeftBy(left, settingsChanged(), m_settings)) {
        m_notes << QStringLiteral("%1: an earlier run of Versus (pid %2) was stopped before it put back %3: %4 is "
                                  "Versus's, not the owner's; it is put back to %5 at the end of this run")
                       .arg(m_name).arg(left.pid).arg(name, m_settings[name], owners);
        m_settings[name] = owners;
    }
    return Status::success();
}

Status EndpointState::distrustOtherRuns(ServerSession &session)
{
    const Outcome<ReplayUsers> users = replayUsersOn(session.connection());
    if (!users || users->versus.isEmpty())
        return Status::success();
    for (const auto &[name, value] : settingsChanged()) {
        const auto found = m_settings.find(name);
        if (found == m_settings.end() || found->second != value)
            continue;
        m_ownerUnknown.insert(name);
        m_notes << QStringLiteral("%1: %2 is %3, the value Versus sets, while ACL users of another run of Versus are on the "
                                  "server (%4; a run going on now, or one killed, from another machine): it may be that "
                                  "run's, not the owner's, so this run does not put it back")
                       .arg(m_name, name, value, users->versus.join(QStringLiteral(", ")));
    }
    return Status::success();
}

Status EndpointState::prepareForMeasuring()
{
    ServerSession session;
    if (Status connected = connect(session); !connected)
        return connected;
    // The flush the user consented to comes first: a server that refuses it (FLUSHALL renamed
    // or forbidden) cannot be measured, and is then left with nothing changed at all.
    if (Status flushed = session.flushSync(m_timeoutMs); !flushed)
        return Error{QStringLiteral("%1 (every pass starts from an empty server: the run stops here, with no setting "
                                    "changed and no statistic reset)").arg(flushed.error())};
    EndpointMarker marker{hostPortText(m_spec.host, m_spec.port), m_runId, qint64(::getpid()), {}};
    for (const auto &[name, value] : settingsChanged()) {
        if (m_settings.count(name) && !m_ownerUnknown.count(name))
            marker.settings[name] = m_settings.at(name);
    }
    // Written before anything changes: a run killed from here on leaves it for the next one.
    // Written when nothing will change too: it keeps a second run off the endpoint.
    if (Status written = writeEndpointMarker(m_markerKey, marker); !written)
        m_notes << QStringLiteral("%1: what this run changes could not be written down (%2): if Versus is killed, "
                                  "put latency-tracking back by hand").arg(m_name, written.error());
    m_markerWritten = true;
    if (Status tracking = turnTrackingOff(session); !tracking)
        return tracking;
    if (!m_limits.trackingLeftOn.isEmpty()) {
        m_limits.statsNotReset = QStringLiteral("not sent: it would free the latency histograms mid-run");
        return Status::success();
    }
    // After latency-tracking is off: nothing allocates a histogram again until restore().
    Outcome<Reply> reset = session.connection().command({"CONFIG", "RESETSTAT"});
    if (!reset)
        return Error{reset.error()};
    if (reset->isError())
        m_limits.statsNotReset = refusalText(QStringLiteral("CONFIG RESETSTAT"), reset.value());
    return Status::success();
}

Status EndpointState::turnTrackingOff(ServerSession &session)
{
    if (!m_limits.settingsUnread.isEmpty()) {
        // Its value cannot be read, so it could not be put back: left as it is.
        m_limits.trackingLeftOn = m_limits.settingsUnread;
        return Status::success();
    }
    for (const auto &[name, value] : settingsChanged()) {
        if (!m_settings.count(name)) {
            // A server before Redis 7.0 has no latency tracking, but a proxy or a managed service
            // that filters CONFIG leaves it out as well while tracking stays on: its state is
            // unknown, and taken as on. Not set either: its value could not be put back.
            m_limits.trackingLeftOn = MeasurementLimits::trackingUnknownText();
            continue;
        }
        Outcome<Reply> set = session.connection().command({"CONFIG", "SET", name.toStdString(), value.toStdString()});
        if (!set)
            return Error{set.error()};
        if (set->isError())
            m_limits.trackingLeftOn = refusalText(QStringLiteral("CONFIG SET ") + name, set.value());
    }
    return Status::success();
}

// Only a library whose code now is one the workload loads is Versus's to undo: deleted, or the
// owner's code loaded again over it. Whatever else changed was done by another client.
Outcome<QStringList> EndpointState::restoreFunctions(ServerSession &session) const
{
    if (!m_libraries)
        return QStringList();
    Outcome<Reply> listed = call(session, {"FUNCTION", "LIST", "WITHCODE"});
    if (!listed)
        return Error{listed.error()};
    const std::map<std::string, std::string> now = librariesOf(listed.value());
    std::set<std::string> names;
    for (const auto *libraries : {&m_libraries.value(), &now}) {
        for (const auto &[name, code] : *libraries)
            names.insert(name);
    }
    std::vector<std::string> deleted, putBack, others;
    for (const std::string &name : names) {
        const auto before = m_libraries->find(name);
        const auto after = now.find(name);
        const bool had = before != m_libraries->end();
        if (had && after != now.end() && before->second == after->second)
            continue;
        if (after == now.end() || !m_workloadLibraries.count(after->second)) {
            others.push_back(name);
            continue;
        }
        Outcome<Reply> undone = had ? call(session, {"FUNCTION", "LOAD", "REPLACE", before->second})
                                    : call(session, {"FUNCTION", "DELETE", name});
        if (!undone)
            return Error{QStringLiteral("%1 (library %2)").arg(undone.error(), QString::fromStdString(name))};
        (had ? putBack : deleted).push_back(name);
    }
    QStringList done;
    if (!deleted.empty())
        done << QStringLiteral("%1: function libraries the workload loaded deleted: %2").arg(m_name, namesText(deleted));
    if (!putBack.empty())
        done << QStringLiteral("%1: function libraries the workload replaced put back as they were before the run: %2")
                    .arg(m_name, namesText(putBack));
    if (!others.empty())
        done << QStringLiteral("%1: function libraries changed during the run by another client: kept as they are: %2")
                    .arg(m_name, namesText(others));
    return done;
}

Outcome<QStringList> EndpointState::restoreSettings(ServerSession &session) const
{
    Outcome<std::map<QString, QString>> now = readSettings(session);
    if (!now)
        return Error{now.error()};
    QStringList done;
    for (const auto &[name, value] : settingsChanged()) {
        const auto original = m_settings.find(name);
        if (original == m_settings.end() || now.value()[name] == original->second)
            continue;
        if (m_ownerUnknown.count(name)) {
            done << QStringLiteral("%1: %2 left at %3: the %4 it had when this run began may have been another run's")
                        .arg(m_name, name, now.value()[name], original->second);
            continue;
        }
        if (Outcome<Reply> set = call(session, {"CONFIG", "SET", name.toStdString(), original->second.toStdString()}); !set)
            return Error{QStringLiteral("%1; %2 is left at %3, it was %4").arg(set.error(), name, now.value()[name], original->second)};
        done << QStringLiteral("%1: %2 put back to %3").arg(m_name, name, original->second);
    }
    Outcome<std::map<QString, QString>> after = readSettings(session);
    if (!after)
        return Error{after.error()};
    const QStringList changed = differences(m_settings, after.value());
    if (!changed.isEmpty())
        done << QStringLiteral("%1: settings changed during the run by someone other than Versus, left as they are now: %2")
                    .arg(m_name, changed.join(QStringLiteral(", ")));
    return done;
}

Outcome<QStringList> EndpointState::restore()
{
    if (!m_captured || !m_markerWritten)
        return QStringList();   // stopped before it changed anything (a refused flush, or never prepared)
    ServerSession session;
    if (Status connected = connect(session); !connected)
        return Error{QStringLiteral("%1; could not put back latency-tracking and the function libraries").arg(connected.error())};
    QStringList done;
    QStringList failed;
    if (Status flushed = session.flushSync(m_timeoutMs); !flushed)
        failed << flushed.error();
    Outcome<QStringList> functions = restoreFunctions(session);
    if (!functions)
        failed << functions.error();
    else
        done << functions.value();
    if (m_limits.settingsUnread.isEmpty()) {
        Outcome<QStringList> settings = restoreSettings(session);
        if (!settings)
            failed << settings.error();
        else
            done << settings.value();
    } else {
        done << QStringLiteral("%1: no setting was changed (%2)").arg(m_name, m_limits.settingsUnread);
    }
    if (!failed.isEmpty())
        return Error{failed.join(QStringLiteral("; "))};
    if (std::exchange(m_markerWritten, false))
        removeEndpointMarker(m_markerKey);
    return done;
}
