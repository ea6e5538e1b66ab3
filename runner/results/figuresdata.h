#pragma once
// Inside the figures layer: what Figures knows about each server, and the rules that read
// one category's figure out of one repeat. Not for use outside runner/results.

#include "figures.h"

#include <functional>

// How one category is read from the measurements.
struct FigureRule {
    FigureCategory category;
    // The figure in one repeat; nullopt when that repeat has none.
    std::function<std::optional<double>(const RepeatResult &)> value;
    // The repeat was caught while the pass that measures this category still ran.
    std::function<bool(const RepeatResult &)> unfinished;
    // The server's refusal text when it does not support this category; empty otherwise.
    std::function<QString(const ServerRun &)> unsupported;
    // Why the category's command was not sent (its pattern is unsupported for another command);
    // empty otherwise. Asked before `unsupported`.
    std::function<QString(const ServerRun &)> notRun;
    bool timed = false;   // a time figure: a timed pass kept although the machine was slow marks it
    // What the passes behind the figure lost in one repeat (figuresloss.cpp): evicted keys or
    // writes refused as out of memory leave a memory figure none, refused writes a time figure.
    std::function<DataLoss(const RepeatResult &)> loss;
    // Why a server has no figure although it ran the category: "not reported by this version".
    // Empty (or unset) otherwise.
    std::function<QString(const ServerRun &)> absent;
    // Why the memory reading behind the figure in one repeat could not have happened (a pass
    // that wrote keys and shrank; figuresreadings.cpp); empty when it could. Memory figures only.
    std::function<QString(const RepeatResult &)> impossible;
};

struct ServerData {
    const ServerRun *run = nullptr;
    std::vector<const RepeatResult *> counted;   // finished repeats
    const RepeatResult *partial = nullptr;       // when none finished: the one caught running
    ServerSummary summary;
    bool shown = true;

    // The repeats figures come from: the finished ones, else the one caught running.
    std::vector<const RepeatResult *> sources() const;
};

// What a time total is called over all the work ("All events") and over part of it, "%1" the
// types it covers ("Events of %1"). The caller says both: a total's label is never read back
// to guess which it is. Without a part the label stays as it is ("Events" per second).
struct TotalLabel {
    QString whole;
    QString part;
};

// A pass is server-bound when the server's main thread was busy at least this share of it
// (its CPU time over the pass's round-trip time): docs/PERFORMANCE.md's own target for a
// replay that saturates the server, which 256 events per pipeline meets at 95.6–98.0%.
constexpr double kServerBoundBusyPercent = 90;

struct FiguresData {
    explicit FiguresData(BundleSnapshot shared) : snapshot(std::move(shared)), bundle(*snapshot) {}

    BundleSnapshot snapshot;
    const ResultsBundle &bundle;   // *snapshot
    Figures::Options options;
    QString baseline;
    QStringList allIds;
    QStringList shownIds;
    QStringList types;
    std::map<QString, ServerData> servers;
    // Workloads that time each type alone: the types whose timed pass ran each command.
    std::map<QString, QStringList> typesOfCommand;

    // Computed once, on first use: every total asks for them. Figures live in one thread.
    mutable std::optional<QStringList> commonTypesCache;
    mutable std::optional<bool> refusedCache;
    mutable std::optional<QStringList> excludedCommandsCache;
    // Each table this Figures was asked for, by name ("memory", "client 4"): every view, export
    // and headline of one update reads the same table, computed once.
    mutable std::map<QString, FigureTable> tableCache;
    FigureTable cachedTable(const QString &name, const std::function<FigureTable()> &compute) const;
    // The sweep tables by measure, the cost of cluster mode's under -1, each computed once.
    mutable std::map<int, std::shared_ptr<const SweepTable>> sweepCache;

    const ServerData &server(const QString &id) const { return servers.at(id); }
    QStringList comparedIds() const;
    bool combined() const { return !bundle.workload.typesTimedAlone; }
    // The server's refusal text for a type; empty when no repeat refused it.
    static QString unsupportedText(const ServerRun &run, const QString &type);

    Figure figureOf(const ServerData &server, const FigureRule &rule) const;
    // Why the rule's figure is unavailable on the server because its passes lost data ("unavailable:
    // the server evicted 14,203 keys during the pass (maxmemory 4mb, allkeys-lru)"); empty when
    // none of its repeats did (figuresloss.cpp).
    QString lossNote(const ServerData &server, const FigureRule &rule) const;
    // Why the rule's figure is unavailable on the server because a finished repeat's reading was
    // impossible ("unavailable: used_memory grew by −2,147,483,648 bytes for 20,000 keys written:
    // not a possible reading"); empty when none was (figuresreadings.cpp).
    QString impossibleNote(const ServerData &server, const FigureRule &rule) const;
    // Whether the repeat's value counts: not when its reading is impossible and its pass still runs.
    bool countsRepeat(const FigureRule &rule, const RepeatResult &repeat) const;
    FigureTable tableOf(Measure measure, const std::vector<FigureRule> &rules, const QString &note = {}) const;
    void compareWithBaseline(FigureTable &table) const;
    // Every timed pass of the shown servers' repeats that count, judged (figurespassverdict.cpp).
    std::vector<PassVerdict> passVerdicts() const;
    // A time table's figures of servers with a pass that was not server-bound get
    // Figure::bottleneck (figurespassverdict.cpp).
    void markBottlenecks(FigureTable &table) const;
    // The column a column's change is taken against: the baseline's, or for a series run in
    // another topology (a cluster) the baseline's version run in that topology; -1 when there
    // is none (a cluster against a standalone server is no version's change: the cost of
    // cluster mode has its own table).
    int referenceColumn(const FigureTable &table, int base, int column) const;
    // In a comparison of two bundles: the table's first category from one bundle to the other
    // (figuresheadline.cpp); none when they ran no version alike.
    std::optional<Headline> headlineAcrossBundles(const FigureTable &table) const;

    FigureRule typeRule(const QString &type, Measure measure) const;
    // Measure::UsecPerCall or Measure::Calls over `commands`.
    FigureRule commandRule(const QStringList &commands, const FigureCategory &category, Measure measure) const;
    // Captures (commandexclusion.cpp): the commands a server did not know, "HSETEX" -> commands.
    static std::map<QString, long long> unsupportedCommandsOf(const ServerRun &run);
    // The commands some compared server did not know, lower case as commandstats names them:
    // left out of every server's time totals, so the totals cover the same commands.
    QStringList excludedCommands() const;
    // "without HSETEX, which Redis 7.0.15 does not know"; empty when nothing is left out.
    QString exclusionScope() const;
    // Figures that cannot leave those commands out (memory, the client's pace) stay, with no
    // change against the baseline; the table's note says why.
    void markUncompared(FigureTable &table) const;
    // Types every compared server measured and settled, without refusing them.
    QStringList commonTypes() const;
    bool anyComparedServerRefused() const;
    // The total over `common` for a measure; "over …" when `common` is not every type.
    QString scopeOf(const QStringList &common) const;
    std::optional<FigureRule> memoryTotal(Measure measure, QString &note) const;
    std::optional<FigureRule> timeTotal(Measure measure, const TotalLabel &label, int minimumTypes, QString &note) const;
    QStringList commandsByCalls() const;
};

// `figure`'s change and ratio against `reference`, paired repeat by repeat when `pairRepeats`
// (finished repeats of one run), and whether the change is within noise (figuresnoise.cpp).
// Nothing when either is not settled, failed or covers other work.
void compareFigures(Figure &figure, const Figure &reference, Measure measure, bool pairRepeats);

// What a pass lost (figuresloss.cpp). "maxmemory 4mb, allkeys-lru" from the server's recorded
// settings; empty without a limit.
QString memoryLimitOf(const ServerRun &run);
// A maxmemory with an LRU or LFU policy: the server shares no small integers, so each takes an
// object of its own, which its memory figures count.
bool sharesNoIntegers(const ServerRun &run);
// Whether `loss` leaves a figure no value: any loss a memory figure, refused writes a time figure.
bool lossBlocks(const DataLoss &loss, bool timed);
// "evicted 14,203 keys and refused 3 writes as out of memory (maxmemory 4mb, allkeys-lru)".
QString lossText(const DataLoss &loss, const QString &limit);
// The loss of the passes of `types` in one repeat, and of every pass of the repeat.
DataLoss lossOfTypes(const RepeatResult &repeat, const QStringList &types);
DataLoss lossOfRepeat(const RepeatResult &repeat);
// A one-category table of the comparable work (client(), serverTime()); `absent` says why a
// server that ran it has no figure.
FigureTable totalTable(const FiguresData &data, Measure measure, const std::function<QString(const ServerRun &)> &absent = {});

// "a, b and c" (figurerules.cpp).
QString joinedList(const QStringList &items);

// Why a server that ran the timed work has no value of one of its clock's counters (serverclock.h,
// figuresservertime.cpp): "not reported by this version" (Redis 7.0 has no event loop counters),
// or "not recorded in this bundle" (from before Versus read them). Empty when a pass has it.
QString serverClockAbsence(const ServerRun &run, std::optional<long long> ServerClock::*counter);
// The repeats a median of `byRepeat` comes from: the middle one, or the middle two of an even
// count. A view that explains a median (the Why's parts) reads those repeats, so its parts add
// up to the figure shown. (figureswhy.cpp)
std::vector<int> medianRepeats(const std::map<int, double> &byRepeat);

// Impossible readings (figuresreadings.cpp): why a pass's used_memory change over `keys` keys
// written cannot be (not positive, or past what a process can address); empty when it can.
QString impossibleReading(long long usedMemoryDelta, long long keys);
// The first impossible reading among the passes of `types` in one repeat, and of its combined pass.
QString impossibleOfTypes(const RepeatResult &repeat, const QStringList &types);
QString impossibleOfCombinedPass(const RepeatResult &repeat);

// Built once per Figures: which repeats count and each server's verdict.
void summariseServers(FiguresData &data);
// The data check over the summaries (datacheck.cpp).
QStringList dataProblemsOf(const FiguresData &data);
