// The answer as a reader wants it first: one sentence from the headlines of the memory and the
// time tables ("Valkey 9.1.2 stores the same attributes in 8.4% less memory than Valkey 8.0.1
// and spends 23.8% less time inside its write commands."), or, for a workload measured against
// a reference pattern, the newest version's ratios ("On Valkey 9.1.2, hsetex takes 1.86× the
// memory of set-ex."). Only settled figures of finished servers enter it; a server that lost
// data to maxmemory has no memory figure to enter, and the answer says why.
// The time table's figures are commandstats time, inside the commands. The server's own time
// per command in all (its main thread's CPU) also holds the event loop around them, which can
// move the other way: the answer then says both, so a reader deciding on headroom does not read
// the opposite of what the server does. So does the server's throughput at saturation, the
// commands per second of its server-bound passes.
// A time change the run's repeats do not resolve (figuresnoise.cpp) is not stated as one: the
// answer says it is not resolvable, what this run could have detected, and how many repeats
// would resolve a change of the size it saw.

#include "figures.h"
#include "figuresdata.h"
#include "presentation.h"

#include <cmath>

namespace {

// "8.4% less memory", "3.1% more memory", and for no change "the same memory". A change that is
// not news reads "about the same memory (+0.1%, within noise)", or for time the run did not
// resolve "about the same main-thread CPU (+1.0%, not resolved)" (`unsure`): a phrase that
// compares with "as", not "than" (sameWords()).
bool sameWords(double percent, bool neutral)
{
    return std::fabs(percent) < 0.05 || neutral;
}

QString changeWords(double percent, const QString &what, const QString &unsure = QString())
{
    if (std::fabs(percent) < 0.05)
        return QStringLiteral("the same %1").arg(what);
    if (!unsure.isEmpty())
        return QStringLiteral("about the same %1 (%2, %3)").arg(what, formatPercentChange(percent), unsure);
    return QStringLiteral("%1% %2 %3")
        .arg(QString::number(std::fabs(percent), 'f', 1), percent < 0 ? QStringLiteral("less") : QStringLiteral("more"), what);
}

// What a time change that is not news is called.
QString notResolved(bool news)
{
    return news ? QString() : QStringLiteral("not resolved");
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
        return QStringLiteral(" (%1 per command)")
            .arg(changeWords(*to.change, QStringLiteral("event-loop time"), notResolved(!to.withinNoise)));
    for (const QString &id : {headline.fromId, headline.toId}) {
        if (loop.at(0, id).state == FigureState::Absent && !loop.at(0, id).note.isEmpty())
            return QStringLiteral(" (event-loop time %1 on %2)").arg(loop.at(0, id).note, figures.summary(id).name);
    }
    return QString();
}

// The server's own time per command in all, when the answer gives it: "15.2% more main-thread
// CPU per command in all (…)", when it moves the other way from the time inside the commands,
// or apart from it beyond noise; empty when they agree or it is not known. `along`: it went the
// same way as a resolved change inside the commands ("and", else "but"); `news`: the run
// resolved it.
struct ServerTimeWords {
    QString text;
    bool along = false;
    bool news = false;
};

ServerTimeWords serverTimeWords(const Figures &figures, const Headline &headline, const FigureTable &times)
{
    const FigureTable cpu = figures.serverTime(Measure::MainThreadCpuPerCall);
    const Figure cpuTo = headlineFigure(figures, cpu, headline);
    if (!cpuTo.change || !headline.change)
        return {};
    const bool cpuNews = changeMeaning(cpu.measure, cpuTo) != ChangeMeaning::Neutral;
    const bool insideNews = headline.meaning != ChangeMeaning::Neutral;
    const bool sameWay = (*cpuTo.change > 0) == (*headline.change > 0);
    const bool otherWay = cpuNews && (!sameWay || !insideNews);
    if (!otherWay
        && !movedApart(cpu.at(0, headline.fromId), cpuTo, times.at(0, headline.fromId), headlineFigure(figures, times, headline)))
        return {};
    return {QStringLiteral("%1 per command in all%2")
                .arg(changeWords(*cpuTo.change, QStringLiteral("main-thread CPU"), notResolved(cpuNews)), eventLoopAside(figures, headline)),
            cpuNews && insideNews && sameWay, cpuNews};
}

// The server's throughput at saturation (Figures::saturatedThroughput()), when the run resolved
// its change: "processes 14.0% fewer commands per second at saturation". Given when it moves
// the other way from the time inside the commands, when that is not resolved, or beside the
// server's time in all (`inAll`); left out when it only agrees with a resolved time inside the
// commands. `along`: it went the way of a resolved change inside the commands.
struct SaturationWords {
    QString text;
    bool along = false;
};

SaturationWords saturationWords(const Figures &figures, const Headline &headline, const ServerTimeWords &inAll)
{
    const FigureTable pace = figures.saturatedThroughput();
    if (pace.categories.empty())
        return {};
    const Figure to = headlineFigure(figures, pace, headline);
    const ChangeMeaning meaning = changeMeaning(pace.measure, to);
    if (meaning == ChangeMeaning::Neutral)
        return {};
    const bool along = headline.meaning == meaning;
    if (along && inAll.text.isEmpty())
        return {};
    return {QStringLiteral("processes %1% %2 commands per second at saturation")
                .arg(QString::number(std::fabs(*to.change), 'f', 1), *to.change < 0 ? QStringLiteral("fewer") : QStringLiteral("more")),
            along};
}

// ", but 15.2% more main-thread CPU per command in all (…) and processes 14.0% fewer commands
// per second at saturation": the clauses after the time inside the commands, each joined by
// whether it goes the way of that time.
QString afterInside(const ServerTimeWords &inAll, const SaturationWords &pace)
{
    const auto joined = [](bool along) { return along ? QStringLiteral(", and ") : QStringLiteral(", but "); };
    if (inAll.text.isEmpty())
        return pace.text.isEmpty() ? QString() : joined(pace.along) + pace.text;
    if (pace.text.isEmpty())
        return joined(inAll.along) + inAll.text;
    return joined(inAll.along) + inAll.text + (pace.along == inAll.along ? QStringLiteral(" and ") : joined(pace.along)) + pace.text;
}

// The time part of the answer after `subject` ("Valkey 9.1.2 stores … than Valkey 8.0.1", or
// the server's name alone): "spends 23.8% less time inside its write commands", with the
// server's time in all after it. When the run did not resolve the time change: that it is not
// resolvable, why, and the server's time in all as a sentence of its own when the run resolved
// that.
QString timeWords(const Figures &figures, const Headline &timed, const FigureTable &times, const QString &subject, bool afterMemory)
{
    const QString inside = insideWhat(times.categories.front());
    const QString from = figures.summary(timed.fromId).name;
    const ServerTimeWords inAll = serverTimeWords(figures, timed, times);
    const SaturationWords pace = saturationWords(figures, timed, inAll);
    const bool same = std::fabs(*timed.change) < 0.05;
    if (timed.unresolved.isEmpty() || same) {
        const QString against =
            afterMemory ? QString() : QStringLiteral(" %1 %2").arg(same ? QStringLiteral("as") : QStringLiteral("than"), from);
        return QStringLiteral("%1%2 spends %3 %4%5%6.")
            .arg(subject, afterMemory ? QStringLiteral(" and") : QString(), changeWords(*timed.change, QStringLiteral("time")), inside,
                 against, afterInside(inAll, pace));
    }
    const QString change = afterMemory
                               ? QStringLiteral("%1; its time %2 (%3)").arg(subject, inside, formatPercentChange(*timed.change))
                               : QStringLiteral("%1's time %2 against %3 (%4)").arg(subject, inside, from, formatPercentChange(*timed.change));
    // What the run resolved of the server's own time, as a sentence of its own.
    QStringList resolved;
    if (inAll.news)
        resolved << QStringLiteral("spends %1").arg(inAll.text);
    if (!pace.text.isEmpty())
        resolved << pace.text;
    const QString server = resolved.isEmpty() ? QString() : QStringLiteral(" It %1.").arg(resolved.join(QStringLiteral(" and ")));
    return QStringLiteral("%1 is %2.%3").arg(change, timed.unresolved, server);
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
        const QString to = figures.summary(lead.toId).name;
        if (!memoryKnown)
            return timeWords(figures, *timed, times, to, false);
        const bool memoryNeutral = stored->meaning == ChangeMeaning::Neutral;
        const QString memoryWords =
            QStringLiteral("%1 stores the same %2 in %3 %4 %5")
                .arg(to, noun, changeWords(*stored->change, QStringLiteral("memory"), memoryNeutral ? QStringLiteral("within noise") : QString()),
                     sameWords(*stored->change, memoryNeutral) ? QStringLiteral("as") : QStringLiteral("than"), figures.summary(lead.fromId).name);
        const bool timeShown = timeKnown && timed->toId == stored->toId;
        return timeShown ? timeWords(figures, *timed, times, memoryWords, true) : memoryWords + QLatin1Char('.');
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

// With repeats, the range the answer's time change took repeat by repeat; empty without one.
QString pairedRangeSentence(const Figures &figures)
{
    const FigureTable times = figures.commandTime();
    const std::optional<Headline> timed = figures.headline(times);
    if (!timed || !timed->change || times.categories.empty())
        return QString();
    const Spread &paired = times.at(0, timed->toId).pairedRatio;
    if (paired.n < 2)
        return QString();
    return QStringLiteral("Across %1 repeats the change in time inside the commands was %2 (%3, taken repeat by repeat).")
        .arg(figures.bundle().repeats)
        .arg(formatChangeRange(paired, true), paired.hasInterval() ? QStringLiteral("95% interval") : QStringLiteral("min to max"));
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
    const QString check = selfCheckSentence();
    if (bundle().repeats <= 1) {
        const QString single = QStringLiteral("One run: no spread is known with one repeat, so its time figures carry no "
                                              "interval and resolve no change; repeat with --repeat 5 for both");
        if (check.isEmpty())
            return single + QStringLiteral(". No self-check ran: add --self-check to measure this machine's noise floor.");
        return single + QStringLiteral(". ") + check;
    }
    QStringList sentences{pairedRangeSentence(*this), check};
    sentences.removeAll(QString());
    return sentences.join(QLatin1Char(' '));
}
