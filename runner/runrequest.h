#pragma once
// What to run: which servers, which workload, how often and how fairly.

#include "serverspec.h"
#include "workload.h"
#include <QMetaType>
#include <memory>
#include <vector>

class PassSpeedometer;

struct RunRequest {
    std::vector<ServerSpec> servers;
    std::shared_ptr<const Workload> workload;
    int repeats = 1;
    QString schedule = QStringLiteral("fair");   // "fair" (lockstep, one server at a time) or "concurrent"
    int eventsPerBatch = 1;                       // events per pipeline
    bool allowFlush = false;                      // consent to flush endpoints Versus did not launch
    int commandTimeoutMs = 10000;                 // a server silent this long is marked failed (hung)
    int probeIntervalMs = 200;                    // live INFO probe period
    bool pinCpus = true;                          // fair schedule: a CPU of its own for the timed server
    // Fair schedule: how long a timed pass may wait for the machine's usual speed.
    // -1: 30 s with repeats (a slow stretch would make them disagree), none for a single run.
    int settleLimitMs = -1;
    // Fair schedule: how often a timed pass is run again when the machine ran slower than
    // usual during it (PassSpeedometer). -1: twice with repeats, never for a single run.
    int retimeLimit = -1;
    // Used instead of one built on the usual speed kept in the per-user cache, when set.
    std::shared_ptr<PassSpeedometer> speedometer;
};

// Progress of one server, delivered to the GUI at most ~10 times a second.
struct ServerProgress {
    int runId = 0;
    QString serverId;
    QString state;          // "starting", "replaying", "waiting", "measuring", "done", "failed", "cancelled"
    QString phase;          // e.g. "timed pass", "memory: counter"
    int repeat = 0;         // 0-based
    long long eventsDone = 0;
    long long eventsTotal = 0;   // across all passes and repeats of this server
    long long commandsDone = 0;
    double eventsPerSecond = 0;
    double etaSeconds = -1;
    QString message;        // last error or note, e.g. "HSETEX unsupported"
    double fraction() const { return eventsTotal > 0 ? double(eventsDone) / double(eventsTotal) : 0.0; }
};
Q_DECLARE_METATYPE(ServerProgress)
