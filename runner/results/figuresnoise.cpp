// A change against the baseline, and whether it is news: a change no larger than the figure moves
// between runs is shown, but no view colours it as better or worse (a +0.1% difference in memory
// between two bundles of the same servers was coloured as a regression).
// A time figure's change is news only when the run's own repeats rule out no change at 95%
// (a t-test on the log ratios, paired repeat by repeat): "every pair on one side of no change"
// stated a change in half the runs where nothing had changed (docs/MEASUREMENT.md, "Noise").

#include "figuresdata.h"

#include <QLocale>
#include <cmath>

bool isTimeMeasure(Measure measure)
{
    switch (measure) {
    case Measure::UsecPerCall:
    case Measure::UsecPerEvent:
    case Measure::MainThreadCpuPerCall:
    case Measure::EventLoopPerCall:
    case Measure::MainThreadBusyPercent:
    case Measure::EventsPerSecond:
    case Measure::CommandsPerSecond:
    case Measure::LatencyP50Usec:
    case Measure::LatencyP99Usec:
    case Measure::ServerP50Usec:
    case Measure::ServerP99Usec:
    case Measure::ServerP999Usec: return true;
    case Measure::BytesPerKey:
    case Measure::MemoryUsageBytesPerKey:
    case Measure::RatioToReference:
    case Measure::ProfileSharePercent:
    case Measure::Keys:
    case Measure::Calls: return false;
    }
    return false;
}

namespace {

// How much a memory figure moves between two runs of one server when its repeats cannot tell
// (one run, or runs whose repeats do not pair), in percent. Bytes per key: two runs agree within
// 0.5% on types of 1,000 keys or more, and the overall figure within 0.1% (docs/MEASUREMENT.md,
// "Memory across repeats"). Keys and calls are counts, exact.
double runToRunPercent(Measure measure)
{
    return measure == Measure::Keys || measure == Measure::Calls ? 0.0 : 0.5;
}

// "24.5%", "1,250%": a percentage as the unresolved sentence gives it.
QString percentText(double percent)
{
    return QLocale(QLocale::English).toString(std::fabs(percent), 'f', 1) + QLatin1Char('%');
}

// Why a time change is not news, in the words every view prints.
QString unresolvedText(const ChangeTest &test)
{
    if (!test.spreadKnown())
        return QStringLiteral("not resolvable with one repeat: a single repeat shows no spread, so no change in time can be "
                              "told from noise (run with --repeat 5 for a spread)");
    const QString repeats = test.paired || test.repeats == test.otherRepeats
                                ? QString::number(test.repeats)
                                : QStringLiteral("%1 and %2").arg(test.repeats).arg(test.otherRepeats);
    QString text = QStringLiteral("not resolvable with %1 repeats%2: the smallest change %3 could detect is %4")
                       .arg(repeats, test.paired ? QString() : QStringLiteral(" of two runs"),
                            test.paired ? QStringLiteral("this run") : QStringLiteral("these runs"),
                            percentText(test.detectablePercent.value_or(0)));
    const QString each = test.paired ? QString() : QStringLiteral(" of each");
    if (test.repeatsToResolve)
        text += QStringLiteral(", and about %1 repeats%2 would resolve a change of %3")
                    .arg(QString::number(*test.repeatsToResolve), each, percentText(test.percent()));
    else if (test.repeatsBeyondAdvice)
        text += QStringLiteral(", and more than %1 repeats%2 would be needed to resolve a change of %3")
                    .arg(QLocale(QLocale::English).toString(kMostRepeatsAdvised), each, percentText(test.percent()));
    return text;
}

// A time change is news when the repeats resolve it: paired repeat by repeat when they pair,
// else (two runs) Welch's test over the two series.
void testTimeChange(Figure &figure, const Figure &reference, const std::vector<double> &ratios, bool pairRepeats)
{
    if (pairRepeats && !ratios.empty()) {
        figure.changeTest = pairedChangeTest(ratios);
    } else {
        std::vector<double> values, baseline;
        for (const auto &entry : figure.byRepeat)
            values.push_back(entry.second);
        for (const auto &entry : reference.byRepeat)
            baseline.push_back(entry.second);
        figure.changeTest = unpairedChangeTest(values, baseline);
    }
    figure.withinNoise = !figure.changeTest.resolved;
    if (figure.withinNoise)
        figure.unresolved = unresolvedText(figure.changeTest);
}

bool changeWithinNoise(Measure measure, const Figure &figure, const Figure &reference)
{
    if (!figure.change)
        return false;
    // Repeats paired repeat by repeat say how much the change itself moves, the machine's drift
    // taken out: no news while the pairs (their 95% interval from 5 pairs on) reach no change.
    const Spread &pairs = figure.pairedRatio;
    if (pairs.n >= 2) {
        const bool interval = pairs.hasInterval();
        return (interval ? pairs.ciLow : pairs.min) <= 1.0 && 1.0 <= (interval ? pairs.ciHigh : pairs.max);
    }
    if (std::fabs(*figure.change) < runToRunPercent(measure))
        return true;
    // Repeats that do not pair (two bundles): ranges that overlap are one figure's spread.
    return figure.spread.n >= 2 && reference.spread.n >= 2 && figure.spread.min <= reference.spread.max
        && reference.spread.min <= figure.spread.max;
}

} // namespace

void compareFigures(Figure &figure, const Figure &reference, Measure measure, bool pairRepeats)
{
    figure.change.reset();
    figure.ratio.reset();
    figure.pairedRatio = Spread();
    figure.ratioPlusMinus.reset();
    figure.withinNoise = false;
    figure.changeTest = ChangeTest();
    figure.unresolved.clear();
    if (figure.state == FigureState::Failed || !figure.settled() || !reference.settled()
        || reference.state == FigureState::Failed || reference.value == 0 || !figure.uncompared.isEmpty()
        || !reference.uncompared.isEmpty())
        return;
    figure.change = (figure.value - reference.value) / reference.value * 100.0;
    figure.ratio = figure.value / reference.value;
    std::vector<double> ratios;
    if (pairRepeats) {
        for (const auto &[repeat, value] : figure.byRepeat) {
            const auto paired = reference.byRepeat.find(repeat);
            if (paired != reference.byRepeat.end() && paired->second != 0 && value != 0)
                ratios.push_back(value / paired->second);
        }
        figure.pairedRatio = spreadOf(ratios);
        if (figure.pairedRatio.hasInterval())
            figure.ratioPlusMinus = (figure.pairedRatio.ciHigh - figure.pairedRatio.ciLow) / 2.0;
        else if (figure.pairedRatio.n >= 2)
            figure.ratioPlusMinus = (figure.pairedRatio.max - figure.pairedRatio.min) / 2.0;
    }
    if (isTimeMeasure(measure))
        testTimeChange(figure, reference, ratios, pairRepeats);
    else
        figure.withinNoise = changeWithinNoise(measure, figure, reference);
}
