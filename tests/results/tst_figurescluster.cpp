// The figures of cluster series: the cost of cluster mode against the same version run
// standalone (repeat by repeat, median of the differences), which standalone series a cluster
// is paired with, how a cluster's keys and bytes spread over its primaries, and the Markdown
// sections that show both; on bundles built here so each rule is seen on its own.

#include "bundlemarkdown.h"
#include "figures.h"
#include "fixturebundle.h"
#include "figuressweep.h"
#include "presentation.h"
#include "sweepmarkdown.h"

#include "bundlebuilders.h"

#include <QtTest>

#include <algorithm>

namespace {

using namespace BundleBuilders;

ServerRun server(const QString &version, int primaries)
{
    ServerRun run;
    run.product = QStringLiteral("valkey");
    run.version = version;
    run.buildId = QStringLiteral("build-") + version;
    run.topology.primaries = primaries;
    run.id = QStringLiteral("valkey-") + version + run.topology.idSuffix();
    return run;
}

// set-ex and hsetex, each measured alone, `keys` keys each; a cluster's keys split over its
// primaries as 40%, 35% and 25% (one primary: all of them), each primary's bytes per key
// `bytes` scaled by 0.9, 1.0 and 1.2.
TypeMemory patternMemory(long long keys, double bytes, int primaries)
{
    TypeMemory type = typeMemory(keys, bytes);
    const double shares[] = {0.40, 0.35, 0.25};
    const double scales[] = {0.9, 1.0, 1.2};
    for (int node = 0; node < primaries; ++node) {
        NodeMemory memory;
        memory.slotRanges = primaries == 1 ? QStringLiteral("0-16383") : QStringLiteral("slots-%1").arg(node);
        memory.keys = primaries == 1 ? keys : (long long)(double(keys) * shares[node]);
        memory.usedMemoryDelta = (long long)(double(memory.keys) * bytes * (primaries == 1 ? 1.0 : scales[node]));
        type.nodes.push_back(memory);
    }
    return type;
}

void addRepeats(ServerRun &run, const std::vector<std::pair<double, double>> &setExAndHsetex)
{
    for (size_t r = 0; r < setExAndHsetex.size(); ++r) {
        RepeatResult repeat;
        repeat.repeat = int(r);
        repeat.byType[QStringLiteral("set-ex")] = patternMemory(1000, setExAndHsetex[r].first, run.topology.primaries);
        repeat.byType[QStringLiteral("hsetex")] = patternMemory(1000, setExAndHsetex[r].second, run.topology.primaries);
        run.repeats.push_back(repeat);
    }
}

ResultsBundle bundleOf(std::vector<ServerRun> servers)
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("hash-ttl");
    bundle.workload.categoryNoun = QStringLiteral("pattern");
    bundle.workload.events = 1000;
    bundle.workload.commands = 4000;
    bundle.workload.types = {QStringLiteral("set-ex"), QStringLiteral("hsetex")};
    bundle.workload.typesTimedAlone = true;
    bundle.repeats = 3;
    bundle.servers = std::move(servers);
    return bundle;
}

// 9.1.2 standalone, as a cluster of 1 and of 3 primaries; 8.0.1 only as a cluster of 3.
ResultsBundle bothTopologies()
{
    ServerRun standalone = server(QStringLiteral("9.1.2"), 0);
    addRepeats(standalone, {{80, 200}, {82, 204}, {78, 196}});
    ServerRun one = server(QStringLiteral("9.1.2"), 1);
    addRepeats(one, {{120, 230}, {122, 234}, {118, 226}});
    ServerRun three = server(QStringLiteral("9.1.2"), 3);
    addRepeats(three, {{180, 350}, {190, 340}, {170, 360}});
    ServerRun alone = server(QStringLiteral("8.0.1"), 3);
    addRepeats(alone, {{250, 400}, {250, 400}, {250, 400}});
    return bundleOf({standalone, one, three, alone});
}

// bothTopologies() swept over keys: at keys=1000 as built, at keys=2000 every cluster's set-ex
// 50 bytes per key above standalone, repeat by repeat.
ResultsBundle overKeys()
{
    ResultsBundle bundle = bothTopologies();
    bundle.sweep.parameter = QStringLiteral("keys");
    for (const char *value : {"1000", "2000"}) {
        SweepPoint point;
        point.value = QString::fromLatin1(value);
        point.workload = bundle.workload;
        point.servers = bundle.servers;
        bundle.sweep.points.push_back(point);
    }
    std::vector<ServerRun> &more = bundle.sweep.points.back().servers;
    for (ServerRun &run : more) {
        if (!run.topology.isCluster())
            continue;
        for (size_t r = 0; r < run.repeats.size(); ++r)
            run.repeats[r].byType[QStringLiteral("set-ex")] =
                patternMemory(1000, more.front().repeats[r].byType.at(QStringLiteral("set-ex")).bytesPerKey() + 50, run.topology.primaries);
    }
    bundle.sweep.shown = 0;
    return bundle;
}

} // namespace

class TestFiguresCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each cluster series is paired with its own version's standalone series; one without
    // such a series (8.0.1) has no overhead figure at all.
    void pairsEachClusterWithItsStandaloneVersion()
    {
        const Figures figures(bothTopologies());
        // In display order: the older version first.
        QCOMPARE(figures.clusterServerIds(), (QStringList{QStringLiteral("valkey-8.0.1-cluster-3"), QStringLiteral("valkey-9.1.2-cluster-1"),
                                                          QStringLiteral("valkey-9.1.2-cluster-3")}));
        QCOMPARE(figures.standalonePartnerOf(QStringLiteral("valkey-9.1.2-cluster-3")), QStringLiteral("valkey-9.1.2"));
        QCOMPARE(figures.standalonePartnerOf(QStringLiteral("valkey-8.0.1-cluster-3")), QString());
        QCOMPARE(figures.standalonePartnerOf(QStringLiteral("valkey-9.1.2")), QString());
        QCOMPARE(figures.clusterOverhead().servers,
                 (QStringList{QStringLiteral("valkey-9.1.2-cluster-1"), QStringLiteral("valkey-9.1.2-cluster-3")}));
    }

    // A cluster series' change is a version's change in the same topology: against the
    // baseline's version run as a cluster, never against the standalone baseline.
    void clusterSeriesChangeIsWithinItsTopology()
    {
        const Figures figures(fixtureBundle("real-cluster-hash-ttl.json"));
        QCOMPARE(figures.baselineId(), QStringLiteral("valkey-8.0.1"));
        const FigureTable memory = figures.memory();
        const int setEx = memory.categoryIndex(QStringLiteral("set-ex"));
        const Figure &baseCluster = memory.at(setEx, QStringLiteral("valkey-8.0.1-cluster-1"));
        const Figure &newCluster = memory.at(setEx, QStringLiteral("valkey-9.1.2-cluster-1"));
        QVERIFY(!baseCluster.change);   // the cluster reference itself
        QVERIFY(newCluster.change);
        QCOMPARE(*newCluster.change, (newCluster.value - baseCluster.value) / baseCluster.value * 100.0);
        QVERIFY2(memory.note.contains(QStringLiteral("A series run as a cluster is compared with %1, the baseline's version run so.")
                                          .arg(figures.summary(QStringLiteral("valkey-8.0.1-cluster-1")).name)),
                 qPrintable(memory.note));
        // Standalone series keep the standalone baseline.
        const Figure &base = memory.at(setEx, QStringLiteral("valkey-8.0.1"));
        const Figure &newer = memory.at(setEx, QStringLiteral("valkey-9.1.2"));
        QCOMPARE(*newer.change, (newer.value - base.value) / base.value * 100.0);
    }

    // Repeat r of the cluster less repeat r of the standalone series, and the median of those:
    // set-ex 100, 108, 92 → 100; hsetex 150, 136, 164 → 150. No total over the patterns: each
    // stores the same keys its own way.
    void overheadIsTheMedianOfPerRepeatDifferences()
    {
        const FigureTable overhead = Figures(bothTopologies()).clusterOverhead();
        QCOMPARE(overhead.measure, Measure::BytesPerKey);
        QCOMPARE(overhead.note, QStringLiteral("No total: each pattern stores the same keys its own way and is measured on its own. "
                                               "Measured at 1,000 keys per pattern. The cost of cluster mode moves with the number of keys."));
        const QString three = QStringLiteral("valkey-9.1.2-cluster-3");
        const Figure &setEx = overhead.at(overhead.categoryIndex(QStringLiteral("set-ex")), three);
        QCOMPARE(setEx.state, FigureState::Measured);
        QCOMPARE(setEx.value, 100.0);
        QCOMPARE(setEx.byRepeat, (std::map<int, double>{{0, 100.0}, {1, 108.0}, {2, 92.0}}));
        QCOMPARE(setEx.spread.n, 3);
        QCOMPARE(overhead.at(overhead.categoryIndex(QStringLiteral("hsetex")), three).value, 150.0);
        QCOMPARE(overhead.categoryIndex(QStringLiteral("all")), -1);
        QCOMPARE(overhead.at(overhead.categoryIndex(QStringLiteral("set-ex")), QStringLiteral("valkey-9.1.2-cluster-1")).value, 40.0);
    }

    // The standalone series of another build, of another product or given as an endpoint is
    // not the same version: no pair, no table.
    void onlyTheSameBuildLaunchedStandalonePairs()
    {
        for (const char *change : {"build", "product", "endpoint"}) {
            ResultsBundle bundle = bothTopologies();
            ServerRun &standalone = bundle.servers.front();
            if (QByteArray(change) == "build")
                standalone.buildId = QStringLiteral("another-build");
            else if (QByteArray(change) == "product")
                standalone.product = QStringLiteral("redis");
            else
                standalone.endpoint = true;
            const Figures figures(bundle);
            QVERIFY2(figures.clusterOverhead().servers.isEmpty(), change);
            QCOMPARE(clusterOverheadMarkdown(figures, [](const QString &id) { return id; }), QString());
        }
    }

    // A pattern the standalone series refused leaves the cluster's difference absent, with the
    // refusal's state, not a difference against nothing.
    void aRefusedPatternHasNoDifference()
    {
        ResultsBundle bundle = bothTopologies();
        for (RepeatResult &repeat : bundle.servers.front().repeats)
            repeat.byType[QStringLiteral("hsetex")] = refused(QStringLiteral("HSETEX"));
        const FigureTable overhead = Figures(bundle).clusterOverhead();
        const Figure &hsetex = overhead.at(overhead.categoryIndex(QStringLiteral("hsetex")), QStringLiteral("valkey-9.1.2-cluster-3"));
        QVERIFY(!hsetex.hasValue());
        QCOMPARE(overhead.at(overhead.categoryIndex(QStringLiteral("set-ex")), QStringLiteral("valkey-9.1.2-cluster-3")).value, 100.0);
    }

    // Over every repeat: the fewest and most keys one primary held (250 and 400 of 1,000) and
    // the lowest and highest bytes per key of a primary's own used_memory change.
    void nodeSpreadCoversEveryPrimaryOfEveryRepeat()
    {
        const Figures figures(bothTopologies());
        const std::optional<NodeSpread> spread = figures.nodeSpread(QStringLiteral("valkey-9.1.2-cluster-3"), QStringLiteral("set-ex"));
        QVERIFY(spread);
        QCOMPARE(spread->nodes, 3);
        QCOMPARE(spread->fewestKeys, 250LL);
        QCOMPARE(spread->mostKeys, 400LL);
        QCOMPARE(spread->lowestBytesPerKey, 170 * 0.9);
        QCOMPARE(spread->highestBytesPerKey, 190 * 1.2);
        QVERIFY(!figures.nodeSpread(QStringLiteral("valkey-9.1.2"), QStringLiteral("set-ex")));
    }

    // The Markdown names each pair and signs each difference; the nodes table has one row per
    // cluster series and category.
    void markdownShowsOverheadAndNodes()
    {
        const Figures figures(bothTopologies());
        const QString overhead = clusterOverheadMarkdown(figures, [&figures](const QString &id) { return figures.summary(id).name; });
        QVERIFY2(overhead.contains(QStringLiteral("### Cost of cluster mode (bytes per key, cluster less standalone)")), qPrintable(overhead));
        QVERIFY2(overhead.contains(QStringLiteral("Valkey 9.1.2 · cluster ×3 against Valkey 9.1.2")), qPrintable(overhead));
        QVERIFY2(!overhead.contains(QStringLiteral("| All patterns |")), qPrintable(overhead));
        QVERIFY2(overhead.contains(QStringLiteral("| set-ex | +40.0 | +100.0 |")), qPrintable(overhead));
        QVERIFY2(overhead.contains(QStringLiteral("| hsetex | +30.0 | +150.0 |")), qPrintable(overhead));

        const QString nodes = clusterNodesMarkdown(figures);
        QVERIFY2(nodes.contains(QStringLiteral("| Valkey 9.1.2 · cluster ×3 | set-ex | 3 | 250 – 400 | 153.0 – 228.0 |")), qPrintable(nodes));
        QVERIFY2(nodes.contains(QStringLiteral("| Valkey 9.1.2 · cluster ×1 | set-ex | 1 | 1,000 – 1,000 | 118.0 – 122.0 |")), qPrintable(nodes));
        QCOMPARE(clusterNodesMarkdown(Figures(bundleOf({bothTopologies().servers.front()}))), QString());
    }

    // Over a sweep: each point's own cost, a line per paired cluster series and pattern.
    void sweepShowsTheCostAtEveryPoint()
    {
        const ResultsBundle bundle = overKeys();
        const SweepTable table = clusterOverheadSweep(bundle);
        QVERIFY(table.clusterOverhead);
        QCOMPARE(table.values, (QStringList{QStringLiteral("1000"), QStringLiteral("2000")}));
        QCOMPARE(int(table.lines.size()), 4);   // cluster ×1 and ×3 of 9.1.2, set-ex and hsetex; 8.0.1 has no pair
        const auto line = std::find_if(table.lines.begin(), table.lines.end(), [](const SweepLine &each) {
            return each.serverId == QLatin1String("valkey-9.1.2-cluster-3") && each.categoryId == QLatin1String("set-ex");
        });
        QVERIFY(line != table.lines.end());
        QCOMPARE(line->points[0].value, 100.0);
        QCOMPARE(line->points[1].value, 50.0);
        QVERIFY(clusterOverheadSweep(bundleOf({})).empty());

        const QString markdown = sweepToMarkdown(bundle);
        QVERIFY2(markdown.contains(QStringLiteral("### Sweep: cost of cluster mode against keys")), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("| set-ex · Valkey 9.1.2 · cluster ×3 | +100.0 | +50.0 |")), qPrintable(markdown));
    }
};

QTEST_GUILESS_MAIN(TestFiguresCluster)
#include "tst_figurescluster.moc"
