// The self-check (--self-check): the first server's build run a second time, on a server of its
// own, as a series the fair schedule interleaves like the others. Nothing but the machine tells
// the two apart, so the paired test of their time per command (the noise rule's, figuresnoise.cpp)
// measures what this machine resolves during this run: its smallest detectable change is the
// floor below which no version's change in time can be told from noise (docs/MEASUREMENT.md,
// "Self-check").

#include "figuresdata.h"
#include "presentation.h"

#include <QLocale>
#include <algorithm>

namespace {

// The series the self-check repeats: the one whose id it extends ("valkey-9.1.2" for
// "valkey-9.1.2-self-check"), else one of the same build and topology that is no self-check.
const ServerRun *selfCheckOriginal(const ResultsBundle &bundle, const ServerRun &check)
{
    static const QString suffix = QStringLiteral("-self-check");
    const QString stem = check.id.endsWith(suffix) ? check.id.chopped(suffix.size()) : QString();
    if (const ServerRun *named = bundle.server(stem); named && !named->selfCheck)
        return named;
    for (const ServerRun &run : bundle.servers) {
        if (!run.selfCheck && run.product == check.product && run.version == check.version && run.topology == check.topology
            && run.binarySha256 == check.binarySha256 && run.bundleName == check.bundleName)
            return &run;
    }
    return nullptr;
}

// "6.1%": the floor and the A/A difference as the sentence gives them.
QString floorPercentText(double percent)
{
    return QLocale(QLocale::English).toString(percent, 'f', 1) + QLatin1Char('%');
}

} // namespace

QStringList Figures::comparedVersionIds() const
{
    QStringList ids;
    for (const QString &id : comparedServerIds()) {
        const ServerRun *run = d->bundle.server(id);
        if (run && !run->selfCheck)
            ids << id;
    }
    return ids;
}

std::optional<SelfCheck> Figures::selfCheck() const
{
    const auto check = std::find_if(d->bundle.servers.begin(), d->bundle.servers.end(),
                                    [](const ServerRun &run) { return run.selfCheck; });
    if (check == d->bundle.servers.end())
        return std::nullopt;
    const ServerRun *original = selfCheckOriginal(d->bundle, *check);
    const FigureTable times = commandTime();
    if (!original || times.categories.empty() || !times.leadsWithHeadlineCategory())
        return std::nullopt;
    const Figure &copy = times.at(0, check->id);
    const Figure &first = times.at(0, original->id);
    if (copy.state != FigureState::Measured || first.state != FigureState::Measured || !copy.settled() || !first.settled())
        return std::nullopt;
    std::vector<double> ratios;
    for (const auto &[repeat, value] : copy.byRepeat) {
        const auto paired = first.byRepeat.find(repeat);
        if (paired != first.byRepeat.end() && paired->second > 0 && value > 0)
            ratios.push_back(value / paired->second);
    }
    if (ratios.empty())
        return std::nullopt;
    SelfCheck result;
    result.serverId = check->id;
    result.ofId = original->id;
    result.test = pairedChangeTest(ratios);
    return result;
}

QString Figures::selfCheckSentence() const
{
    const std::optional<SelfCheck> check = selfCheck();
    if (!check)
        return QString();
    const QString name = summary(check->ofId).name;
    const QString difference = formatPercentChange(check->test.percent());
    const std::optional<double> floor = check->floorPercent();
    if (!floor)
        return QStringLiteral("Self-check: %1 run twice, on two servers, differed by %2 in time per command inside the commands; "
                              "with one repeat that is one sample of this machine's noise, not a floor (repeat with --repeat 5 "
                              "for one).")
            .arg(name, difference);
    QString sentence = QStringLiteral("Self-check: %1 run twice, on two servers, differed by %2 in time per command inside the "
                                      "commands; the smallest change this machine resolved during this run is %3 (%4 repeats).")
                           .arg(name, difference, floorPercentText(*floor))
                           .arg(check->test.repeats);
    // One build against itself: a resolved difference is the machine's (or a false positive, 1 in 20).
    if (check->test.resolved)
        sentence += QStringLiteral(" The run resolved a difference between two copies of one build: something other than the "
                                   "version moved its time figures, so treat its time verdicts with care.");
    return sentence;
}
