// Where the server's time per command goes (Figures::timeParts(), explainTime()): the event
// loop's time per command split into the time inside the commands, the loop around them and the
// rest, which add up; a counter a version does not report reads "not reported by this version",
// never 0; and the sentence states a part's move only where the repeats resolve it. Fixed
// bundles: no time here is measured.

#include "figures.h"
#include "timeexplanation.h"
#include "whytimemarkdown.h"

#include "fixturebundle.h"

#include <QtTest>
#include <cmath>

namespace {

const QString kPartsOlder = QStringLiteral("valkey-8.0.1");
const QString kPartsNewer = QStringLiteral("valkey-9.1.2");

// What one server's timed pass spent per command, in µs, and how many commands a loop
// iteration ran.
struct PassShape {
    double inside = 0;
    double around = 0;
    double rest = 0;
    double cpu = 0;
    double perCycle = 0;
};

// Sets a timed pass's commandstats and clock so that it spent `shape` per command, the whole
// pass scaled by `machine` (the machine's drift between repeats).
void shapePass(PassTiming &timing, const PassShape &shape, double machine)
{
    for (auto &entry : timing.byCommand)
        entry.second.usec = std::llround(shape.inside * machine * double(entry.second.calls));
    const double calls = double(timing.totalCalls());
    ServerClock clock;
    clock.eventLoopCommandUsec = timing.totalUsec() + std::llround(shape.rest * machine * calls);
    clock.eventLoopUsec = *clock.eventLoopCommandUsec + std::llround(shape.around * machine * calls);
    clock.eventLoopCycles = std::llround(calls / shape.perCycle);
    clock.mainThreadCpuUsec = std::llround(shape.cpu * machine * calls);
    clock.commandsProcessed = timing.totalCalls();
    timing.serverTime = clock;
}

// real-ecommerce.json (Valkey 8.0.1 and 9.1.2, one combined timed pass) over three repeats, the
// machine drifting ×1.0, ×1.02 and ×0.98 alike for both, so that every change is resolved.
ResultsBundle shapedBundle(const PassShape &older, const PassShape &newer, const double (&newerWobble)[3] = {1, 1, 1})
{
    ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
    const double machine[] = {1.0, 1.02, 0.98};
    bundle.repeats = 3;
    for (ServerRun &run : bundle.servers) {
        run.repeats.resize(1);
        const RepeatResult first = run.repeats.front();
        run.repeats.clear();
        for (int r = 0; r < 3; ++r) {
            RepeatResult repeat = first;
            repeat.repeat = r;
            const bool isNewer = run.id == kPartsNewer;
            shapePass(repeat.timing, isNewer ? newer : older, machine[r] * (isNewer ? newerWobble[r] : 1.0));
            run.repeats.push_back(repeat);
        }
    }
    return bundle;
}

const PassShape kOlderShape{0.26, 0.33, 0.01, 0.60, 14};
const PassShape kNewerShape{0.23, 0.47, 0.01, 0.70, 38};

double valueOf(const FigureTable &table, const QString &part, const QString &id)
{
    return table.at(table.categoryIndex(part), id).value;
}

} // namespace

class TestFiguresTimeParts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partsAddUpToTheLoopTime()
    {
        const Figures figures(shapedBundle(kOlderShape, kNewerShape));
        const FigureTable parts = figures.timeParts();
        QCOMPARE(parts.measure, Measure::EventLoopPerCall);
        QStringList ids;
        for (const FigureCategory &category : parts.categories)
            ids << category.id;
        QCOMPARE(ids, QStringList({TimePart::Loop, TimePart::Inside, TimePart::Around, TimePart::NotAttributed, TimePart::Cpu}));
        QCOMPARE(parts.categories.front().kind, CategoryKind::Overall);
        const std::pair<QString, PassShape> servers[] = {{kPartsOlder, kOlderShape}, {kPartsNewer, kNewerShape}};
        for (const auto &[id, serverShape] : servers) {
            const double loop = valueOf(parts, TimePart::Loop, id);
            const double sum = valueOf(parts, TimePart::Inside, id) + valueOf(parts, TimePart::Around, id)
                + valueOf(parts, TimePart::NotAttributed, id);
            QVERIFY2(std::fabs(sum - loop) < 1e-12, qPrintable(QStringLiteral("%1: %2 against %3").arg(id).arg(sum).arg(loop)));
            // The median repeat is the machine's ×1.0 one: each part is what the pass was given.
            const PassShape &shape = serverShape;
            QVERIFY(std::fabs(loop - (shape.inside + shape.around + shape.rest)) < 0.0005);
            QVERIFY(std::fabs(valueOf(parts, TimePart::Inside, id) - shape.inside) < 0.0005);
            QVERIFY(std::fabs(valueOf(parts, TimePart::Around, id) - shape.around) < 0.0005);
            QVERIFY(std::fabs(valueOf(parts, TimePart::NotAttributed, id) - shape.rest) < 0.0005);
            QVERIFY(std::fabs(valueOf(parts, TimePart::Cpu, id) - shape.cpu) < 0.0005);
            const FigureTable cycles = figures.commandsPerLoopCycle();
            QVERIFY2(std::fabs(cycles.at(0, id).value - shape.perCycle) < 0.05, qPrintable(QString::number(cycles.at(0, id).value)));
            // A count of how the loop batched, not a time under the noise rule: no change of its own.
            QVERIFY(!cycles.at(0, id).change);
        }
    }

    // Repeats that differ part by part (a loaded machine): the parts shown are those of the
    // repeat whose loop time is the median (0.61, repeat 0), not medians taken part by part,
    // which would mix repeats (inside 0.25 of repeat 2, around 0.30) and leave 0.06 µs "not
    // attributed" where every repeat had 0.01.
    void partsComeFromTheMedianRepeat()
    {
        ResultsBundle bundle = shapedBundle(kOlderShape, kNewerShape);
        const PassShape repeats[] = {{0.30, 0.30, 0.01, 0.6, 14}, {0.20, 0.50, 0.01, 0.6, 14}, {0.25, 0.30, 0.01, 0.6, 14}};
        for (RepeatResult &repeat : bundle.servers[0].repeats)
            shapePass(repeat.timing, repeats[repeat.repeat], 1.0);
        const FigureTable parts = Figures(bundle).timeParts();
        QVERIFY(std::fabs(valueOf(parts, TimePart::Loop, kPartsOlder) - 0.61) < 0.0005);
        QVERIFY2(std::fabs(valueOf(parts, TimePart::Inside, kPartsOlder) - 0.30) < 0.0005, qPrintable(QString::number(valueOf(parts, TimePart::Inside, kPartsOlder))));
        QVERIFY(std::fabs(valueOf(parts, TimePart::Around, kPartsOlder) - 0.30) < 0.0005);
        QVERIFY2(std::fabs(valueOf(parts, TimePart::NotAttributed, kPartsOlder) - 0.01) < 0.0005,
                 qPrintable(QString::number(valueOf(parts, TimePart::NotAttributed, kPartsOlder))));
        // Each part keeps its own repeats and spread.
        const Figure &inside = parts.at(parts.categoryIndex(TimePart::Inside), kPartsOlder);
        QCOMPARE(inside.spread.n, 3);
        QVERIFY(std::fabs(inside.spread.min - 0.20) < 0.0005);
    }

    // The sentence names the largest resolved part first, and a part moving the other way as such.
    void sentenceNamesTheLargestPart()
    {
        const TimeExplanation why = Figures(shapedBundle(kOlderShape, kNewerShape)).explainTime();
        QCOMPARE(why.fromId, kPartsOlder);
        QCOMPARE(why.toId, kPartsNewer);
        QCOMPARE(why.sentence,
                 QStringLiteral("Of the 0.11 µs per command of event-loop time Valkey 9.1.2 spends beyond Valkey 8.0.1 (0.71 against "
                                "0.60), 0.14 are in the event loop around the commands, while the time inside them fell by 0.03; "
                                "Valkey 9.1.2 runs 38.0 commands per loop iteration against 14.0."));
        const TimeExplanation saved = Figures(shapedBundle(kNewerShape, {0.10, 0.30, 0.01, 0.45, 60})).explainTime();
        QCOMPARE(saved.sentence,
                 QStringLiteral("Of the 0.30 µs per command of event-loop time Valkey 9.1.2 saves over Valkey 8.0.1 (0.41 against "
                                "0.71), 0.17 are in the event loop around the commands and 0.13 inside them; Valkey 9.1.2 runs "
                                "60.0 commands per loop iteration against 38.0."));
    }

    // The time inside the commands moved ×1.0, ×0.92 and ×1.06 on top of the machine's drift:
    // three repeats do not resolve it, so the sentence says it did not change, and so does
    // the list of commands unchanged inside.
    void unresolvedPartIsSaidUnchanged()
    {
        PassShape wobbly = kNewerShape;
        wobbly.inside = kOlderShape.inside;
        const double wobble[3] = {1.0, 0.92, 1.06};
        const TimeExplanation why = Figures(shapedBundle(kOlderShape, wobbly, wobble)).explainTime();
        QVERIFY2(why.sentence.contains(QStringLiteral("the time inside them did not change beyond the noise")), qPrintable(why.sentence));
        QVERIFY2(why.unchanged.startsWith(QStringLiteral("Unchanged inside the commands between Valkey 8.0.1 and Valkey 9.1.2 "
                                                         "(no change the repeats resolve): ")),
                 qPrintable(why.unchanged));
    }

    // The loop around the commands moved ×1.0, ×0.7 and ×1.3 repeat by repeat, the time inside
    // them by ×0.77 in every repeat: the total is not resolved, and said so, while the part that
    // is resolved is said; "not attributed" has no change of its own.
    void resolvedPartOfAnUnresolvedTotalIsSaid()
    {
        ResultsBundle bundle = shapedBundle(kOlderShape, {0.20, 0.33, 0.01, 0.6, 14});
        const double wobble[] = {1.0, 0.7, 1.3};
        for (RepeatResult &repeat : bundle.servers[1].repeats) {
            ServerClock &clock = *repeat.timing.serverTime;
            *clock.eventLoopUsec += std::llround(0.33 * (wobble[repeat.repeat] - 1.0) * double(repeat.timing.totalCalls()));
        }
        const Figures figures(bundle);
        const FigureTable parts = figures.timeParts();
        const Figure &rest = parts.at(parts.categoryIndex(TimePart::NotAttributed), kPartsNewer);
        QVERIFY(rest.hasValue());
        QVERIFY(!rest.change && !rest.ratio && rest.unresolved.isEmpty());
        const QString sentence = figures.explainTime().sentence;
        QVERIFY2(sentence.startsWith(QStringLiteral("Valkey 9.1.2's event-loop time per command, 0.54 µs against 0.60 on Valkey 8.0.1, "
                                                    "did not change beyond the noise (not resolvable with 3 repeats")),
                 qPrintable(sentence));
        QVERIFY2(sentence.endsWith(QStringLiteral("); of its parts, the time inside the commands fell by 0.06 µs per command; Valkey "
                                                  "9.1.2 runs 14.0 commands per loop iteration against 14.0.")),
                 qPrintable(sentence));
    }

    // Redis 7.0 has no event loop counters: its loop parts read "not reported by this version",
    // never 0, while its time inside the commands and its CPU stay.
    void missingCountersAreNotReportedNeverZero()
    {
        ResultsBundle bundle = shapedBundle(kOlderShape, kNewerShape);
        for (RepeatResult &repeat : bundle.servers[1].repeats) {
            ServerClock &clock = *repeat.timing.serverTime;
            clock.eventLoopUsec.reset();
            clock.eventLoopCommandUsec.reset();
            clock.eventLoopCycles.reset();
        }
        const Figures figures(bundle);
        const FigureTable parts = figures.timeParts();
        for (const QString &part : {TimePart::Loop, TimePart::Around, TimePart::NotAttributed}) {
            const Figure &figure = parts.at(parts.categoryIndex(part), kPartsNewer);
            QCOMPARE(figure.state, FigureState::Absent);
            QCOMPARE(figure.note, QStringLiteral("not reported by this version"));
        }
        QCOMPARE(figures.commandsPerLoopCycle().at(0, kPartsNewer).note, QStringLiteral("not reported by this version"));
        QCOMPARE(parts.at(parts.categoryIndex(TimePart::Inside), kPartsNewer).state, FigureState::Measured);
        QCOMPARE(parts.at(parts.categoryIndex(TimePart::Cpu), kPartsNewer).state, FigureState::Measured);
        const TimeExplanation why = figures.explainTime();
        QVERIFY(why.sentence.isEmpty());
        QCOMPARE(why.missing, QStringLiteral("Valkey 9.1.2: event-loop time not reported by this version."));
        QVERIFY2(whyTimeSummary(figures).endsWith(why.missing), qPrintable(whyTimeSummary(figures)));

        const FigureTable old = Figures(fixtureBundle("real-ecommerce.json")).timeParts();
        QCOMPARE(old.at(old.categoryIndex(TimePart::Around), kPartsOlder).note, QStringLiteral("not recorded in this bundle"));
    }
};

QTEST_GUILESS_MAIN(TestFiguresTimeParts)
#include "tst_figurestimeparts.moc"
