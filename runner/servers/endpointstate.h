#pragma once
// What a run changes on an endpoint (a server Versus did not launch), and putting it back.
//
// On an endpoint a run
// - sets latency-tracking to no: with it on, each command's first call allocates a latency
//   histogram that would be counted as the workload's memory (docs/MEASUREMENT.md). Put back at the end;
// - resets its statistics (CONFIG RESETSTAT: INFO stats counters, commandstats, errorstats and
//   the latency histograms). Cannot be undone;
// - deletes every key of every database (FLUSHALL SYNC before each pass and at the end), with
//   the user's consent. Cannot be undone;
// - leaves function libraries alone unless the workload loads some (FUNCTION LOAD outlives
//   FLUSHALL; the replay user may load but not delete, flush or restore): at the end, a
//   library whose code is one the workload loads is deleted, or put back to the owner's code
//   when it replaced one of the owner's (FUNCTION LIST WITHCODE before the run). Any other
//   change (a library loaded, replaced or deleted by another client during the run) is
//   someone else's: named and kept.
// restore() runs at the end of every run: completed, failed, cancelled from the window or by
// Ctrl-C (SIGINT and SIGTERM cancel the run, see runcommand.cpp). Only SIGKILL or a crash of
// Versus skips it: what was changed is written down first (endpointmarker.h), and the next
// run on the endpoint takes the owner's values from there, says so, and puts them back. A marker
// of a Versus still running refuses the run: two runs on one endpoint flush each other's keys.
// The marker is the server's (its run id), whatever address reaches it. A run from another
// machine leaves no marker here, only its replay user: a setting found at Versus's value
// beside such a user may be that run's, and is never put back (nor written down as the owner's).
// Each step opens its own connection, so a run whose connections were closed still restores.
//
// A server that refuses CONFIG (renamed or forbidden, as managed services do) or only CONFIG
// SET or RESETSTAT is measured around it (limits(), measurementlimits.h): nothing is changed
// that cannot be read first, latency tracking stays as its owner has it, and the statistics are
// not reset (never while latency tracking stays on: the reset would free its histograms).
// Blocks: call it in the worker's thread.

#include "measurementlimits.h"
#include "outcome.h"
#include "serverspec.h"
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

class ServerSession;

class EndpointState {
public:
    // `name` prefixes every message: the server's id in the run, "127.0.0.1:6379". Each
    // command may take `timeoutMs`, and at least 5 s.
    EndpointState(ServerSpec spec, int timeoutMs, QString name);

    // The code of each library the workload loads (FUNCTION LOAD's last argument): the only
    // libraries restore() deletes or puts back. None by default.
    void setWorkloadLibraries(std::set<std::string> codes) { m_workloadLibraries = std::move(codes); }
    // Reads what restore() puts back: every setting (CONFIG GET *) and the function
    // libraries (FUNCTION LIST WITHCODE, on servers that have functions). Changes nothing. A refused
    // CONFIG GET is a limit, not a failure: Versus then changes no setting.
    Status capture();
    // FLUSHALL SYNC (refused: an error, before anything changes), latency-tracking no, then
    // CONFIG RESETSTAT, which frees the histograms that commands sent before (by Versus or
    // anyone) allocated, so no baseline holds them. What the server refuses of the last two
    // becomes a limit.
    Status prepareForMeasuring();
    const MeasurementLimits &limits() const { return m_limits; }
    // FLUSHALL SYNC (the run's keys), the workload's function libraries and the settings as captured,
    // then CONFIG GET * once more against the capture. Returns what it did, for the log; the
    // error names what it could not put back. Does nothing before prepareForMeasuring() has
    // flushed: until then nothing was changed.
    Outcome<QStringList> restore();
    // What capture() and prepareForMeasuring() found worth saying (an earlier run's leftovers).
    QStringList takeNotes();

    // The settings a run changes, with the value it sets: {"latency-tracking", "no"}.
    static const std::map<QString, QString> &settingsChanged();

private:
    Status connect(ServerSession &session) const;
    Outcome<std::map<QString, QString>> readSettings(ServerSession &session) const;
    // latency-tracking no where the settings were read; a refusal becomes a limit.
    Status turnTrackingOff(ServerSession &session);
    Outcome<QStringList> restoreFunctions(ServerSession &session) const;
    Outcome<QStringList> restoreSettings(ServerSession &session) const;
    // An earlier run's marker (this server's, by its run id): its owner's values where the
    // server still has Versus's; a marker of a Versus running now refuses the run.
    Status adoptLeftover(ServerSession &session);
    // No marker here, but users of another run of Versus on the server (from another machine,
    // or killed): a changed setting found at Versus's value may be that run's, never put back.
    Status distrustOtherRuns(ServerSession &session);

    ServerSpec m_spec;
    int m_timeoutMs = 0;
    QString m_name;
    bool m_captured = false;
    std::map<QString, QString> m_settings;        // CONFIG GET * before the run
    std::optional<std::map<std::string, std::string>> m_libraries;   // name → code before the run; none: no functions
    std::set<std::string> m_workloadLibraries;    // the code of each library the workload loads
    QString m_runId;                              // INFO server run_id, for the marker
    QString m_markerKey;                          // endpointMarkerKey(): the run id, else the address
    std::set<QString> m_ownerUnknown;             // settings found at Versus's value beside another run's users
    bool m_markerWritten = false;
    QStringList m_notes;
    MeasurementLimits m_limits;
};
