// A change against the baseline, and whether it is news: a change no larger than the figure moves
// between runs is shown, but no view colours it as better or worse (a +0.1% difference in memory
// between two bundles of the same servers was coloured as a regression).

#include "figuresdata.h"

#include <cmath>

namespace {

// How much a figure moves between two runs of one server when its repeats cannot tell (one run,
// or runs whose repeats do not pair), in percent. Bytes per key: two runs agree within 0.5% on
// types of 1,000 keys or more, and the overall figure within 0.1% (docs/MEASUREMENT.md, "Memory
// across repeats"). Server time and the client's pace: this machine's speed drifts by about 5%
// from one moment to the next. Keys and calls are counts, exact.
double runToRunPercent(Measure measure)
{
    switch (measure) {
    case Measure::BytesPerKey:
    case Measure::MemoryUsageBytesPerKey:
    case Measure::RatioToReference: return 0.5;
    case Measure::UsecPerCall:
    case Measure::UsecPerEvent:
    case Measure::MainThreadCpuPerCall:
    case Measure::EventLoopPerCall:
    case Measure::MainThreadBusyPercent:
    case Measure::EventsPerSecond:
    case Measure::CommandsPerSecond:
    case Measure::LatencyP50Usec:
    case Measure::LatencyP99Usec: return 5.0;
    case Measure::Keys:
    case Measure::Calls: return 0.0;
    }
    return 0.0;
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
    if (figure.state == FigureState::Failed || !figure.settled() || !reference.settled()
        || reference.state == FigureState::Failed || reference.value == 0 || !figure.uncompared.isEmpty()
        || !reference.uncompared.isEmpty())
        return;
    figure.change = (figure.value - reference.value) / reference.value * 100.0;
    figure.ratio = figure.value / reference.value;
    if (pairRepeats) {
        std::vector<double> ratios;
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
    figure.withinNoise = changeWithinNoise(measure, figure, reference);
}
