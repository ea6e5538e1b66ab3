#pragma once
// The figures layer: the only code that turns measurements into the figures Versus shows.
// For a bundle (complete, cancelled, or a live snapshot of a running run) it decides which
// repeats count, which servers, types and commands are comparable, and for each
// (server, category, measure) the value, its spread, its change against the baseline (from
// the medians and paired repeat by repeat) and its state. Charts, tables, the Markdown, the
// CSV, the bundle's derived JSON and the CLI format these values; none computes its own.

#include "resultsbundle.h"
#include "statistics.h"

#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <vector>

struct SweepTable;

enum class Measure {
    BytesPerKey,            // used_memory delta / keys
    MemoryUsageBytesPerKey, // Σ MEMORY USAGE / keys, second opinion
    UsecPerCall,            // Σusec / Σcalls (server): time inside the commands (commandstats)
    UsecPerEvent,           // Σusec / events (server), inside the commands too
    // The server's time per command in all, around the commands as well (serverclock.h): over
    // a timed pass, its change / Σcalls of commandstats.
    MainThreadCpuPerCall,   // INFO cpu used_cpu_{user,sys}_main_thread, µs
    EventLoopPerCall,       // INFO stats eventloop_duration_sum, µs; not in Redis 7.0
    // The main thread's CPU over the pass's round-trip time, percent: near 100 the pass was
    // server-bound, and its throughput is the server's at saturation.
    MainThreadBusyPercent,
    EventsPerSecond,        // client
    CommandsPerSecond,      // client
    LatencyP50Usec,         // client, pipeline round trip
    LatencyP99Usec,
    Keys,                   // keys stored (memory categories)
    Calls,                  // commandstats calls (command categories)
    RatioToReference,       // a type's bytes per key / the reference type's, same server and repeat
    // Server-side latency per command (figurestails.cpp): the percentile of the server's own
    // LATENCY HISTOGRAM over the timed pass, as the upper bound in whole µs of the bucket it
    // falls in ("≤ 16 µs"). Not the client's round trip (LatencyP50Usec, LatencyP99Usec).
    ServerP50Usec,
    ServerP99Usec,
    ServerP999Usec,
    // --profile (figuresprofile.cpp): a category's share of the server's perf samples over the
    // untimed profile pass, percent. Not a time: no change, no noise rule.
    ProfileSharePercent,
};

enum class FigureState {
    Measured,     // over every repeat asked for
    Provisional,  // the run is still going
    Incomplete,   // the run stopped (cancelled, or the server failed) before every repeat finished
    Unsupported,  // the server refused the category's commands
    NotRun,       // the command was not sent: a pattern it belongs to is unsupported there, for
                  // another of its commands (HSET of hset-hexpire on Valkey 8.x, which refuses HEXPIRE)
    Failed,       // the server failed, or its commands got errors the other servers did not get
    Absent,       // no figure (e.g. a command this server never ran)
    Pending,      // no figure yet: the run goes on and this server has not measured it
};

struct Figure {
    FigureState state = FigureState::Absent;
    double value = 0;                 // median over the repeats that count
    Spread spread;                    // over the repeats that count
    bool growing = false;             // provisional: the pass that measures it is still running
    std::optional<double> change;     // percent against the baseline's value, when both are settled
    Spread pairedRatio;               // this / baseline repeat by repeat; n == 0 when none
    // this / baseline as "1.86 ± 0.03 ×" reads it: the ratio of the medians, and half the width
    // of the paired ratios' 95% interval (5 repeats or more) or of their range (2 to 4).
    std::optional<double> ratio;
    std::optional<double> ratioPlusMinus;
    // The change is no larger than this figure moves between runs (figuresnoise.cpp): shown, but no
    // view colours it as better or worse. A time figure's change is news only when the run's own
    // repeats resolve it (changeTest, paired repeat by repeat); memory keeps its run-to-run spread.
    bool withinNoise = false;
    ChangeTest changeTest;            // time figures: the t-test of the change over the repeats
    // A time change the repeats do not resolve, in words every view prints: "not resolvable with
    // 2 repeats: the smallest change this run could detect is 24.5%, and about 7 repeats would resolve
    // a change of 3.5%". Empty otherwise.
    QString unresolved;
    QString note;                     // the server's text, the failure, or why it is incomplete
    std::map<int, double> byRepeat;   // repeat index -> value, for the repeats that count
    // Why a measured figure has no change against the baseline: it or the baseline's covers
    // other work (a capture with commands one of the servers does not know). Empty otherwise.
    QString uncompared;
    // A time figure some of whose timed passes were not server-bound (figurespassverdict.cpp):
    // what limited them, in words every view prints beside the mark "§": "shared: another process
    // kept the server's main thread waiting 31% of a pass (repeat 2)". Empty otherwise.
    QString bottleneck;

    bool hasValue() const;            // measured, provisional or incomplete
    bool settled() const { return hasValue() && !growing; }
};

// What a category is. Its id is a name for files and scripts ("all", "group:writes"); views
// decide by the kind.
enum class CategoryKind {
    Overall,        // the total of the table ("all")
    CommandGroup,   // one of the workload's command groups ("All writes")
    Type,           // one type or pattern of the workload
    Command,        // one command
    Other,          // the commands folded together ("other (3)")
};

// A total or a command group ("All attributes", "All writes"): what covers the other categories,
// so an order puts it first and a selection of categories never leaves it out.
inline bool coversOthers(CategoryKind kind)
{
    return kind == CategoryKind::Overall || kind == CategoryKind::CommandGroup;
}

struct FigureCategory {
    QString id;                       // "all", a type, a command (lower case), "group:<name>", "other"
    QString label;                    // "All attributes", "counter", "SISMEMBER", "other (3)"
    bool total = false;               // a total over several types or commands
    QString scope;                    // a total over part of the work: "over set-ex, the pattern every server supports"
    QStringList over;                 // that part: the types the total covers
    CategoryKind kind = CategoryKind::Type;
    QString group;                    // CommandGroup: the group's name ("writes")

    bool isOverall() const { return kind == CategoryKind::Overall; }
};

// The workload's command group a category totals ("writes"); empty for any other category.
QString commandGroupOf(const FigureCategory &category);

// One measure over categories × servers.
struct FigureTable {
    Measure measure = Measure::BytesPerKey;
    std::vector<FigureCategory> categories;
    QStringList servers;                          // ids in display order
    std::vector<std::vector<Figure>> cells;       // [category][server]
    QString note;                                 // e.g. why a total is left out

    const Figure &at(int category, const QString &serverId) const;
    int categoryIndex(const QString &id) const;   // -1 when absent
    // Whether the table leads with the category its headline speaks of: a total, or the command
    // group a time table leads with ("All writes"). Every view that shows one figure per server
    // (the headline, the results table) takes category 0 only then.
    bool leadsWithHeadlineCategory() const;
};

enum class ServerVerdict {
    Completed,        // every repeat asked for, no command errors
    WorkloadErrors,   // completed, with the same command errors as every other server (or alone)
    RejectedWrites,   // its commands got errors the other servers did not get: its figures are wrong
    LostData,         // maxmemory evicted keys or refused writes: the figures of those passes are unavailable
    Failed,           // the server failed before any repeat finished
    FailedLater,      // the server failed after some repeats finished
    Cancelled,        // the run stopped before it finished
    Running,
};

struct ServerSummary {
    QString id;
    QString name;                     // "Valkey 8.0.1"
    ServerVerdict verdict = ServerVerdict::Completed;
    QString error;                    // the run's own error, when it failed
    long long errorCount = 0;         // command errors in the repeats that count
    long long ownErrorCount = 0;      // of those, the ones the other servers did not get
    QString firstError;
    std::map<QString, long long> errors;
    // Keys evicted and writes refused as out of memory in the repeats that count, every pass
    // together, and the server's limit ("maxmemory 4mb, allkeys-lru"; empty without one).
    DataLoss loss;
    QString memoryLimit;
    int countedRepeats = 0;           // finished repeats whose figures count
    bool partial = false;             // no repeat finished: its figures come from one that did not
    int partialRepeat = -1;           // which (0-based)
    bool endpoint = false;

    bool hasFigures() const { return countedRepeats > 0 || partial; }
    // "ok", "ok, 2 command errors", "lost data: evicted 14,203 keys (maxmemory 4mb, allkeys-lru)",
    // "failed: …", "cancelled", "running"
    QString statusText() const;
};

// Whether a change against the baseline is good news for the measure: less memory and time,
// more throughput. Neutral without a change, below 0.05% (the figures' last digit) or within
// noise (Figure::withinNoise).
enum class ChangeMeaning { Neutral, Better, Worse };

struct Headline {
    QString fromId;                   // the baseline
    // The newest version of the baseline's product; in a comparison of two bundles the same
    // version in the other bundle.
    QString toId;
    std::optional<double> change;     // of the table's headline category, when both settled
    ChangeMeaning meaning = ChangeMeaning::Neutral;   // of that change, Neutral within noise
    QString unresolved;               // a time change the run does not resolve: why (Figure::unresolved)
    bool acrossBundles = false;       // from and to are one version in the two bundles of a comparison
    bool provisional = false;         // the run is still going
    QString categoryLabel;
};

// How a cluster series' keys and memory spread over its primaries in one category, over every
// repeat its figures come from: the fewest and most keys a node held, and the lowest and
// highest bytes per key a node's own used_memory change gave.
struct NodeSpread {
    int nodes = 0;
    long long fewestKeys = 0;
    long long mostKeys = 0;
    double lowestBytesPerKey = 0;
    double highestBytesPerKey = 0;
};

// The encodings of one type on one server (OBJECT ENCODING histogram and key count).
struct TypeEncodings {
    long long keys = 0;
    std::map<QString, long long> encodings;
    Figure bytesPerKey;
    Figure memoryUsageBytesPerKey;
    bool memoryUsageDiffers = false;   // MEMORY USAGE is more than 10% away from the used_memory figure
};

// One setting whose value is not the same on every compared server (CONFIG GET * of each).
struct ConfigDifference {
    QString name;
    std::map<QString, QString> values;   // server id -> value; a server without it has no entry
    // Encoding thresholds, lazyfree, io-threads, hz, expire, defrag, maxmemory, hash-seed; not a
    // setting left empty (unset) wherever it exists.
    bool bearsOnFigures = false;
    bool everywhere = false;             // every compared server has the setting
};

struct FiguresData;
struct MemoryExplanation;
struct TimeExplanation;
enum class CategoryOrder;   // categoryorder.h

// The --self-check series against the server whose build it repeats (figuresselfcheck.cpp): their
// time per command inside the commands (the command time table's total), repeat by repeat, under
// the noise rule's paired test. Its smallest detectable change is the machine's noise floor in
// this run: a change between versions smaller than it is one this run could not tell from noise.
struct SelfCheck {
    QString serverId;                 // the self-check series
    QString ofId;                     // the series it repeats
    ChangeTest test;                  // self-check / original, paired repeat by repeat
    // The floor, in percent: the test's smallest detectable change; none with one repeat.
    std::optional<double> floorPercent() const { return test.spreadKnown() ? test.detectablePercent : std::nullopt; }
};

// What limited a timed pass (figurespassverdict.cpp). Only a server-bound pass times the server
// alone; the others' time figures are marked "§" and said beside every time headline.
enum class PassBound {
    ServerBound,   // the server's main thread was busy nearly all of the pass
    ClientBound,   // it waited for Versus's replay: the figure holds idle time between commands
    Shared,        // another process used the server's or the replay's CPU (or the hypervisor stole it)
    Disturbed,     // the server forked, evicted keys or served another client during the pass
    Unknown,       // not read: a bundle from before Versus read the load, or a version without the counters
};

struct PassVerdict {
    QString serverId;
    int repeat = 0;                  // RepeatResult::repeat
    QString pass;                    // "timed pass", or the type timed alone
    PassBound bound = PassBound::Unknown;
    // The figures that chose it: "the server forked 1 time (BGSAVE or AOF rewrite)", "main thread
    // busy 97% of the pass".
    QString why;
    // How far from server-bound, to name the worst of several passes: the largest share of the
    // pass another process took (shared), or the share the server sat idle (client-bound).
    double severity = 0;
};
// "server-bound", "client-bound", "shared", "disturbed", "unknown".
QString passBoundName(PassBound bound);

// An entry of a server's release notes (releasenotes.h) that names a command whose time changed,
// or that command's data type: a candidate to read, not a cause (figuresreleasenotes.cpp).
struct ReleaseNoteCandidate {
    QString version;   // the section it is from: "9.0.0", "9.0.0-rc1"
    QString text;
    QString names;     // what it names: the command ("HSET") or the type ("hash")
};

// For one command whose time per call changed beyond the noise rule between a compared version
// and the baseline: the entries of the newer one's release notes after the older version up to
// its own that name the command or its type. `unavailable` says why none are listed where the
// notes are not at hand or no release lies between the two.
struct ReleaseNoteCandidates {
    QString serverId;                 // the version compared with the baseline
    QString baselineId;
    QString command;                  // "ZREMRANGEBYRANK"
    QString type;                     // "sorted set"; empty for a command of no one type
    std::optional<double> change;     // of its time per call, percent against the baseline
    QString notesOf;                  // the newer of the two, whose notes were read
    QString source;                   // where those notes were read (ReleaseNotes::source)
    QString capped;                   // ReleaseNotes::capped of them
    QString unavailable;              // "no release notes at hand for Valkey 8.0.1 (Debian package)"
    std::vector<ReleaseNoteCandidate> entries;
};

// Which figures a build caveat speaks of: memory (the allocator decides the bytes) or time.
enum class CaveatOf { Memory, Time };

// One state of the results, shared and never changed: every Figures of it, and so every view,
// reads the same bundle without a copy of its own.
using BundleSnapshot = std::shared_ptr<const ResultsBundle>;

// What a view shows of a snapshot: the one place the baseline, the hidden versions, the order
// of the categories and the commands shown are said.
struct FigureOptions {
    QString baseline;             // empty: the bundle's own, else the oldest version
    QStringList hiddenServers;    // left out of the comparison
    int topCommands = 8;          // command time: this many commands, the rest in "other"
    bool foldOther = true;
    CategoryOrder order = CategoryOrder(0);   // how tables list their categories (Workload)
};

class Figures {
public:
    using Options = FigureOptions;

    // Shares the snapshot: no copy of the bundle.
    explicit Figures(BundleSnapshot bundle, const Options &options = Options());
    // Copies the bundle into a snapshot of its own.
    explicit Figures(const ResultsBundle &bundle, const Options &options = Options());
    // How many Figures were built from a bundle since the program started (copies of a
    // Figures share its figures and are not counted): one per update of the window.
    static long long constructions();
    // How many tables were computed since the program started: a Figures computes each of its
    // tables once, however many views read it.
    static long long tableComputations();

    const ResultsBundle &bundle() const;
    const BundleSnapshot &snapshot() const;
    const Options &options() const;
    QString baselineId() const;
    // Every server of the bundle, oldest Valkey first (as orderedServerIds()).
    QStringList allServerIds() const;
    // The shown servers (not hidden), in the same order.
    QStringList serverIds() const;
    // The shown servers whose figures are compared: they have figures and no errors of their own.
    QStringList comparedServerIds() const;
    // Of those, the versions: every one but the --self-check series, which is no version and
    // never a baseline, a headline or a caveat's subject.
    QStringList comparedVersionIds() const;
    const ServerSummary &summary(const QString &serverId) const;
    bool live() const;
    // "type" or "pattern": what the workload calls its categories.
    QString typeNoun() const;
    // Types in workload order, then any a server reported beyond them.
    QStringList types() const;
    // The commands (lower case, as commandTime()'s categories) that only `type` sends: set-ex's
    // "set" in hash-ttl, whose patterns share no command.
    QStringList commandsOnlyOf(const QString &type) const;

    FigureTable memory() const;             // the total (when comparable), then each type
    FigureTable memoryUsage() const;        // the same with MEMORY USAGE
    FigureTable keys() const;               // keys stored, by the memory table's categories
    // Each type's bytes per key as a multiple of the workload's reference type on the same
    // server (hash-ttl: of set-ex), repeat by repeat; no categories without a reference type.
    FigureTable referenceRatios() const;
    QString referenceType() const;
    // The compared servers in the order a headline on "the newest version" tries them: those run
    // as the baseline was (its product, its topology) newest first, then the others newest first.
    // A Redis or a cluster series in a Valkey run is not what "the newest version" means.
    QStringList newestLikeBaselineFirst() const;
    // The server the reference ratios are quoted on, by the chart's headline, the answer and the
    // report alike: the first of newestLikeBaselineFirst() that has a settled ratio in `ratios`
    // (referenceRatios(), which the caller goes on to quote). Empty without one
    // (figuresheadline.cpp).
    QString referenceServer(const FigureTable &ratios) const;
    FigureTable commandTime() const;        // the total (when comparable), the top commands, "other"
    FigureTable allCommandTimes() const;    // the total and every command, nothing folded
    FigureTable commandCalls() const;       // calls of every command
    FigureTable perEvent() const;           // one category: the comparable work
    FigureTable throughput() const;         // events/s, or commands/s when events are single commands
    FigureTable client(Measure measure) const;   // one category: events/s, commands/s, latencies
    // One category, the comparable work as client() has it: the server's own time per command
    // in all (Measure::MainThreadCpuPerCall, EventLoopPerCall) or how busy its main thread was
    // (MainThreadBusyPercent). A server whose version does not report the counter reads absent,
    // "not reported by this version" (figuresservertime.cpp).
    FigureTable serverTime(Measure measure) const;
    // One category, the comparable work: the commands per second of the timed passes that were
    // server-bound (main thread busy 90% of the pass or more), the server's throughput at
    // saturation. A repeat whose pass was not gives no figure; a server none of whose passes
    // was reads absent, "not server-bound: its main thread was busy at most 37% of a pass …"
    // (figuresservertime.cpp). The commands are those the pass sent, which the server
    // processed to the command (total_commands_processed, tests/engine/tst_servertime).
    FigureTable saturatedThroughput() const;
    // Where the server's time per command goes (timeexplanation.h, figurestimeparts.cpp), over
    // the comparable work as serverTime() has it: the event loop's time per command in all, its
    // parts (inside the commands, the loop around them, not attributed: they add up to it) and
    // the main thread's CPU per command. A part whose counter the version does not report reads
    // absent, "not reported by this version", never 0.
    FigureTable timeParts() const;
    // One category: the commands of the timed passes per event-loop iteration (Δcalls /
    // Δeventloop_cycles), how many commands the loop handles at a time. Measure::Calls: a
    // count per iteration, not a time.
    FigureTable commandsPerLoopCycle() const;
    // Server-side latency per command (figurestails.cpp), `measure` one of ServerP50Usec,
    // ServerP99Usec, ServerP999Usec: for each command of the timed work, in order of calls, the
    // upper bound of the LATENCY HISTOGRAM bucket its percentile falls in (a cluster's primaries
    // and the passes of several patterns added bucket by bucket), the median over the repeats
    // (the higher middle one with an even count, so that it stays a bucket bound). No change
    // against the baseline: bounds a factor of two apart say no percent. A server whose tails
    // were not read reads absent with the reason ("LATENCY HISTOGRAM refused: …").
    FigureTable serverTails(Measure measure) const;
    FigureTable serverTailsP99() const { return serverTails(Measure::ServerP99Usec); }
    // A server-side percentile as every view writes it: "≤ 16 µs" ("≤ 1 µs" for the first bucket,
    // which holds every command faster than a microsecond); empty without a value.
    static QString serverTailText(const Figure &figure);
    // ServerP50Usec, ServerP99Usec or ServerP999Usec: a figure every view writes as its bucket.
    static bool isServerTail(Measure measure);
    bool throughputInEvents() const;

    // The table's first category from the baseline to the newest version of its product. In a
    // comparison of two bundles, the difference between them instead: the baseline's version
    // from its bundle to the other, or, when the other did not run it, the newest version both
    // ran (figuresheadline.cpp).
    std::optional<Headline> headline(const FigureTable &table) const;
    std::optional<TypeEncodings> encodings(const QString &type, const QString &serverId) const;
    // A cluster series' spread over its primaries for `type` (empty: the combined pass); none
    // for a standalone server or without per-node readings (figurescluster.cpp).
    std::optional<NodeSpread> nodeSpread(const QString &serverId, const QString &type) const;
    // A cluster whose slots moved while it was replayed into: its MOVED and ASK replies over the
    // repeats that count ("MOVED" -> 7, "ASK" -> 2), each command sent again to the primary
    // named. Empty when no slot moved.
    Redirects redirects(const QString &serverId) const;
    // The shown servers that ran as a cluster, in display order.
    QStringList clusterServerIds() const;
    // The cost of cluster mode: for each shown cluster series whose version also ran standalone
    // (same product, version, build and bundle), its bytes per key less the standalone one's,
    // per memory category; repeat by repeat where both have the repeat, the median of those
    // differences. Empty (no servers) without such a pair.
    FigureTable clusterOverhead() const;
    // A sweep's figures against the swept parameter (figuressweep.h), each computed once per
    // Figures from the points' own Figures: memory or ratios (Measure::BytesPerKey or
    // RatioToReference), and the cost of cluster mode. Empty unless the bundle is a sweep.
    SweepTable sweepFigures(Measure measure) const;
    SweepTable sweepClusterOverhead() const;
    // The standalone series a cluster series is measured against in clusterOverhead(), or empty.
    QString standalonePartnerOf(const QString &clusterId) const;
    // Messages naming each server whose writes were rejected or whose key counts disagree.
    QStringList dataProblems() const;
    // The settings that differ between the shown servers that recorded theirs (configdiff.cpp):
    // those bearing on the figures first, then other values, then settings some versions lack;
    // each part by name. Settings Versus gives each server its own of (port, dir, …) are left out.
    std::vector<ConfigDifference> configDifferences() const;
    // The servers configDifferences() compares, in display order.
    QStringList configServerIds() const;
    // For each compared server whose allocator differs from the baseline's (jemalloc quanta both
    // known and different, jemalloc against libc, or one quantum unknown while the other is
    // known), a sentence naming that comparison and what it means for memory: "Valkey 8.0.1
    // allocates with a 16-byte quantum and Valkey 9.1.2 (upstream build) with an 8-byte one: part
    // of their difference in memory is the build, not the version.", or for one version in two
    // builds "…: one version in two builds, so all of their difference in memory is the build."
    // Empty when none differs or nothing is known (figuresbuild.cpp).
    // timeBuildCaveat(): the same for time, only for a server whose time change against the
    // baseline the run resolved and whose build differs (where it came from, or its allocator):
    // "Valkey 8.0.1 (upstream build) and Valkey 8.0.1 are one version in two builds: all of their
    // resolved difference in time is the build."
    // buildCaveat(): the memory or time one, then, when the compared servers were reached over
    // TLS and over plain TCP, the transport caveat: "Valkey 9.1.2 was reached over TLS and Valkey
    // 8.0.1 over plain TCP: part of this difference may be TLS, not the version (…)."
    // (transportCaveat()). Then, for each compared endpoint that refused CONFIG
    // (measurementlimits.h), how it was measured instead: "Valkey 9.1.2 (endpoint …) refused
    // CONFIG and was measured around it: server time from commandstats differences, not from a
    // reset, and latency tracking left on, …", and for the servers that ran with a maxmemory and
    // an LRU or LFU policy, that they kept no shared integers, one sentence per limit
    // (limitsCaveat()). Every view prints it beside its headline: a memory view the memory one, a
    // time view the time one.
    // answerCaveat(): only the answer's comparisons, its memory pair and, when resolved, its time
    // pair, then the transport and limits caveats.
    QString buildCaveat(CaveatOf of = CaveatOf::Memory) const;
    QString allocatorCaveat() const;
    QString timeBuildCaveat() const;
    QString answerCaveat() const;
    QString transportCaveat() const;
    QString limitsCaveat() const;
    // The answer in one sentence, for the end of what versus run prints: the memory and time
    // headlines as a reader says them ("Valkey 9.1.2 stores the same attributes in 8.4% less
    // memory than Valkey 8.0.1 and spends 23.8% less time inside its write commands."), with
    // the server's time per command in all when it moves the other way or apart beyond noise
    // (", but 15.2% more main-thread CPU per command in all (…)"), or a reference
    // pattern's ratios on the newest server ("On Valkey 9.1.2, hsetex takes 1.86× the memory of
    // set-ex."). Empty while live or without settled figures (figuresanswer.cpp).
    QString answer() const;
    // How far the answer's time figure can be trusted, said beside it: with one run, that no
    // spread is known and how to get one; with repeats, the range the time change took repeat by
    // repeat ("Across 5 repeats the time change was −27.9% to −25.1% (95% interval)"). Empty
    // while live or without an answer.
    QString noiseNote() const;
    // Every timed pass of the shown servers' repeats that count, what limited it and why, in
    // server and repeat order (figurespassverdict.cpp).
    std::vector<PassVerdict> passVerdicts() const;
    // The note under every time table or chart when a compared server's timed pass was not
    // server-bound, one sentence per kind: "§ Valkey 8.0.1's timed pass (repeat 2) was shared: …;
    // its time figures were taken while another process competed for the CPU: close the other
    // program and repeat the run." Several passes of a kind are listed by server and repeat,
    // with the worst one's figures. Empty when every pass was server-bound or was not judged.
    QString bottleneckNote() const;
    // The same in one clause, beside a time headline (a chart's subtitle, the answer): "§ 4 of 4
    // timed passes were shared: see the note marked §."
    QString bottleneckBrief() const;
    // The self-check's result, once both series have settled time figures; none without a
    // --self-check series (figuresselfcheck.cpp).
    std::optional<SelfCheck> selfCheck() const;
    // The self-check said as a sentence, for beside every time verdict: "Self-check: Valkey
    // 9.1.2 run twice differed by −0.8% in time per command; the smallest change this machine
    // resolved during this run is 6.1% (2 repeats)." Empty without one.
    QString selfCheckSentence() const;
    // Why the servers' bytes per key differ in a category of memory() ("all" or a type): each
    // server's bytes split by its own accounting, and the sentences that say it (figureswhy.cpp,
    // memoryexplanation.h).
    MemoryExplanation explainMemory(const QString &categoryId) const;
    // Why the servers' time per command differs: the parts above and the sentences that say
    // them (figureswhytime.cpp, timeexplanation.h).
    TimeExplanation explainTime() const;
    // --profile (figuresprofile.cpp): each server's share of its perf samples per category
    // (serverprofile.h), Measure::ProfileSharePercent, categories with samples on some server;
    // a server without a profile is absent with the reason. And the sentence naming the biggest
    // difference between the baseline and each version ("Valkey 9.1.2 spends 31% of its samples
    // in networking and system calls against 22% for Valkey 8.0.1."), with the symbol status of a
    // build without symbols; empty when the baseline has no profile.
    FigureTable profileShares() const;
    QString profileSentence() const;
    // For each command of commandTime() whose change against the baseline is beyond noise and
    // resolved, on each compared version, the release-note entries that name it or its type
    // (figuresreleasenotes.cpp). Empty while live.
    std::vector<ReleaseNoteCandidates> releaseNoteCandidates() const;

private:
    std::shared_ptr<const FiguresData> d;
};

// Text of a state for files and tables: "measured", "provisional", "incomplete", …
QString figureStateName(FigureState state);

ChangeMeaning changeMeaning(Measure measure, const Figure &figure);
// Time (µs, the server's time in all, throughput, latencies): a change is news only when the
// run's repeats resolve it (figuresnoise.cpp).
bool isTimeMeasure(Measure measure);
// The baseline server id: `chosen` if present, else the oldest Valkey version (Redis only
// when there is nothing else).
QString effectiveBaseline(const ResultsBundle &bundle, const QString &chosen);
