#pragma once
// The results of one comparison: what was measured, and nothing derived from it. Everything
// shown (medians, changes, totals, states) comes from the figures layer (figures.h).
// Serialised as JSON schema "versus.results/1" by bundlejson.h.

#include "buildorigin.h"
#include "commandstat.h"
#include "measurementlimits.h"
#include "memoryaccounting.h"
#include "passload.h"
#include "releasenotes.h"
#include "serverclock.h"
#include "serverprofile.h"
#include "servertails.h"
#include "topology.h"
#include "workloadinfo.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

enum class TypeStatus { Ok, Unsupported };
enum class RepeatStatus { Ok, Failed, Incomplete };
enum class RunStatus { Ok, Failed, Incomplete };
enum class Schedule { Fair, Concurrent };

// What one timed pass measured: the server's time per command and the client's pace.
struct PassTiming {
    // INFO commandstats, Versus's own probes excluded: time inside the commands only.
    std::map<QString, CommandStat> byCommand;
    // The server's own time over the pass, around the commands as well (main-thread CPU, the
    // event loop: serverclock.h), Versus's own reads taken off. Absent in bundles before Versus
    // read it; a counter the version does not report is absent within it.
    std::optional<ServerClock> serverTime;
    // What else used the machine and the server during the pass (passload.h); absent in bundles
    // before Versus read it. The figures layer judges it (figurespassverdict.cpp).
    std::optional<PassLoad> load;
    // The server-side latency per command from its LATENCY HISTOGRAM, or why there is none
    // (servertails.h); empty in bundles before Versus read it.
    ServerTails tails;
    long long events = 0;                       // events that sent at least one command
    long long commands = 0;
    double seconds = 0;                         // spent in pipeline round trips
    double latencyP50Usec = 0;                  // pipeline round trip
    double latencyP99Usec = 0;

    long long totalCalls() const;
    long long totalUsec() const;
    double usecPerCall() const;                 // Σusec / Σcalls
    double usecPerEvent() const;                // Σusec / events
    double eventsPerSecond() const;
    double commandsPerSecond() const;
};

// The replies of a cluster whose slots moved, followed or sent again (clusterredirects.h).
struct Redirects {
    long long moved = 0;
    long long asked = 0;
    long long retried = 0;   // TRYAGAIN

    bool any() const { return moved > 0 || asked > 0 || retried > 0; }
    Redirects &operator+=(const Redirects &other)
    {
        moved += other.moved;
        asked += other.asked;
        retried += other.retried;
        return *this;
    }
};

// What the server gave up of a pass's data, read at the pass's edges: keys `maxmemory` evicted
// (INFO stats evicted_keys) and commands refused as out of memory (INFO errorstats
// errorstat_OOM). A pass that lost or refused data has no memory figure (docs/MEASUREMENT.md,
// "Evictions and refused writes"). Both 0 in bundles before Versus read them.
struct DataLoss {
    long long evictedKeys = 0;
    long long refusedWrites = 0;

    bool any() const { return evictedKeys > 0 || refusedWrites > 0; }
    DataLoss &operator+=(const DataLoss &other)
    {
        evictedKeys += other.evictedKeys;
        refusedWrites += other.refusedWrites;
        return *this;
    }
};

// What a server's COMMAND INFO flags a command: "write", else "readonly", else neither.
enum class CommandKind { Neither, Write, Read };

// One primary's share of a cluster's pass: its keys and its used_memory change. The server's
// figures are the sums over its primaries; these show how evenly the keys spread.
struct NodeMemory {
    QString slotRanges;                           // "0-5460"
    long long keys = 0;
    long long usedMemoryDelta = 0;
};

struct TypeMemory {
    TypeStatus status = TypeStatus::Ok;
    QString error;                           // the server's error text when unsupported
    long long keys = 0;
    long long usedMemoryDelta = 0;           // bytes, from INFO memory used_memory
    // Bytes per key (usedMemoryDelta / keys) is the figures layer's: the bundle holds what was measured.
    double bytesPerKey() const { return keys > 0 ? double(usedMemoryDelta) / double(keys) : 0.0; }
    double memoryUsageBytesPerKey = 0;       // MEMORY USAGE, second opinion only
    std::map<QString, long long> encodings;  // OBJECT ENCODING histogram
    std::optional<PassTiming> timing;        // when the type was timed on its own (hash-ttl)
    std::vector<NodeMemory> nodes;           // a cluster's primaries; empty for a standalone server
    // The server's own accounting of the pass (MEMORY STATS, MALLOC-STATS), for the Why view;
    // absent in bundles before Versus read it.
    std::optional<MemoryAccounting> accounting;
    DataLoss loss;                           // of the type's own pass
};

struct RepeatResult {
    int repeat = 0;
    RepeatStatus status = RepeatStatus::Ok;
    QString error;
    // The combined timed pass (workloads whose types share one server): memory over all types
    // and the timing. Workloads that time each type alone leave these empty.
    long long keys = 0;
    long long usedMemoryDelta = 0;
    double bytesPerKey() const { return keys > 0 ? double(usedMemoryDelta) / double(keys) : 0.0; }
    std::vector<NodeMemory> nodes;           // a cluster's primaries; empty for a standalone server
    std::optional<MemoryAccounting> accounting;   // of the combined pass, as TypeMemory's
    DataLoss loss;                               // of the combined pass
    PassTiming timing;
    std::map<QString, TypeMemory> byType;
    std::map<QString, long long> errors;     // "CMD: message" -> count
    QString firstError;                      // the first error reply of the repeat, as the server gave it
    // Commands of the workload not run, by command ("MIGRATE", "CONFIG SET"): the replay user's
    // ACL refused them, or on an endpoint without ACL Versus did not send them. Not errors.
    std::map<QString, long long> refused;
    // Calls the server counted in a timed pass beyond what Versus sent (another client, or a
    // script's own commands), by command.
    std::map<QString, long long> countedNotSent;
    // A cluster whose slots moved during the repeat: its MOVED and ASK replies, each command sent
    // again to the primary named, and TRYAGAIN replies sent again (clusterredirects.h). All 0
    // when no slot moved.
    Redirects redirects;
    // Commands of a capture this server does not know, by command ("HSETEX") -> commands that
    // got "unknown command": the rest of the capture ran; the figures leave these out.
    std::map<QString, long long> unsupportedCommands;
    // A repeat caught while a pass ran (live, or cancelled): which pass had not finished.
    bool unfinishedTimedPass = false;
    QString unfinishedType;

    long long errorCount() const;
    long long refusedCount() const;
};

struct ServerRun {
    QString id;                              // "valkey-8.0.1", "valkey-8.0.1-cluster-3"
    Topology topology;                       // standalone, or the cluster Versus launched
    // The --self-check series: the first server's build run again on a server of its own. It
    // measures the machine's noise and is never compared as a version (figuresselfcheck.cpp).
    bool selfCheck = false;
    QString product;
    QString version;
    QString buildId;
    QString allocator;
    QString binarySha256;                    // of the catalog's binary, before the run
    QString gitSha;                          // what --version printed as sha= (zeros: none)
    // Where the binary came from (the catalog's), and what its allocator said when the run
    // started: together they decide the bytes a memory figure reports (buildorigin.h).
    BuildOrigin origin;
    AllocatorFacts allocatorFacts;
    // The program the server process really ran (/proc/<pid>/exe, or the binary behind an
    // explicitly run loader), read while it ran; empty for endpoints or when unreadable.
    QString executablePath;
    QString executableSha256;
    RunStatus status = RunStatus::Ok;
    QString error;
    QStringList logTail;
    bool endpoint = false;
    // How Versus's connections reached it: "plain", "tls", or "tls-unchecked" (--insecure: the
    // server's certificate was not checked). Empty in bundles from before TLS: plain.
    QString transport;
    bool overTls() const { return transport.startsWith(QLatin1String("tls")); }
    QString replayAccess;                    // how the replay connections logged in (ReplayAccess::description())
    // What an endpoint refused of what Versus changes for measuring (a managed service's CONFIG),
    // and so how its figures were taken instead (measurementlimits.h). Empty: nothing refused.
    MeasurementLimits limits;
    // In a comparison of two bundles (bundlemerge.h): the name of the bundle this server came
    // from ("laptop"). Empty in a run's own bundle.
    QString bundleName;
    // CONFIG GET * as the first repeat's server had it before its first pass (after
    // --server-config), and what of --server-config it took and refused (name -> the
    // server's reason, e.g. "not a setting of this version").
    std::map<QString, QString> config;
    std::map<QString, QString> configApplied;
    std::map<QString, QString> configRefused;
    // A capture's commands as this server's COMMAND INFO flags them: "SET" -> Write, "GET" ->
    // Read (readonly), "PING" -> Neither; a command the server does not know is absent. In the
    // bundle: "write", "read", "".
    // The figures make a capture's "writes" and "reads" groups of them.
    std::map<QString, CommandKind> commandKinds;
    // The release notes that came with its build (releasenotes.h), read when the run started:
    // the entries of versions newer than the run's oldest, which are the only ones a comparison
    // can list. None at hand (no source) for a Debian package or a binary without them.
    ReleaseNotes releaseNotes;
    // --profile: where the server spent its CPU over an untimed pass after its timed ones, or
    // why there is none (serverprofile.h). Empty without --profile.
    ServerProfile profile;
    std::vector<RepeatResult> repeats;
};

struct MachineInfo {
    QString cpuModel;
    int cores = 0;
    QString os;
    QString hostname;
};

// One value of a swept workload parameter: the run at that value, as a run's own bundle holds it.
struct SweepPoint {
    QString value;                           // "64", as given to --sweep
    WorkloadInfo workload;                   // with the parameter at this value
    bool complete = true;
    std::vector<ServerRun> servers;
    int eventsPerBatch = 0;                  // events per pipeline the point ran with; 0: not recorded
};

// A run of one workload at several values of one of its parameters (--sweep value-size=16,64,256).
// The bundle's own workload and servers are one of the points (`shown`), so a view that knows
// nothing of sweeps reads a sweep bundle as the run at that value.
struct SweepResults {
    QString parameter;                       // "value-size"; empty: not a sweep
    std::vector<SweepPoint> points;          // in the order given
    int shown = -1;                          // the point the bundle's top level holds
};

// One of the two bundles a comparison was merged from (bundlemerge.h): what its own
// provenance said, so the merged footnote can say it for each.
struct ComparedBundle {
    QString name;                            // the suffix its servers carry ("laptop")
    QDateTime created;
    MachineInfo machine;
    QString versusVersion;
    WorkloadInfo workload;
    Schedule schedule = Schedule::Fair;
    int repeats = 1;
    int eventsPerBatch = 0;
    int clients = 0;
};

struct ResultsBundle {
    static constexpr const char *schema = "versus.results/1";
    QDateTime created;
    MachineInfo machine;
    QString versusVersion;
    WorkloadInfo workload;
    Schedule schedule = Schedule::Fair;
    int repeats = 1;
    // How the replay sent the workload: events per pipeline (--batch) and connections per
    // server (--clients). 0: not recorded (bundles before Versus recorded them).
    int eventsPerBatch = 0;
    int clients = 0;
    bool complete = true;
    bool running = false;                    // a live snapshot of a run still going; never saved
    QString baseline;                        // server id; empty means the oldest version
    std::vector<ServerRun> servers;
    SweepResults sweep;                      // empty unless the run was a sweep (sweepbundle.h)
    // In the merged results of a comparison: the two bundles, first and second. Empty in a
    // run's own bundle.
    std::vector<ComparedBundle> compared;

    const ServerRun *server(const QString &id) const;
    // Whether any server was run: in the bundle, or in a point of its sweep. A run stopped before
    // any server started has none, and nothing to chart.
    bool holdsAnyServer() const;
    bool isSweep() const { return !sweep.parameter.isEmpty() && !sweep.points.empty(); }
};

Q_DECLARE_METATYPE(RepeatResult)
Q_DECLARE_METATYPE(ServerRun)
Q_DECLARE_METATYPE(ResultsBundle)
