// Server-side tails per command: p50, p99 and p99.9 of each command's server time, from the
// calls per bucket of its LATENCY HISTOGRAM over the timed passes (servertails.h). The server
// times each command in whole microseconds and counts it in buckets that double (1, 2, 4, 8,
// 16, 33, 66, … µs), so a percentile is the bucket it falls in, written as its upper bound:
// "≤ 1 µs" for every command faster than a microsecond, never 0.001.

#include "figuresdata.h"

#include <algorithm>

namespace {

// The percentile in thousandths, and the fewest calls that tell it from the slowest call.
struct TailPercentile {
    int perMille = 0;
    long long fewestCalls = 0;
    QString name;
};

TailPercentile tailPercentileOf(Measure measure)
{
    switch (measure) {
    case Measure::ServerP99Usec: return {990, 100, QStringLiteral("p99")};
    case Measure::ServerP999Usec: return {999, 1000, QStringLiteral("p99.9")};
    default: return {500, 1, QStringLiteral("p50")};
    }
}

// The upper bound of the bucket that holds the call of rank ⌈perMille·calls/1000⌉.
std::optional<long long> percentileBound(const LatencyBuckets &buckets, int perMille)
{
    const long long calls = buckets.calls();
    if (calls <= 0 || !buckets.problem().isEmpty())
        return std::nullopt;
    const __int128 rank = (__int128(calls) * perMille + 999) / 1000;
    __int128 seen = 0;
    for (const auto &[bound, count] : buckets.counts) {
        seen += count;
        if (seen >= rank)
            return bound;
    }
    return std::nullopt;
}

// The timings of a repeat's timed passes: the combined one, or each type's own.
std::vector<const PassTiming *> tailedPassesOf(const RepeatResult &repeat, bool combined)
{
    if (combined)
        return {&repeat.timing};
    std::vector<const PassTiming *> timings;
    for (const auto &[type, memory] : repeat.byType) {
        if (memory.status == TypeStatus::Ok && memory.timing)
            timings.push_back(&*memory.timing);
    }
    return timings;
}

// The command's buckets over a repeat's timed passes; none when a pass has no tails of it.
std::optional<LatencyBuckets> bucketsOf(const RepeatResult &repeat, bool combined, const QString &command)
{
    std::optional<LatencyBuckets> sum;
    for (const PassTiming *timing : tailedPassesOf(repeat, combined)) {
        const auto found = timing->tails.byCommand.find(command);
        if (found == timing->tails.byCommand.end())
            continue;
        const Outcome<LatencyBuckets> added = addLatencyBuckets(sum.value_or(LatencyBuckets()), found->second);
        if (!added)
            return std::nullopt;
        sum = added.value();
    }
    return sum;
}

// Why a server that ran the command has no tail of it: the server's refusal, its setting, a
// histogram that was not the workload's alone, too few calls, or a bundle from before Versus read them.
QString tailAbsence(const ServerRun &run, bool combined, const QString &command, const TailPercentile &percentile)
{
    bool read = false;
    for (const RepeatResult &repeat : run.repeats) {
        for (const PassTiming *timing : tailedPassesOf(repeat, combined)) {
            const ServerTails &tails = timing->tails;
            read = read || !tails.empty();
            if (!tails.unavailable.isEmpty())
                return QStringLiteral("server-side tails unavailable: %1").arg(tails.unavailable);
            if (const auto reason = tails.commandUnavailable.find(command); reason != tails.commandUnavailable.end())
                return QStringLiteral("server-side tails unavailable: %1").arg(reason->second);
        }
        if (const std::optional<LatencyBuckets> buckets = bucketsOf(repeat, combined, command);
            buckets && buckets->calls() > 0 && buckets->calls() < percentile.fewestCalls)
            return QStringLiteral("%1 calls: a server-side %2 needs %3 or more, else it is the slowest call")
                .arg(buckets->calls()).arg(percentile.name).arg(percentile.fewestCalls);
    }
    return read ? QString() : QStringLiteral("server-side tails not recorded in this bundle");
}

// The higher of the middle values: a median that is one of the repeats' bucket bounds.
double upperMedian(const std::map<int, double> &byRepeat)
{
    std::vector<double> values;
    for (const auto &entry : byRepeat)
        values.push_back(entry.second);
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

} // namespace

FigureTable Figures::serverTails(Measure measure) const
{
    return d->cachedTable(QStringLiteral("server tails %1").arg(int(measure)), [this, measure] {
        const TailPercentile percentile = tailPercentileOf(measure);
        const bool combined = d->combined();
        std::vector<FigureRule> rules;
        for (const QString &command : d->commandsByCalls()) {
            FigureRule rule = d->commandRule({command}, {command, command.toUpper(), false, QString(), {}, CategoryKind::Command, QString()},
                                             measure);
            rule.value = [combined, command, percentile](const RepeatResult &repeat) -> std::optional<double> {
                const std::optional<LatencyBuckets> buckets = bucketsOf(repeat, combined, command);
                if (!buckets || buckets->calls() < percentile.fewestCalls)
                    return std::nullopt;
                const std::optional<long long> bound = percentileBound(*buckets, percentile.perMille);
                return bound ? std::optional<double>(double(*bound)) : std::nullopt;
            };
            rule.absent = [combined, command, percentile](const ServerRun &run) { return tailAbsence(run, combined, command, percentile); };
            rules.push_back(std::move(rule));
        }
        FigureTable table = d->tableOf(measure, rules,
                                       QStringLiteral("Server-side %1: the server's own LATENCY HISTOGRAM, whose buckets double "
                                                      "(≤ 1, 2, 4, 8, 16, 33 µs …); not the client's round trip.")
                                           .arg(percentile.name));
        for (std::vector<Figure> &row : table.cells) {
            for (Figure &figure : row) {
                if (!figure.byRepeat.empty())
                    figure.value = upperMedian(figure.byRepeat);
                figure.change.reset();
                figure.ratio.reset();
                figure.ratioPlusMinus.reset();
                figure.pairedRatio = Spread();
                figure.changeTest = ChangeTest();
                figure.withinNoise = false;
                figure.unresolved.clear();
            }
        }
        return table;
    });
}

bool Figures::isServerTail(Measure measure)
{
    return measure == Measure::ServerP50Usec || measure == Measure::ServerP99Usec || measure == Measure::ServerP999Usec;
}

QString Figures::serverTailText(const Figure &figure)
{
    if (!figure.hasValue())
        return QString();
    return QStringLiteral("≤ %1 µs").arg(qint64(figure.value));
}
