#pragma once
// The results of one comparison: everything needed to redraw every chart later.
// Serialised as JSON schema "versus.results/1" by bundleio.h.

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

struct CommandStat {
    long long calls = 0;
    long long usec = 0;
    double usecPerCall() const { return calls > 0 ? double(usec) / double(calls) : 0.0; }
};

struct TypeMemory {
    QString status = QStringLiteral("ok");   // "ok" or "unsupported"
    QString error;                           // the server's error text when unsupported
    long long keys = 0;
    long long usedMemoryDelta = 0;           // bytes, from INFO memory used_memory
    double bytesPerKey = 0;
    double memoryUsageBytesPerKey = 0;       // MEMORY USAGE, second opinion only
    std::map<QString, long long> encodings;  // OBJECT ENCODING histogram
    std::map<QString, CommandStat> commands; // when the type was timed on its own (hash-ttl)
};

struct RepeatResult {
    int repeat = 0;
    QString status = QStringLiteral("ok");   // "ok", "failed", "incomplete"
    QString error;
    // Memory
    long long keys = 0;
    long long usedMemoryDelta = 0;
    double bytesPerKey = 0;
    std::map<QString, TypeMemory> byType;
    // Server time, from INFO commandstats (probe commands excluded)
    std::map<QString, CommandStat> byCommand;
    long long events = 0;
    long long commands = 0;
    // Client side
    double seconds = 0;
    double eventsPerSecond = 0;
    double commandsPerSecond = 0;
    double latencyP50Usec = 0;               // pipeline round trip
    double latencyP99Usec = 0;
    std::map<QString, long long> errors;     // "CMD: message" -> count
    // The fixed CPU loop's time on the servers' CPU before the repeat's timed passes (the
    // slowest if several): how fast the machine was. 0: not raced (concurrent, one CPU).
    double cpuLoopMs = 0;
    // Sampled during the repeat's timed passes (the slowest pass if several); 0: not sampled.
    double passLoopMs = 0;                   // the same loop, median of the samples
    double passChaseNs = 0;                  // the memory walk, ns per step, median of the samples
    int retimed = 0;                         // timed passes run again because the machine was slow
    int slowPasses = 0;                      // timed passes kept although the machine was slow

    long long totalCalls() const;
    long long totalUsec() const;
    double usecPerCall() const;              // Σusec / Σcalls
    double usecPerEvent() const;             // Σusec / events
};

struct ServerRun {
    QString id;                              // "valkey-8.0.1"
    QString product;
    QString version;
    QString buildId;
    QString allocator;
    QString binarySha256;
    QString status = QStringLiteral("ok");   // "ok", "failed", "unsupported", "incomplete"
    QString error;
    QStringList logTail;
    bool endpoint = false;
    std::vector<RepeatResult> repeats;
};

struct MachineInfo {
    QString cpuModel;
    int cores = 0;
    QString os;
    QString hostname;
};

struct WorkloadInfo {
    QString name;
    QString sourceFile;
    QString sourceSha256;
    std::map<QString, QString> parameters;
    long long events = 0;
    long long commands = 0;
    QStringList types;
};

struct ResultsBundle {
    static constexpr const char *schema = "versus.results/1";
    QDateTime created;
    MachineInfo machine;
    QString versusVersion;
    WorkloadInfo workload;
    QString schedule = QStringLiteral("fair");
    int repeats = 1;
    bool complete = true;
    QString baseline;                        // server id; empty means the oldest version
    std::vector<ServerRun> servers;

    const ServerRun *server(const QString &id) const;
};

// Spread of one figure over the repeats of one server.
struct Spread {
    double median = 0;
    double min = 0;
    double max = 0;
    double ciLow = 0;                        // 95% interval, only when n >= 5
    double ciHigh = 0;
    int n = 0;
    bool hasInterval() const { return n >= 5; }
};

Q_DECLARE_METATYPE(RepeatResult)
Q_DECLARE_METATYPE(ServerRun)
Q_DECLARE_METATYPE(ResultsBundle)
