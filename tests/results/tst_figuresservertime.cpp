// What a time measures: commandstats time is time inside the commands; the server's own time
// per command in all (main-thread CPU, the event loop) also holds the loop around them. The
// figures give both, the answer says both when they move apart, and a counter a version does
// not report reads "not reported by this version", never a figure. Fixed bundles: no time here
// is measured.

#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "figures.h"
#include "presentation.h"

#include "fixturebundle.h"
#include "servertimebundle.h"

#include <QtTest>
#include <cmath>

namespace {

const QString kNewer = QStringLiteral("valkey-9.1.2");

// 9.1.2's time inside the commands moved by ×1.0, ×0.92 and ×1.06 in its three repeats: with
// withServerTimes(0.9, …), paired ratios 0.90, 0.83 and 0.95, which 3 repeats do not resolve.
void wobbleNewerInsideTimes(ResultsBundle &bundle)
{
    const double wobble[] = {1.0, 0.92, 1.06};
    for (RepeatResult &repeat : bundle.servers[1].repeats) {
        for (auto &entry : repeat.timing.byCommand)
            entry.second.usec = std::llround(double(entry.second.usec) * wobble[repeat.repeat]);
    }
}

} // namespace

class TestFiguresServerTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The server's time per command in all: its change over the pass over commandstats' calls.
    void serverTimeIsPerCommandInAll()
    {
        const Figures figures(withServerTimes(0.9, 1.15, 1.35));
        const FigureTable cpu = figures.serverTime(Measure::MainThreadCpuPerCall);
        QCOMPARE(cpu.categories.size(), size_t(1));
        const Figure &old = cpu.at(0, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(old.state, FigureState::Measured);
        QVERIFY2(std::fabs(old.value - 0.6) < 0.001, qPrintable(QString::number(old.value)));
        QVERIFY2(std::fabs(*cpu.at(0, kNewer).change - 15.0) < 0.1, qPrintable(QString::number(*cpu.at(0, kNewer).change)));
        QCOMPARE(cpu.at(0, kNewer).pairedRatio.n, 3);
        const FigureTable loop = figures.serverTime(Measure::EventLoopPerCall);
        QVERIFY(std::fabs(*loop.at(0, kNewer).change - 35.0) < 0.1);
    }

    // Both move the same way, within what the noise rule allows: the answer says the time
    // inside the commands, in those words, and nothing more; a throughput at saturation that
    // agrees with them (+11.1%) is not said either.
    void agreeingTimesGiveOneClause()
    {
        ResultsBundle bundle = withServerTimes(0.9, 0.9, 0.9);
        setMainThreadBusy(bundle, 0, 95);
        setMainThreadBusy(bundle, 1, 95);
        const Figures figures(bundle);
        QVERIFY(std::fabs(*figures.saturatedThroughput().at(0, kNewer).change - 11.1) < 0.1);
        const QString answer = figures.answer();
        QVERIFY2(answer.endsWith(QStringLiteral(" and spends 10.0% less time inside its commands.")), qPrintable(answer));
        QVERIFY2(!answer.contains(QStringLiteral("server time")), qPrintable(answer));
    }

    // Throughput at saturation: the commands per second of the passes whose server was busy 90%
    // or more of the pass. A repeat below that gives no figure; a server with none reads absent
    // and says why.
    void saturatedThroughputComesFromServerBoundPasses()
    {
        ResultsBundle bundle = withServerTimes(0.9, 1.15, 1.35);
        setMainThreadBusy(bundle, 0, 95);
        setMainThreadBusy(bundle, 1, 95);
        const FigureTable pace = Figures(bundle).saturatedThroughput();
        QCOMPARE(pace.measure, Measure::CommandsPerSecond);
        QCOMPARE(pace.categories.size(), size_t(1));
        const Figure &newer = pace.at(0, kNewer);
        QCOMPARE(newer.state, FigureState::Measured);
        QCOMPARE(newer.spread.n, 3);
        QVERIFY2(std::fabs(*newer.change - (100.0 / 1.15 - 100.0)) < 0.1, qPrintable(QString::number(*newer.change)));
        QCOMPARE(changeMeaning(pace.measure, newer), ChangeMeaning::Worse);

        setMainThreadBusy(bundle, 1, 50, {2});
        QCOMPARE(Figures(bundle).saturatedThroughput().at(0, kNewer).spread.n, 2);
        setMainThreadBusy(bundle, 0, 37);
        const Figure old = Figures(bundle).saturatedThroughput().at(0, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(old.state, FigureState::Absent);
        QCOMPARE(old.note, QStringLiteral("not server-bound: its main thread was busy at most 37% of a pass (90% or more is)"));

        const Figure none = Figures(fixtureBundle("real-ecommerce.json")).saturatedThroughput().at(0, kNewer);
        QCOMPARE(none.state, FigureState::Absent);
        QCOMPARE(none.note, QStringLiteral("no main-thread CPU to tell a server-bound pass: not recorded in this bundle"));
    }

    // The server's throughput at saturation in the answer, every repeat's pass server-bound:
    // beside the server's time in all; on its own when it moves the other way from the time
    // inside the commands (−3% there and in CPU, but the server busy 100% of 8.0.1's passes and
    // 90% of 9.1.2's: 7.2% fewer commands per second); and, when the time inside the commands
    // is not resolved, in the sentence of what the run resolved.
    void answerSaysTheThroughputAtSaturation_data()
    {
        QTest::addColumn<double>("inside");
        QTest::addColumn<double>("cpu");
        QTest::addColumn<double>("loop");
        QTest::addColumn<double>("olderBusy");
        QTest::addColumn<double>("newerBusy");
        QTest::addColumn<bool>("wobble");
        QTest::addColumn<QString>("ending");
        QTest::newRow("beside the server's time") << 0.9 << 1.15 << 1.35 << 95.0 << 95.0 << false
                                                  << QStringLiteral(" and spends 10.0% less time inside its commands, but 15.0% more main-thread "
                                                                    "CPU per command in all (35.0% more event-loop time per command) and "
                                                                    "processes 13.0% fewer commands per second at saturation.");
        QTest::newRow("the other way alone") << 0.97 << 0.97 << 0.97 << 100.0 << 90.0 << false
                                             << QStringLiteral(" and spends 3.0% less time inside its commands, but processes 7.2% fewer "
                                                               "commands per second at saturation.");
        QTest::newRow("inside unresolved") << 0.9 << 1.15 << 1.35 << 95.0 << 95.0 << true
                                           << QStringLiteral(". It spends 15.0% more main-thread CPU per command in all (35.0% more "
                                                             "event-loop time per command) and processes 13.0% fewer commands per "
                                                             "second at saturation.");
    }

    void answerSaysTheThroughputAtSaturation()
    {
        QFETCH(double, inside);
        QFETCH(double, cpu);
        QFETCH(double, loop);
        QFETCH(double, olderBusy);
        QFETCH(double, newerBusy);
        QFETCH(bool, wobble);
        QFETCH(QString, ending);
        ResultsBundle bundle = withServerTimes(inside, cpu, loop);
        if (wobble)
            wobbleNewerInsideTimes(bundle);
        setMainThreadBusy(bundle, 0, olderBusy);
        setMainThreadBusy(bundle, 1, newerBusy);
        const QString answer = Figures(bundle).answer();
        QVERIFY2(answer.endsWith(ending), qPrintable(answer));
    }

    // A throughput change the repeats do not resolve (paired ratios 0.87, 1.14, 0.83) is not
    // stated: the noise rule of every time figure.
    void unresolvedThroughputIsNotSaid()
    {
        ResultsBundle bundle = withServerTimes(0.9, 1.15, 1.35);
        setMainThreadBusy(bundle, 0, 95);
        setMainThreadBusy(bundle, 1, 95, {0});
        setMainThreadBusy(bundle, 1, 125, {1});
        setMainThreadBusy(bundle, 1, 91, {2});
        const Figures figures(bundle);
        QVERIFY(!figures.saturatedThroughput().at(0, kNewer).unresolved.isEmpty());
        const QString answer = figures.answer();
        QVERIFY2(answer.endsWith(QStringLiteral("(35.0% more event-loop time per command).")), qPrintable(answer));
        QVERIFY2(!answer.contains(QStringLiteral("commands per second")), qPrintable(answer));
    }

    // Less time inside the commands, more of the server's time in all: both, with the event loop.
    void disagreeingTimesGiveBothClauses()
    {
        const QString answer = Figures(withServerTimes(0.9, 1.15, 1.35)).answer();
        QVERIFY2(answer.endsWith(QStringLiteral(" and spends 10.0% less time inside its commands, but 15.0% more main-thread "
                                                "CPU per command in all (35.0% more event-loop time per command).")),
                 qPrintable(answer));
    }

    // The same way, but apart beyond noise (−25% inside, −5% in all, every repeat): both, "and".
    void timesApartBeyondNoiseGiveBothClauses()
    {
        const QString answer = Figures(withServerTimes(0.75, 0.95, 1.1)).answer();
        QVERIFY2(answer.endsWith(QStringLiteral(" and spends 25.0% less time inside its commands, and 5.0% less main-thread "
                                                "CPU per command in all (10.0% more event-loop time per command).")),
                 qPrintable(answer));
    }

    // The time inside the commands unresolved (ratios 0.90, 0.83, 0.95: t = 2.8 on 2 degrees of
    // freedom), the server's time in all resolved (1.15 in every repeat): the answer states no
    // change inside the commands, says why, and gives the server's time in all as a sentence.
    void unresolvedInsideKeepsAResolvedServerTime()
    {
        ResultsBundle bundle = withServerTimes(0.9, 1.15, 1.35);
        wobbleNewerInsideTimes(bundle);
        const Figures figures(bundle);
        const FigureTable times = figures.commandTime();
        const Figure &inside = times.at(0, kNewer);
        QVERIFY(!inside.unresolved.isEmpty());
        QVERIFY2(inside.unresolved.startsWith(QStringLiteral("not resolvable with 3 repeats: the smallest change this run could detect is ")),
                 qPrintable(inside.unresolved));
        const QString answer = figures.answer();
        const QString expected = QStringLiteral("; its time inside its commands (%1) is %2. It spends 15.0% more main-thread CPU per "
                                                "command in all (35.0% more event-loop time per command).")
                                     .arg(formatPercentChange(*inside.change), inside.unresolved);
        QVERIFY2(answer.endsWith(expected), qPrintable(answer + QLatin1Char('\n') + expected));
        QVERIFY2(!answer.contains(QStringLiteral("less time")), qPrintable(answer));
    }

    // A version without event loop counters (Redis 7.0) and a bundle from before Versus read the
    // server's clock: absent, with the reason, in the figures, the Markdown and the answer.
    void absentCountersSayWhy()
    {
        ResultsBundle bundle = withServerTimes(0.9, 1.15, 1.35);
        for (RepeatResult &repeat : bundle.servers[0].repeats)
            repeat.timing.serverTime->eventLoopUsec.reset();
        const Figures figures(bundle);
        const FigureTable loop = figures.serverTime(Measure::EventLoopPerCall);
        const Figure &old = loop.at(0, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(old.state, FigureState::Absent);
        QCOMPARE(old.note, QStringLiteral("not reported by this version"));
        QVERIFY2(figures.answer().endsWith(QStringLiteral(", but 15.0% more main-thread CPU per command in all (event-loop "
                                                          "time not reported by this version on Valkey 8.0.1).")),
                 qPrintable(figures.answer()));
        QVERIFY(bundleToMarkdown(figures).contains(QStringLiteral("| event loop, µs per command (INFO stats) | not reported by this version |")));

        const Figures before(fixtureBundle("real-ecommerce.json"));
        const FigureTable cpu = before.serverTime(Measure::MainThreadCpuPerCall);
        const Figure &none = cpu.at(0, kNewer);
        QCOMPARE(none.state, FigureState::Absent);
        QCOMPARE(none.note, QStringLiteral("not recorded in this bundle"));
        QVERIFY(!bundleToMarkdown(before).contains(QStringLiteral("### Server time per command in all")));
    }

    // The bundle keeps what was read and nothing else; a hostile counter is no figure.
    void bundleKeepsServerTime()
    {
        const ResultsBundle bundle = withServerTimes(0.9, 1.15, 1.35);
        const Outcome<ResultsBundle> read = bundleFromJson(bundleToJson(bundle), QStringLiteral("test"));
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        const ServerClock &clock = *read->servers[1].repeats[2].timing.serverTime;
        QCOMPARE(clock.mainThreadCpuUsec, bundle.servers[1].repeats[2].timing.serverTime->mainThreadCpuUsec);
        QCOMPARE(clock.eventLoopUsec, bundle.servers[1].repeats[2].timing.serverTime->eventLoopUsec);
        QVERIFY(!clock.eventLoopCycles);

        QByteArray json = bundleToJson(bundle);
        const QByteArray cpu = "\"main_thread_cpu_usec\":";
        const int at = json.indexOf(cpu);
        QVERIFY(at > 0);
        for (const QByteArray &hostile : {QByteArray("-5"), QByteArray("\"12\""), QByteArray("2.5"), QByteArray("1e300"),
                                          QByteArray("null"), QByteArray("18446744073709551615")}) {
            QByteArray changed = json;
            const int end = changed.indexOf(',', at);
            changed.replace(at + cpu.size(), end - at - cpu.size(), hostile);
            const Outcome<ResultsBundle> hostileRead = bundleFromJson(changed, QStringLiteral("hostile"));
            QVERIFY2(hostileRead, qPrintable(hostile));
            QVERIFY2(!hostileRead->servers[0].repeats[0].timing.serverTime->mainThreadCpuUsec, qPrintable(hostile));
            QCOMPARE(Figures(hostileRead.value()).serverTime(Measure::MainThreadCpuPerCall).at(0, QStringLiteral("valkey-8.0.1")).spread.n, 2);
        }
    }
};

QTEST_GUILESS_MAIN(TestFiguresServerTime)
#include "tst_figuresservertime.moc"
