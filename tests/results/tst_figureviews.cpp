// The table of views: every consumer reads its rows, so what a row says is what the charts,
// the tabs, --chart, the run's file check and report.md say.

#include "fixturebundle.h"
#include "servertimebundle.h"
#include "figureviews.h"
#include "reportmarkdown.h"

#include <QRegularExpression>
#include <QtTest>
#include <algorithm>
#include <set>

class TestFigureViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyKindHasOneRowAndOneStem()
    {
        std::set<QString> stems;
        std::set<int> kinds;
        for (const FigureView &view : figureViews()) {
            QVERIFY2(stems.insert(view.stem).second, qPrintable(view.stem));
            QVERIFY(kinds.insert(int(view.kind)).second);
            QCOMPARE(&figureView(view.kind), &view);
            QCOMPARE(chartKindNamed(view.stem), std::optional<ChartKind>(view.kind));
            QVERIFY(view.table != nullptr);
            QVERIFY(view.valueTitle != nullptr);
            QVERIFY(!view.title.isEmpty() && !view.tabTitle.isEmpty() && !view.measured.isEmpty());
            // A view that is not in every bundle says when it is there and how to get it.
            QCOMPARE(view.presence == ViewPresence::EveryBundle, view.whenAbsent.isEmpty());
            QCOMPARE(view.whenAbsent.isEmpty(), view.presenceText.isEmpty());
        }
        QCOMPARE(chartStems(), QStringList({QStringLiteral("memory-per-attribute"), QStringLiteral("usec-per-command"),
                                            QStringLiteral("usec-per-event"), QStringLiteral("throughput"),
                                            QStringLiteral("cluster-overhead"), QStringLiteral("server-tails"),
                                            QStringLiteral("why-memory"), QStringLiteral("why-time"), QStringLiteral("profile")}));
        QCOMPARE(chartKindNamed(QStringLiteral(" Usec-Per-Event ")), std::optional<ChartKind>(ChartKind::UsecPerEvent));
        QCOMPARE(chartKindNamed(QStringLiteral("usec_per_event")), std::optional<ChartKind>());
    }

    // Every view is drawn as bars but the memory Why, drawn as each server's parts, which the
    // window shows as its Why tab just before Why (time), and which has no report section of
    // its own (report.md shows it inside the memory section).
    void eachRowSaysHowItIsDrawn()
    {
        QStringList parts;
        for (const FigureView &view : figureViews()) {
            QCOMPARE(view.drawnAsBars(), view.drawing == ViewDrawing::Bars);
            if (!view.drawnAsBars())
                parts << view.stem;
        }
        QCOMPARE(parts, QStringList{QStringLiteral("why-memory")});
        const FigureView &why = figureView(ChartKind::WhyMemory);
        QCOMPARE(why.drawing, ViewDrawing::MemoryParts);
        QCOMPARE(why.title, QStringLiteral("Where each key's bytes go"));
        QCOMPARE(why.tabTitle, QStringLiteral("Why"));
        QCOMPARE(why.presence, ViewPresence::MemoryAccounted);
        QCOMPARE(why.presenceText, QStringLiteral("a server that reported its memory accounting"));
        QVERIFY(!why.inReport());
        QCOMPARE(why.valueTitle(Figures(fixtureBundle("real-why-ecommerce.json"))), QStringLiteral("bytes per key"));
    }

    void presenceDecidesWhichViewsABundleAndARunHave()
    {
        const std::vector<ChartKind> everyBundle{ChartKind::MemoryPerAttribute, ChartKind::UsecPerCommand,
                                                 ChartKind::UsecPerEvent, ChartKind::Throughput};
        QCOMPARE(everyBundleChartKinds(), everyBundle);
        // A run reads its servers' event loop and may read server-side tails: its file check
        // counts their charts; a bundle has them only where a server reported them.
        // Every pass reads the server's memory accounting: a run plans the memory Why too.
        std::vector<ChartKind> standalone = everyBundle;
        standalone.push_back(ChartKind::ServerTails);
        standalone.push_back(ChartKind::WhyMemory);
        standalone.push_back(ChartKind::WhyTime);
        QCOMPARE(plannedChartKinds(false), standalone);
        std::vector<ChartKind> all = everyBundle;
        all.push_back(ChartKind::ClusterOverhead);
        all.push_back(ChartKind::ServerTails);
        all.push_back(ChartKind::WhyMemory);
        all.push_back(ChartKind::WhyTime);
        QCOMPARE(plannedChartKinds(true), all);
        // --profile plans the profile view; a bundle has it where a server was profiled.
        all.push_back(ChartKind::Profile);
        QCOMPARE(plannedChartKinds(true, true), all);
        QCOMPARE(everyChartKind(), all);
        ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        QCOMPARE(chartKindsOf(Figures(bundle)), everyBundle);
        bundle.servers.front().repeats.front().timing.tails.byCommand[QStringLiteral("set")] = LatencyBuckets{{{1, 3}}};
        std::vector<ChartKind> withTails = everyBundle;
        withTails.push_back(ChartKind::ServerTails);
        QCOMPARE(chartKindsOf(Figures(bundle)), withTails);
        // A bundle whose servers reported their event loop has the Why (time) view.
        std::vector<ChartKind> withLoop = everyBundle;
        withLoop.push_back(ChartKind::WhyTime);
        QCOMPARE(chartKindsOf(Figures(withServerTimes(0.9, 1.15, 1.35))), withLoop);
        for (const ChartKind kind : everyChartKind()) {
            const bool listed = std::find(withTails.begin(), withTails.end(), kind) != withTails.end();
            QCOMPARE(hasFiguresFor(Figures(bundle), kind), listed);
        }
        // A bundle whose servers reported their memory accounting has the memory Why.
        const std::vector<ChartKind> accounted = chartKindsOf(Figures(fixtureBundle("real-why-ecommerce.json")));
        QVERIFY(std::find(accounted.begin(), accounted.end(), ChartKind::WhyMemory) != accounted.end());
        QVERIFY(hasFiguresFor(Figures(fixtureBundle("real-why-ecommerce.json")), ChartKind::WhyMemory));
    }

    void subtitleSaysWhatABarMeasuresAndWhichWayIsBetter()
    {
        QCOMPARE(figureView(ChartKind::MemoryPerAttribute).subtitle(1),
                 QStringLiteral("Bytes of used_memory per stored key, one run. Lower is better."));
        QCOMPARE(figureView(ChartKind::Throughput).subtitle(3),
                 QStringLiteral("Measured by the client, median of 3 repeats, bars show min–max. Higher is better."));
        // The profile's shares rank nothing and come from one pass per server, whatever the repeats.
        QCOMPARE(figureView(ChartKind::Profile).subtitle(3),
                 QStringLiteral("Share of perf's cpu-clock samples of the server, by the function each landed in, one "
                                "untimed pass per server after the timed ones."));
    }

    // report.md has one section per view with a report unit, in the table's order, headed by
    // the row's section title and unit, and none for the cost of cluster mode.
    void reportHasTheRowsSections()
    {
        // Servers that reported their event loop: the Why (time) section is there too.
        const Figures figures(withServerTimes(0.9, 1.15, 1.35));
        QVERIFY(!reportMarkdown(Figures(fixtureBundle("ecommerce-4-versions.json")), {}, CategoryOrder::Workload)
                     .contains(QStringLiteral("\n## Why (time)")));
        const QString report = reportMarkdown(figures, {}, CategoryOrder::Workload);
        static const QRegularExpression heading(QStringLiteral("^## (.+)$"), QRegularExpression::MultilineOption);
        QStringList headings;
        for (auto match = heading.globalMatch(report); match.hasNext();)
            headings << match.next().captured(1);
        QStringList expected;
        for (const FigureView &view : figureViews()) {
            if (view.inReport())
                expected << QStringLiteral("%1 (%2)").arg(view.sectionTitle(), view.reportUnit(figures));
        }
        QCOMPARE(expected, QStringList({QStringLiteral("Memory per stored attribute (bytes per key)"),
                                        QStringLiteral("Time inside the commands (commandstats), per command (µs per call)"),
                                        QStringLiteral("Time inside the commands (commandstats), per event (µs per event)"),
                                        QStringLiteral("Throughput, measured by the client (events per second)"),
                                        QStringLiteral("Why (time): where the server's time per command goes (µs per command)"),
                                        QStringLiteral("Profile: where the server's CPU goes (perf, untimed pass) (% of samples)")}));
        // A bundle without a profile has no profile section.
        expected.removeLast();
        QStringList sections;
        for (const QString &line : headings) {
            if (expected.contains(line))
                sections << line;
        }
        QCOMPARE(sections, expected);
    }
};

QTEST_GUILESS_MAIN(TestFigureViews)
#include "tst_figureviews.moc"
