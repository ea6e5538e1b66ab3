// What limited each timed pass, from its load (passload.h) and its server time (serverclock.h),
// and the mark and sentence every view prints beside a time figure whose passes were not
// server-bound. The thresholds, and the measurements that chose them, are in
// docs/MEASUREMENT.md ("What limited a pass").

#include "figuresdata.h"
#include "figuremarks.h"
#include "presentation.h"

#include <algorithm>

namespace {

// The server's main thread or the replay thread waited, runnable, for its CPU at least this
// share of the pass's round trips: another process ran there.
constexpr double kCpuWaitSharedPercent = 5;
// Versus's replay thread waited at least this share of the pass's wall time. It wakes once per
// round trip, and each wake-up waits for the scheduler: on the idle machine, one event per
// pipeline, 13–16% of the pass (about 21 µs per round trip) with no other process running; a
// build beside it (load 9–14) made it 42–103% (docs/MEASUREMENT.md, "What limited a pass").
constexpr double kReplayWaitSharedPercent = 30;
// The hypervisor took at least this share of the server's CPUs.
constexpr double kStealSharedPercent = 10;

struct TimedPass {
    QString name;
    const PassTiming *timing = nullptr;
};

std::vector<TimedPass> verdictPassesOf(const RepeatResult &repeat, bool combined)
{
    std::vector<TimedPass> passes;
    if (combined && repeat.timing.commands > 0)
        passes.push_back({QStringLiteral("timed pass"), &repeat.timing});
    for (const auto &[type, memory] : repeat.byType) {
        if (memory.timing && memory.timing->commands > 0)
            passes.push_back({QStringLiteral("timed pass of %1").arg(type), &*memory.timing});
    }
    return passes;
}

// `part` as a share of the pass's round trips (the time its busy share is taken over), percent.
std::optional<double> percentOfPass(const std::optional<long long> &partUsec, const PassTiming &timing)
{
    if (!partUsec || timing.seconds <= 0)
        return std::nullopt;
    return 100.0 * double(*partUsec) / (timing.seconds * 1e6);
}

QString passPercentText(double percent)
{
    return QString::number(percent, 'f', 0) + QLatin1Char('%');
}

// What another hand in the server did during the pass; empty when nothing.
QStringList disturbances(const PassLoad &load, const std::map<QString, long long> &countedNotSent)
{
    QStringList found;
    if (load.forks.value_or(0) > 0)
        found << QStringLiteral("the server forked %1 time(s) (a BGSAVE or an AOF rewrite)").arg(*load.forks);
    else if (load.forkRunning.value_or(0) > 0)
        found << QStringLiteral("a BGSAVE or an AOF rewrite was running");
    if (load.evictedKeys.value_or(0) > 0)
        found << QStringLiteral("the server evicted %1 keys").arg(*load.evictedKeys);
    if (load.foreignClients.value_or(0) > 0)
        found << QStringLiteral("%1 client(s) other than Versus's were connected").arg(*load.foreignClients);
    QStringList commands;
    for (const auto &[command, calls] : countedNotSent)
        commands << QStringLiteral("%1 %2").arg(command.toUpper()).arg(calls);
    if (!commands.isEmpty())
        found << QStringLiteral("the server counted commands Versus did not send (%1)").arg(commands.join(QStringLiteral(", ")));
    return found;
}

// Another process on the server's CPU or the replay's, or stolen time; empty when neither.
// `largest` receives the largest of the shares found, percent.
QStringList competition(const PassLoad &load, const PassTiming &timing, double &largest)
{
    QStringList found;
    largest = 0;
    const auto note = [&largest](double percent) {
        largest = std::max(largest, percent);
        return passPercentText(percent);
    };
    if (const auto wait = percentOfPass(load.serverWaitUsec, timing); wait && *wait >= kCpuWaitSharedPercent)
        found << QStringLiteral("another process kept the server's main thread waiting for its CPU %1 of the pass").arg(note(*wait));
    // The replay also waits between its round trips (encoding, the fair schedule's turns): its
    // wait is a share of the whole pass.
    const std::optional<double> replayWait = load.replayWaitUsec && load.wallUsec.value_or(0) > 0
        ? std::optional<double>(100.0 * double(*load.replayWaitUsec) / double(*load.wallUsec)) : std::nullopt;
    if (const auto wait = replayWait; wait && *wait >= kReplayWaitSharedPercent)
        found << QStringLiteral("another process kept Versus's replay waiting for its CPU %1 of the pass").arg(note(*wait));
    if (const auto steal = percentOfPass(load.stealUsec, timing); steal && *steal >= kStealSharedPercent)
        found << QStringLiteral("the hypervisor took %1 of the server's CPU").arg(note(*steal));
    return found;
}

PassVerdict verdictOfPass(const PassTiming &timing, const std::map<QString, long long> &countedNotSent)
{
    PassVerdict verdict;
    const std::optional<double> busy = timing.serverTime
        ? percentOfPass(timing.serverTime->mainThreadCpuUsec, timing) : std::nullopt;
    if (timing.load) {
        if (const QStringList found = disturbances(*timing.load, countedNotSent); !found.isEmpty())
            return {QString(), 0, QString(), PassBound::Disturbed, found.join(QStringLiteral(", "))};
        double largest = 0;
        if (const QStringList found = competition(*timing.load, timing, largest); !found.isEmpty())
            return {QString(), 0, QString(), PassBound::Shared, found.join(QStringLiteral(", ")), largest};
    }
    if (!busy || !timing.load)
        return {QString(), 0, QString(), PassBound::Unknown, QStringLiteral("its load was not read")};
    const QString busyText = QStringLiteral("the server's main thread was busy %1 of the pass").arg(passPercentText(*busy));
    if (*busy >= kServerBoundBusyPercent)
        return {QString(), 0, QString(), PassBound::ServerBound, busyText};
    QString why = busyText;
    if (const auto replay = percentOfPass(timing.load->replayCpuUsec, timing))
        why += QStringLiteral(", Versus's replay used %1 of a CPU").arg(passPercentText(*replay));
    return {QString(), 0, QString(), PassBound::ClientBound, why, 100 - *busy};
}

// What to do about a pass of that kind, said once per kind.
QString adviceFor(PassBound bound)
{
    switch (bound) {
    case PassBound::Shared:
        return QStringLiteral("its time figures were taken while another process competed for the CPU: close the other "
                              "program and repeat the run");
    case PassBound::Disturbed:
        return QStringLiteral("its time figures hold the server's own work for something else: repeat the run without the "
                              "other client, the save or the eviction");
    case PassBound::ClientBound:
        return QStringLiteral("its time figures hold the server waiting for Versus: use --clients to send over more "
                              "connections (or more events per pipeline) and repeat");
    default:
        return QString();
    }
}

bool marksTime(PassBound bound)
{
    return bound == PassBound::Shared || bound == PassBound::Disturbed || bound == PassBound::ClientBound;
}

} // namespace

QString passBoundName(PassBound bound)
{
    switch (bound) {
    case PassBound::ServerBound: return QStringLiteral("server-bound");
    case PassBound::ClientBound: return QStringLiteral("client-bound");
    case PassBound::Shared: return QStringLiteral("shared");
    case PassBound::Disturbed: return QStringLiteral("disturbed");
    case PassBound::Unknown: break;
    }
    return QStringLiteral("unknown");
}

std::vector<PassVerdict> FiguresData::passVerdicts() const
{
    std::vector<PassVerdict> verdicts;
    for (const QString &id : shownIds) {
        for (const RepeatResult *repeat : server(id).sources()) {
            for (const TimedPass &pass : verdictPassesOf(*repeat, combined())) {
                // The repeat's commands counted beyond Versus's are the combined pass's.
                static const std::map<QString, long long> none;
                PassVerdict verdict = verdictOfPass(*pass.timing, combined() ? repeat->countedNotSent : none);
                verdict.serverId = id;
                verdict.repeat = repeat->repeat;
                verdict.pass = pass.name;
                verdicts.push_back(verdict);
            }
        }
    }
    return verdicts;
}

std::vector<PassVerdict> Figures::passVerdicts() const
{
    return d->passVerdicts();
}

namespace {

// The marked passes of the compared servers, by kind, in the order a reader acts on them.
std::vector<std::pair<PassBound, std::vector<PassVerdict>>> markedByKind(const std::vector<PassVerdict> &verdicts,
                                                                         const QStringList &compared)
{
    std::vector<std::pair<PassBound, std::vector<PassVerdict>>> kinds;
    for (const PassBound bound : {PassBound::Disturbed, PassBound::Shared, PassBound::ClientBound}) {
        std::vector<PassVerdict> passes;
        for (const PassVerdict &verdict : verdicts) {
            if (verdict.bound == bound && compared.contains(verdict.serverId))
                passes.push_back(verdict);
        }
        if (!passes.empty())
            kinds.emplace_back(bound, std::move(passes));
    }
    return kinds;
}

// "Valkey 8.0.1: repeats 1 and 2; Valkey 9.1.2: repeat 1", in the order the passes came.
QString passesByServer(const FiguresData &data, const std::vector<PassVerdict> &passes)
{
    std::vector<std::pair<QString, QStringList>> servers;
    for (const PassVerdict &pass : passes) {
        auto found = std::find_if(servers.begin(), servers.end(), [&pass](const auto &entry) { return entry.first == pass.serverId; });
        if (found == servers.end())
            found = servers.insert(servers.end(), {pass.serverId, {}});
        const QString repeat = QString::number(pass.repeat + 1);
        if (!found->second.contains(repeat))
            found->second << repeat;
    }
    QStringList parts;
    for (const auto &[id, repeats] : servers)
        parts << QStringLiteral("%1: %2 %3").arg(data.server(id).summary.name,
                                                  repeats.size() == 1 ? QStringLiteral("repeat") : QStringLiteral("repeats"),
                                                  repeats.size() == 1 ? repeats.front()
                                                                      : QStringList(repeats.mid(0, repeats.size() - 1)).join(QStringLiteral(", "))
                                                                            + QStringLiteral(" and ") + repeats.back());
    return parts.join(QStringLiteral("; "));
}

} // namespace

QString Figures::bottleneckNote() const
{
    QStringList sentences;
    for (const auto &[bound, passes] : markedByKind(d->passVerdicts(), d->comparedIds())) {
        const PassVerdict &worst = *std::max_element(passes.begin(), passes.end(), [](const PassVerdict &a, const PassVerdict &b) {
            return a.severity < b.severity;
        });
        if (passes.size() == 1) {
            sentences << QStringLiteral("%1's %2 (repeat %3) was %4: %5; %6.")
                             .arg(d->server(worst.serverId).summary.name, worst.pass)
                             .arg(worst.repeat + 1)
                             .arg(passBoundName(bound), worst.why, adviceFor(bound));
            continue;
        }
        // Several passes: where, and the worst one's figures; a disturbance is said each time it differs.
        QStringList whys;
        for (const PassVerdict &pass : passes) {
            if (bound == PassBound::Disturbed && !whys.contains(pass.why))
                whys << pass.why;
        }
        const QString why = bound == PassBound::Disturbed
            ? whys.join(QStringLiteral("; "))
            : QStringLiteral("at the most, in %1's repeat %2, %3").arg(d->server(worst.serverId).summary.name).arg(worst.repeat + 1).arg(worst.why);
        QString advice = adviceFor(bound);
        advice.replace(QStringLiteral("its time figures were"), QStringLiteral("their time figures were"));
        advice.replace(QStringLiteral("its time figures hold"), QStringLiteral("their time figures hold"));
        sentences << QStringLiteral("%1 timed passes were %2 (%3): %4; %5.")
                         .arg(passes.size())
                         .arg(passBoundName(bound), passesByServer(*d, passes), why, advice);
    }
    return sentences.isEmpty() ? QString() : bottleneckMark() + QLatin1Char(' ') + sentences.join(QLatin1Char(' '));
}

QString Figures::bottleneckBrief() const
{
    const std::vector<PassVerdict> verdicts = d->passVerdicts();
    const QStringList compared = d->comparedIds();
    const auto judged = std::count_if(verdicts.begin(), verdicts.end(), [&compared](const PassVerdict &verdict) {
        return compared.contains(verdict.serverId) && verdict.bound != PassBound::Unknown;
    });
    const auto kinds = markedByKind(verdicts, compared);
    if (kinds.empty())
        return QString();
    if (kinds.size() == 1 && kinds.front().second.size() == 1) {
        const PassVerdict &pass = kinds.front().second.front();
        return QStringLiteral("%1 %2's %3 (repeat %4) was %5: see the note marked %1.")
            .arg(bottleneckMark(), d->server(pass.serverId).summary.name, pass.pass)
            .arg(pass.repeat + 1)
            .arg(passBoundName(pass.bound));
    }
    QStringList counts;
    for (const auto &[bound, passes] : kinds)
        counts << QStringLiteral("%1 %2").arg(passes.size()).arg(passBoundName(bound));
    const QString listed = counts.size() == 1 ? counts.front()
                                              : QStringList(counts.mid(0, counts.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ") + counts.back();
    if (kinds.size() == 1 && qsizetype(kinds.front().second.size()) == judged)
        return QStringLiteral("%1 All %2 timed passes were %3: see the note marked %1.")
            .arg(bottleneckMark())
            .arg(judged)
            .arg(passBoundName(kinds.front().first));
    return QStringLiteral("%1 Of %2 timed passes, %3: see the note marked %1.").arg(bottleneckMark()).arg(judged).arg(listed);
}

void FiguresData::markBottlenecks(FigureTable &table) const
{
    if (!isTimeMeasure(table.measure))
        return;
    std::map<QString, QStringList> byServer;
    for (const PassVerdict &verdict : passVerdicts()) {
        if (marksTime(verdict.bound))
            byServer[verdict.serverId] << QStringLiteral("%1 (repeat %2)").arg(passBoundName(verdict.bound)).arg(verdict.repeat + 1);
    }
    for (std::vector<Figure> &row : table.cells) {
        for (size_t column = 0; column < row.size(); ++column) {
            const auto found = byServer.find(table.servers[int(column)]);
            if (found != byServer.end() && row[column].hasValue())
                row[column].bottleneck = found->second.join(QStringLiteral(", "));
        }
    }
}
