#pragma once
// What to run: which servers, which workload, how often and how fairly; and the progress a
// server reports while it runs.

#include "resultsbundle.h"
#include "serverspec.h"
#include "workload.h"
#include <QMetaType>
#include <memory>
#include <vector>

struct RunRequest {
    std::vector<ServerSpec> servers;
    std::shared_ptr<const Workload> workload;
    int repeats = 1;
    Schedule schedule = Schedule::Fair;           // lockstep, one server at a time; or concurrent
    int eventsPerBatch = 1;                       // events per pipeline
    // Replay connections per server (per primary of a cluster), each with one pipeline on the
    // wire, as several clients of an application; one key's commands always share one.
    int clients = 1;
    static constexpr int kMostClients = 64;
    bool allowFlush = false;                      // consent to flush endpoints Versus did not launch
    int commandTimeoutMs = 10000;                 // a server silent this long is marked failed (hung)
    int probeIntervalMs = 200;                    // live INFO probe period
    bool pinCpus = true;                          // fair schedule: a CPU of its own for the timed server
    // --server-config name=value, in order: applied to every launched server (serverconfig.h).
    std::vector<std::pair<QString, QString>> serverConfig;
    // --profile: one untimed pass per launched server under perf after every timed pass
    // (profilepass.h); never part of a figure but the profile's.
    bool profile = false;
};

enum class ProgressState { Starting, Replaying, Waiting, Measuring, Done, Failed, Cancelled };
QString progressStateName(ProgressState state);   // "starting", "replaying", …

// Progress of one server, delivered to the GUI at most ~10 times a second.
struct ServerProgress {
    int runId = 0;
    QString serverId;
    ProgressState state = ProgressState::Starting;
    QString phase;          // e.g. "timed pass", "memory: counter"
    int repeat = 0;         // 0-based
    long long eventsDone = 0;
    long long eventsTotal = 0;   // across all passes and repeats of this server
    long long workloadEvents = 0;   // in the workload: what one pass replays
    long long commandsDone = 0;
    double eventsPerSecond = 0;
    double etaSeconds = -1;
    QString message;        // last error or note, e.g. "hsetex unsupported"
    double fraction() const { return eventsTotal > 0 ? double(eventsDone) / double(eventsTotal) : 0.0; }
    bool moving() const { return state == ProgressState::Replaying || state == ProgressState::Measuring; }
};
Q_DECLARE_METATYPE(ServerProgress)
