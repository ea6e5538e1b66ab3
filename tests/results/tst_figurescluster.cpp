// The figures of cluster series: the cost of cluster mode against the same version run
// standalone (repeat by repeat, median of the differences), which standalone series a cluster
// is paired with, how a cluster's keys and bytes spread over its primaries, and the Markdown
// sections that show both; on bundles built here so each rule is seen on its own.

#include "bundlemarkdown.h"
#include "figures.h"
#include "presentation.h"

#include "bundlebuilders.h"

#include <QtTest>

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

    // Repeat r of the cluster less repeat r of the standalone series, and the median of those:
    // set-ex 100, 108, 92 → 100; hsetex 150, 136, 164 → 150; both patterns 125, 122, 128 → 125.
    void overheadIsTheMedianOfPerRepeatDifferences()
    {
        const FigureTable overhead = Figures(bothTopologies()).clusterOverhead();
        QCOMPARE(overhead.measure, Measure::BytesPerKey);
        QCOMPARE(overhead.note, QStringLiteral("Measured at 1,000 keys per pattern. The cost of cluster mode moves with the number of keys."));
        const QString three = QStringLiteral("valkey-9.1.2-cluster-3");
        const Figure &setEx = overhead.at(overhead.categoryIndex(QStringLiteral("set-ex")), three);
        QCOMPARE(setEx.state, FigureState::Measured);
        QCOMPARE(setEx.value, 100.0);
        QCOMPARE(setEx.byRepeat, (std::map<int, double>{{0, 100.0}, {1, 108.0}, {2, 92.0}}));
        QCOMPARE(setEx.spread.n, 3);
        QCOMPARE(overhead.at(overhead.categoryIndex(QStringLiteral("hsetex")), three).value, 150.0);
        QCOMPARE(overhead.at(overhead.categoryIndex(QStringLiteral("all")), three).value, 125.0);
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
        QVERIFY2(overhead.contains(QStringLiteral("| All patterns | +35.0 | +125.0 |")), qPrintable(overhead));
        QVERIFY2(overhead.contains(QStringLiteral("| set-ex | +40.0 | +100.0 |")), qPrintable(overhead));
        QVERIFY2(overhead.contains(QStringLiteral("| hsetex | +30.0 | +150.0 |")), qPrintable(overhead));

        const QString nodes = clusterNodesMarkdown(figures);
        QVERIFY2(nodes.contains(QStringLiteral("| Valkey 9.1.2 · cluster ×3 | set-ex | 3 | 250 – 400 | 153.0 – 228.0 |")), qPrintable(nodes));
        QVERIFY2(nodes.contains(QStringLiteral("| Valkey 9.1.2 · cluster ×1 | set-ex | 1 | 1,000 – 1,000 | 118.0 – 122.0 |")), qPrintable(nodes));
        QCOMPARE(clusterNodesMarkdown(Figures(bundleOf({bothTopologies().servers.front()}))), QString());
    }
};

QTEST_GUILESS_MAIN(TestFiguresCluster)
#include "tst_figurescluster.moc"
