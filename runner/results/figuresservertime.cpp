// The server's own time per command in all (main-thread CPU, the event loop), how busy its
// main thread was, and its throughput at saturation: the commands per second of the timed
// passes that were server-bound. A pass bound by the client, or by another process on the
// server's CPU, says nothing of what the server can do, so it gives no throughput here.

#include "figuresdata.h"

#include <algorithm>

namespace {


using RepeatValue = std::function<std::optional<double>(const RepeatResult &)>;

// Why a server has no throughput at saturation: no server time to tell, or no pass of it was
// server-bound ("not server-bound: its main thread was busy at most 37% of a pass").
QString unsaturatedReason(const ServerRun &run, const RepeatValue &busy)
{
    if (const QString absent = serverClockAbsence(run, &ServerClock::mainThreadCpuUsec); !absent.isEmpty())
        return QStringLiteral("no main-thread CPU to tell a server-bound pass: %1").arg(absent);
    std::optional<double> busiest;
    for (const RepeatResult &repeat : run.repeats) {
        if (const std::optional<double> percent = busy(repeat))
            busiest = std::max(busiest.value_or(*percent), *percent);
    }
    if (!busiest)
        return QString();
    return QStringLiteral("not server-bound: its main thread was busy at most %1% of a pass (%2% or more is)")
        .arg(QString::number(*busiest, 'f', 0))
        .arg(kServerBoundBusyPercent, 0, 'f', 0);
}

} // namespace

QString serverClockAbsence(const ServerRun &run, std::optional<long long> ServerClock::*counter)
{
    bool read = false;
    for (const RepeatResult &repeat : run.repeats) {
        std::vector<const PassTiming *> timings{&repeat.timing};
        for (const auto &[type, memory] : repeat.byType) {
            if (memory.timing)
                timings.push_back(&*memory.timing);
        }
        for (const PassTiming *timing : timings) {
            if (!timing->serverTime)
                continue;
            read = true;
            if (((*timing->serverTime).*counter).has_value())
                return QString();
        }
    }
    return read ? QStringLiteral("not reported by this version") : QStringLiteral("not recorded in this bundle");
}

FigureTable Figures::serverTime(Measure measure) const
{
    return d->cachedTable(QStringLiteral("server time %1").arg(int(measure)), [this, measure] {
        const auto counter = measure == Measure::EventLoopPerCall ? &ServerClock::eventLoopUsec : &ServerClock::mainThreadCpuUsec;
        return totalTable(*d, measure, [counter](const ServerRun &run) { return serverClockAbsence(run, counter); });
    });
}

FigureTable Figures::saturatedThroughput() const
{
    return d->cachedTable(QStringLiteral("saturated throughput"), [this] {
        QString note;
        QString busyNote;
        std::vector<FigureRule> rules;
        std::optional<FigureRule> pace = d->timeTotal(Measure::CommandsPerSecond, {QStringLiteral("Commands at saturation"), QString()}, 1, note);
        const std::optional<FigureRule> busy = d->timeTotal(Measure::MainThreadBusyPercent, {QStringLiteral("Busy"), QString()}, 1, busyNote);
        if (pace && busy) {
            // Repeat by repeat: a repeat whose pass was not server-bound gives no figure.
            pace->value = [all = pace->value, busyValue = busy->value](const RepeatResult &repeat) -> std::optional<double> {
                const std::optional<double> percent = busyValue(repeat);
                return percent && *percent >= kServerBoundBusyPercent ? all(repeat) : std::nullopt;
            };
            pace->absent = [busyValue = busy->value](const ServerRun &run) { return unsaturatedReason(run, busyValue); };
            rules.push_back(*pace);
        }
        return d->tableOf(Measure::CommandsPerSecond, rules, note);
    });
}
