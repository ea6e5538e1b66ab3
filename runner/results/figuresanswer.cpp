// The answer as a reader wants it first: one sentence from the headlines of the memory and the
// time tables ("Valkey 9.1.2 stores the same attributes in 8.4% less memory than Valkey 8.0.1
// and spends 23.8% less server time per write."), or, for a workload measured against a
// reference pattern, the newest version's ratios ("On Valkey 9.1.2, hsetex takes 1.86× the
// memory of set-ex."). Only settled figures of finished servers enter it; a server that lost
// data to maxmemory has no memory figure to enter, and the answer says why.

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

// "per write" for the writes group, "per command" for every command, "per <group>" otherwise.
QString perWhat(const FigureCategory &category)
{
    const QString group = commandGroupOf(category);
    if (group.isEmpty())
        return QStringLiteral("per command");
    const QString first = group.section(QLatin1Char(' '), 0, 0);
    return QStringLiteral("per %1").arg(first.endsWith(QLatin1Char('s')) ? first.chopped(1) : first);
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
        const QString time = timeKnown && (!memoryKnown || timed->toId == stored->toId)
                                 ? QStringLiteral("spends %1 %2").arg(changeWords(*timed->change, QStringLiteral("server time"),
                                                                                  timed->meaning == ChangeMeaning::Neutral),
                                                                      perWhat(times.categories.front()))
                                 : QString();
        const bool timeSame = timeKnown && sameWords(*timed->change, timed->meaning == ChangeMeaning::Neutral);
        if (!memoryKnown)
            return QStringLiteral("%1 %2 %3 %4.")
                .arg(figures.summary(lead.toId).name, time, timeSame ? QStringLiteral("as") : QStringLiteral("than"), from);
        const bool memorySame = sameWords(*stored->change, stored->meaning == ChangeMeaning::Neutral);
        return QStringLiteral("%1 stores the same %2 in %3 %4 %5%6.")
            .arg(figures.summary(lead.toId).name, noun,
                 changeWords(*stored->change, QStringLiteral("memory"), stored->meaning == ChangeMeaning::Neutral),
                 memorySame ? QStringLiteral("as") : QStringLiteral("than"), from,
                 time.isEmpty() ? QString() : QStringLiteral(" and ") + time);
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
    return QStringLiteral("Across %1 repeats the time change was %2 (%3, taken repeat by repeat).")
        .arg(repeats)
        .arg(formatChangeRange(paired, true), paired.hasInterval() ? QStringLiteral("95% interval") : QStringLiteral("min to max"));
}
