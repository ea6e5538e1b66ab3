// The answer as a reader wants it first: one sentence from the headlines of the memory and the
// time tables ("Valkey 9.1.2 stores the same attributes in 8.4% less memory than Valkey 8.0.1
// The answer as a reader wants it first: one sentence from the headlines of the memory and the
// time tables ("Valkey 9.1.2 stores the same attributes in 8.4% less memory than Valkey 8.0.1
// and spends 23.8% less time inside its write commands."), or, for a workload measured against
// a reference pattern, the newest version's ratios ("On Valkey 9.1.2, hsetex takes 1.86× the
// memory of set-ex."). Only settled figures of finished servers enter it; a server that lost
// data to maxmemory has no memory figure to enter, and the answer says why.
// The time table's figures are commandstats time, inside the commands. The server's own time
// per command in all (its main thread's CPU) also holds the event loop around them, which can
// move the other way: the answer then says both, so a reader deciding on headroom does not read
// the opposite of what the server does.

#include "figures.h"
#include "figuresdata.h"
#include "presentation.h"

#include <cmath>

namespace {

// "8.4% less memory", "3.1% more memory", and for no change, or one within the run-to-run
// noise (Headline::meaning Neutral), "about the same memory (+0.1%, within noise)": a phrase
// that compares with "as", not "than" (sameWords()).
bool sameWords(double percent, bool withinNoise)
{
    return std::fabs(percent) < 0.05 || withinNoise;
}

QString changeWords(double percent, const QString &what, bool withinNoise = false)
{
    if (std::fabs(percent) < 0.05)
        return QStringLiteral("the same %1").arg(what);
    if (withinNoise)
        return QStringLiteral("about the same %1 (%2, within noise)").arg(what, formatPercentChange(percent));
    return QStringLiteral("%1% %2 %3")
        .arg(QString::number(std::fabs(percent), 'f', 1), percent < 0 ? QStringLiteral("less") : QStringLiteral("more"), what);
}

// "inside its write commands" for the writes group, "inside its commands" for every command.
QString insideWhat(const FigureCategory &category)
{
    const QString group = commandGroupOf(category);
    if (group.isEmpty())
        return QStringLiteral("inside its commands");
    const QString first = group.section(QLatin1Char(' '), 0, 0);
    return QStringLiteral("inside its %1 commands").arg(first.endsWith(QLatin1Char('s')) ? first.chopped(1) : first);
}

// `of` / `over` repeat by repeat (their repeats in common) and of the medians: how the server's
// time in all stands to its time inside the commands.
Figure shareOf(const Figure &of, const Figure &over)
{
    Figure share;
    if (!of.settled() || !over.settled() || over.value == 0)
        return share;
    std::vector<double> values;
    for (const auto &[repeat, value] : of.byRepeat) {
        const auto paired = over.byRepeat.find(repeat);
        if (paired != over.byRepeat.end() && paired->second != 0) {
            share.byRepeat[repeat] = value / paired->second;
            values.push_back(value / paired->second);
        }
    }
    share.state = FigureState::Measured;
    share.spread = spreadOf(values);
    share.value = of.value / over.value;
    return share;
}

// Whether the server's time in all moved apart from the time inside the commands beyond what
// the figures move between runs: the same noise rule as any change (figuresnoise.cpp), on
// their ratio, paired repeat by repeat when the changes themselves were.
bool movedApart(const Figure &allFrom, const Figure &allTo, const Figure &insideFrom, const Figure &insideTo)
{
    Figure to = shareOf(allTo, insideTo);
    const Figure from = shareOf(allFrom, insideFrom);
    compareFigures(to, from, Measure::MainThreadCpuPerCall, allTo.pairedRatio.n > 0 && insideTo.pairedRatio.n > 0);
    return to.change && !to.withinNoise;
}

// The headline's newer server's figure in `table`, its change taken from the headline's older
// one: the table's own against the baseline, or, across two bundles, against the other
// bundle's (never paired: two bundles are two runs).
Figure headlineFigure(const Figures &figures, const FigureTable &table, const Headline &headline)
{
    Figure to = table.at(0, headline.toId);
    if (headline.fromId != figures.baselineId())
        compareFigures(to, table.at(0, headline.fromId), table.measure, false);
    return to;
}

// "(35.0% more event-loop time per command)", or which server does not report it.
QString eventLoopAside(const Figures &figures, const Headline &headline)
{
    const FigureTable loop = figures.serverTime(Measure::EventLoopPerCall);
    const Figure to = headlineFigure(figures, loop, headline);
    if (to.change)
        return QStringLiteral(" (%1 per command)").arg(changeWords(*to.change, QStringLiteral("event-loop time"), to.withinNoise));
    for (const QString &id : {headline.fromId, headline.toId}) {
        if (loop.at(0, id).state == FigureState::Absent && !loop.at(0, id).note.isEmpty())
            return QStringLiteral(" (event-loop time %1 on %2)").arg(loop.at(0, id).note, figures.summary(id).name);
    }
    return QString();
}

// ", but 15.2% more main-thread CPU per command in all (…)" when the server's own time per
// command moves the other way from the time inside the commands, or apart from it beyond
// noise; empty when they agree or it is not known.
QString serverTimeClause(const Figures &figures, const Headline &headline, const FigureTable &times)
{
    const FigureTable cpu = figures.serverTime(Measure::MainThreadCpuPerCall);
    const Figure cpuTo = headlineFigure(figures, cpu, headline);
    if (!cpuTo.change || !headline.change)
        return QString();
    const bool cpuNews = changeMeaning(cpu.measure, cpuTo) != ChangeMeaning::Neutral;
    const bool insideNews = headline.meaning != ChangeMeaning::Neutral;
    const bool sameWay = (*cpuTo.change > 0) == (*headline.change > 0);
    const bool otherWay = cpuNews && (!sameWay || !insideNews);
    if (!otherWay
        && !movedApart(cpu.at(0, headline.fromId), cpuTo, times.at(0, headline.fromId), headlineFigure(figures, times, headline)))
        return QString();
    return QStringLiteral(", %1 %2 per command in all%3")
        .arg(cpuNews && insideNews && sameWay ? QStringLiteral("and") : QStringLiteral("but"),
             changeWords(*cpuTo.change, QStringLiteral("main-thread CPU"), !cpuNews), eventLoopAside(figures, headline));
}

// The memory and time headlines as one sentence, or a reference pattern's ratios.
QString headlineAnswer(const Figures &figures)
{
    const FigureTable memory = figures.memory();
    const FigureTable times = figures.commandTime();
    const std::optional<Headline> stored = figures.headline(memory);
    const std::optional<Headline> timed = figures.headline(times);
    const bool memoryKnown = stored && stored->change && !stored->provisional;
    const bool timeKnown = timed && timed->change && !timed->provisional;
    const QString noun = figures.typeNoun() == QLatin1String("pattern") ? QStringLiteral("keys") : QStringLiteral("attributes");
    if (memoryKnown || timeKnown) {
        const Headline &lead = memoryKnown ? *stored : *timed;
        const QString from = figures.summary(lead.fromId).name;
        const bool timeShown = timeKnown && (!memoryKnown || timed->toId == stored->toId);
        const QString time = timeShown
                                 ? QStringLiteral("spends %1 %2").arg(changeWords(*timed->change, QStringLiteral("time"),
                                                                                  timed->meaning == ChangeMeaning::Neutral),
                                                                      insideWhat(times.categories.front()))
                                 : QString();
        const QString serverTime = timeShown ? serverTimeClause(figures, *timed, times) : QString();
        const bool timeSame = timeKnown && sameWords(*timed->change, timed->meaning == ChangeMeaning::Neutral);
        if (!memoryKnown)
            return QStringLiteral("%1 %2 %3 %4%5.")
                .arg(figures.summary(lead.toId).name, time, timeSame ? QStringLiteral("as") : QStringLiteral("than"), from, serverTime);
        const bool memorySame = sameWords(*stored->change, stored->meaning == ChangeMeaning::Neutral);
        return QStringLiteral("%1 stores the same %2 in %3 %4 %5%6%7.")
            .arg(figures.summary(lead.toId).name, noun,
                 changeWords(*stored->change, QStringLiteral("memory"), stored->meaning == ChangeMeaning::Neutral),
                 memorySame ? QStringLiteral("as") : QStringLiteral("than"), from,
                 time.isEmpty() ? QString() : QStringLiteral(" and ") + time, serverTime);
    }
    // A workload measured against a reference pattern: the ratios on the server the chart
    // quotes them on.
    const FigureTable ratios = figures.referenceRatios();
    const QString quoted = figures.referenceServer(ratios);
    if (quoted.isEmpty())
        return QString();
    QStringList parts;
    for (int c = 0; c < int(ratios.categories.size()); ++c) {
        const Figure &figure = ratios.at(c, quoted);
        if (figure.settled() && figure.state == FigureState::Measured)
            parts << QStringLiteral("%1 takes %2").arg(ratios.categories[size_t(c)].label, formatMultiple(figure.value));
    }
    if (parts.isEmpty())
        return QString();
    return QStringLiteral("On %1, %2 the memory of %3.")
        .arg(figures.summary(quoted).name, parts.join(QStringLiteral(" and ")), figures.referenceType());
}

// For each shown server that lost data to maxmemory, why its memory is not in the answer: "No
// memory figure for Valkey 9.1.2: it evicted 14,203 keys (maxmemory 4mb, allkeys-lru)."
QStringList lossSentences(const Figures &figures)
{
    const FigureTable memory = figures.memory();
    QStringList sentences;
    for (const QString &id : figures.serverIds()) {
        const ServerSummary &summary = figures.summary(id);
        // A headline memory reading that could not have happened (figuresreadings.cpp) is said
        // as its note says it, as a loss would be.
        const Figure &headline = memory.categories.empty() ? Figure() : memory.at(0, id);
        if (!summary.loss.any() && headline.state == FigureState::Failed && headline.note.contains(QLatin1String("not a possible reading"))) {
            sentences << QStringLiteral("No memory figure for %1: %2.").arg(summary.name, headline.note.section(QStringLiteral(": "), 1));
            continue;
        }
        if (!summary.loss.any() || summary.verdict == ServerVerdict::Running)
            continue;
        const QString lost = lossText(summary.loss, summary.memoryLimit);
        // Its headline figure, or, without one (a pattern's own passes), every memory figure.
        bool headlineLost = !memory.categories.empty();
        for (int c = 0; c < (memory.leadsWithHeadlineCategory() ? 1 : int(memory.categories.size())); ++c)
            headlineLost = headlineLost && memory.at(c, id).state == FigureState::Failed;
        sentences << (headlineLost ? QStringLiteral("No memory figure for %1: it %2.").arg(summary.name, lost)
                                   : QStringLiteral("%1 %2: the passes that lost data have no memory figure.").arg(summary.name, lost));
    }
    return sentences;
}

} // namespace

QString Figures::answer() const
{
    if (live())
        return QString();
    QStringList sentences = lossSentences(*this);
    if (const QString headlines = headlineAnswer(*this); !headlines.isEmpty())
        sentences.prepend(headlines);
    return sentences.join(QLatin1Char(' '));
}

QString Figures::noiseNote() const
{
    if (live() || headlineAnswer(*this).isEmpty())
        return QString();
    const int repeats = bundle().repeats;
    if (repeats <= 1)
        return QStringLiteral("One run: its figures carry no interval, and timings of another run on this machine may "
                              "differ by a few percent; repeat with --repeat 5 for an interval.");
    const FigureTable times = commandTime();
    const std::optional<Headline> timed = headline(times);
    if (!timed || !timed->change || times.categories.empty())
        return QString();
    const Spread &paired = times.at(0, timed->toId).pairedRatio;
    if (paired.n < 2)
        return QString();
    return QStringLiteral("Across %1 repeats the change in time inside the commands was %2 (%3, taken repeat by repeat).")
        .arg(repeats)
        .arg(formatChangeRange(paired, true), paired.hasInterval() ? QStringLiteral("95% interval") : QStringLiteral("min to max"));
}
