// Where the server's time per command goes (timeexplanation.h): the main thread's event-loop
// time per command split into the time inside the commands (commandstats), the loop's work
// around them and the rest, beside its CPU per command and how many commands one loop
// iteration ran. Each from the comparable work's timed passes (as the other time totals), per
// command of commandstats, repeat by repeat.

#include "figuresdata.h"
#include "timeexplanation.h"

#include <algorithm>

namespace {

// A timed pass's counters summed over the passes of one repeat (a cluster's primaries are
// already summed in each pass). A counter is absent when any pass lacks it.
struct PassClockSums {
    long long calls = 0;
    long long insideUsec = 0;
    std::optional<long long> loopUsec = 0;
    std::optional<long long> loopCommandUsec = 0;
    std::optional<long long> loopCycles = 0;
    std::optional<long long> cpuUsec = 0;
};

void addCounter(std::optional<long long> &sum, const std::optional<ServerClock> &clock, std::optional<long long> ServerClock::*counter)
{
    if (sum && clock && ((*clock).*counter))
        *sum += *((*clock).*counter);
    else
        sum.reset();
}

// The timed passes of a repeat behind the comparable work: the combined pass, or each of
// `types` timed alone (every one of them, or none).
std::optional<PassClockSums> passClockSums(const RepeatResult &repeat, bool combined, const QStringList &types)
{
    std::vector<const PassTiming *> timings;
    if (combined) {
        timings.push_back(&repeat.timing);
    } else {
        for (const QString &type : types) {
            const auto found = repeat.byType.find(type);
            if (found == repeat.byType.end() || found->second.status != TypeStatus::Ok || !found->second.timing)
                return std::nullopt;
            timings.push_back(&*found->second.timing);
        }
    }
    PassClockSums sums;
    for (const PassTiming *timing : timings) {
        sums.calls += timing->totalCalls();
        sums.insideUsec += timing->totalUsec();
        addCounter(sums.loopUsec, timing->serverTime, &ServerClock::eventLoopUsec);
        addCounter(sums.loopCommandUsec, timing->serverTime, &ServerClock::eventLoopCommandUsec);
        addCounter(sums.loopCycles, timing->serverTime, &ServerClock::eventLoopCycles);
        addCounter(sums.cpuUsec, timing->serverTime, &ServerClock::mainThreadCpuUsec);
    }
    if (sums.calls <= 0)
        return std::nullopt;
    return sums;
}

using PartValue = std::optional<double> (*)(const PassClockSums &);

std::optional<double> perCall(const PassClockSums &sums, std::optional<long long> usec)
{
    return usec ? std::optional<double>(double(*usec) / double(sums.calls)) : std::nullopt;
}

std::optional<double> loopPart(const PassClockSums &sums) { return perCall(sums, sums.loopUsec); }
std::optional<double> insidePart(const PassClockSums &sums)
{
    return sums.insideUsec > 0 ? perCall(sums, sums.insideUsec) : std::nullopt;
}
std::optional<double> aroundPart(const PassClockSums &sums)
{
    if (!sums.loopUsec || !sums.loopCommandUsec)
        return std::nullopt;
    return perCall(sums, *sums.loopUsec - *sums.loopCommandUsec);
}
// The loop's time in commands less commandstats' time inside them: what the loop counted as
// command time that no command's usec holds (and the counters' rounding).
std::optional<double> notAttributedPart(const PassClockSums &sums)
{
    if (!sums.loopCommandUsec)
        return std::nullopt;
    return perCall(sums, *sums.loopCommandUsec - sums.insideUsec);
}
std::optional<double> cpuPart(const PassClockSums &sums) { return perCall(sums, sums.cpuUsec); }
std::optional<double> commandsPerLoopIteration(const PassClockSums &sums)
{
    if (!sums.loopCycles || *sums.loopCycles <= 0)
        return std::nullopt;
    return double(sums.calls) / double(*sums.loopCycles);
}

struct PartSpec {
    const QString &id;
    const char *label;
    PartValue value;
    std::optional<long long> ServerClock::*counter;   // the counter it needs beyond commandstats; null: none
};

const std::vector<PartSpec> &partSpecs()
{
    static const std::vector<PartSpec> specs = {
        {TimePart::Loop, "Event loop, in all", loopPart, &ServerClock::eventLoopUsec},
        {TimePart::Inside, "Inside the commands", insidePart, nullptr},
        {TimePart::Around, "Event loop around the commands", aroundPart, &ServerClock::eventLoopCommandUsec},
        {TimePart::NotAttributed, "Not attributed", notAttributedPart, &ServerClock::eventLoopCommandUsec},
        {TimePart::Cpu, "Main-thread CPU, in all", cpuPart, &ServerClock::mainThreadCpuUsec},
    };
    return specs;
}

// The comparable work's time rule (as serverTime()'s) with its value read by `value`.
FigureRule partRule(const FiguresData &data, const FigureRule &total, const QString &id, const QString &label, PartValue value,
                    std::optional<long long> ServerClock::*counter)
{
    FigureRule rule = total;
    rule.category.id = id;
    rule.category.label = label;
    if (id != TimePart::Loop) {
        rule.category.kind = CategoryKind::Type;
        rule.category.total = false;
    }
    const bool combined = data.combined();
    const QStringList types = total.category.over.isEmpty() && !combined ? data.commonTypes() : total.category.over;
    rule.value = [combined, types, value](const RepeatResult &repeat) -> std::optional<double> {
        const std::optional<PassClockSums> sums = passClockSums(repeat, combined, types);
        return sums ? value(*sums) : std::nullopt;
    };
    if (counter)
        rule.absent = [counter](const ServerRun &run) { return serverClockAbsence(run, counter); };
    return rule;
}

// Each server's parts are shown as they were in the repeat(s) whose loop time is the median,
// so the parts a view shows add up to the loop time it shows. Medians taken part by part would
// mix repeats: on a loaded machine whose repeats differ by 20%, they left −0.11 µs "not
// attributed" where every repeat had +0.001. Each part's repeats, spread and change stay its own.
void showMedianRepeatParts(FigureTable &table)
{
    const int loop = table.categoryIndex(TimePart::Loop);
    for (size_t column = 0; column < size_t(table.servers.size()); ++column) {
        const Figure &total = table.cells[size_t(loop)][column];
        const std::vector<int> repeats = medianRepeats(total.byRepeat);
        if (!total.hasValue() || repeats.empty())
            continue;
        for (const QString &id : loopPartIds()) {
            Figure &part = table.cells[size_t(table.categoryIndex(id))][column];
            double sum = 0;
            const bool everyRepeat = std::all_of(repeats.begin(), repeats.end(), [&part, &sum](int repeat) {
                const auto found = part.byRepeat.find(repeat);
                sum += found == part.byRepeat.end() ? 0.0 : found->second;
                return found != part.byRepeat.end();
            });
            if (part.hasValue() && everyRepeat)
                part.value = sum / double(repeats.size());
        }
    }
}

// A figure that is context, not a finding, has no change of its own, in any view: "not
// attributed" is what the counters leave, near their rounding (0.3% of the loop time on this
// machine); the commands per loop iteration are a count of how the loop batched, not a time
// under the noise rule.
void leaveUncompared(FigureTable &table, int category)
{
    // Against no reference: every field of a change is cleared.
    for (Figure &figure : table.cells[size_t(category)])
        compareFigures(figure, Figure(), table.measure, false);
}

} // namespace

const QStringList &loopPartIds()
{
    static const QStringList ids = {TimePart::Inside, TimePart::Around, TimePart::NotAttributed};
    return ids;
}

FigureTable Figures::timeParts() const
{
    return d->cachedTable(QStringLiteral("time parts"), [this] {
        QString note;
        const std::optional<FigureRule> total = d->timeTotal(Measure::EventLoopPerCall, {QStringLiteral("Event loop, in all"), QString()}, 1, note);
        std::vector<FigureRule> rules;
        if (total) {
            for (const PartSpec &spec : partSpecs())
                rules.push_back(partRule(*d, *total, spec.id, QString::fromUtf8(spec.label), spec.value, spec.counter));
        }
        FigureTable table = d->tableOf(Measure::EventLoopPerCall, rules, note);
        if (total) {
            showMedianRepeatParts(table);
            d->compareWithBaseline(table);
            leaveUncompared(table, table.categoryIndex(TimePart::NotAttributed));
        }
        return table;
    });
}

FigureTable Figures::commandsPerLoopCycle() const
{
    return d->cachedTable(QStringLiteral("commands per loop cycle"), [this] {
        QString note;
        const std::optional<FigureRule> total = d->timeTotal(Measure::EventLoopPerCall, {QStringLiteral("Commands per loop iteration"), QString()}, 1, note);
        std::vector<FigureRule> rules;
        if (total)
            rules.push_back(partRule(*d, *total, QStringLiteral("all"), QStringLiteral("Commands per loop iteration"), commandsPerLoopIteration,
                                     &ServerClock::eventLoopCycles));
        FigureTable table = d->tableOf(Measure::Calls, rules, note);
        if (!rules.empty())
            leaveUncompared(table, 0);
        return table;
    });
}
