// The cost-of-cluster-mode charts, on real runs: hash-ttl (20,000 keys) on Valkey 8.0.1, 8.1.1
// and 9.1.2, each standalone and as a cluster of one primary, and hash-ttl swept over keys on
// Valkey 8.0.1, 9.1.2 and Redis 7.0.15 standalone and as clusters of three. A chart exists only
// for a bundle with a version in both topologies, its bars are the stored bytes per key of the
// cluster less the standalone ones, and Export all and the report carry it at the preset's
// exact size.

#include "bundlefigures.h"
#include "fixturebundle.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "figures.h"
#include "figuressweep.h"
#include "sweepbundle.h"
#include "sweepchartdata.h"
#include "sweepexport.h"

#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

namespace {

bool hasOverhead(const std::vector<ChartKind> &kinds)
{
    return std::find(kinds.begin(), kinds.end(), ChartKind::ClusterOverhead) != kinds.end();
}

// The set-ex bytes per key the run measured, read straight from the bundle's one repeat.
double setExBytes(const ResultsBundle &bundle, const QString &id)
{
    return bundle.server(id)->repeats.front().byType.at(QStringLiteral("set-ex")).bytesPerKey();
}

} // namespace

class TestClusterOverheadChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onlyABundleWithBothTopologiesHasTheChart()
    {
        QVERIFY(hasOverhead(chartKindsOf(fixtureBundle("real-cluster-hash-ttl.json"))));
        QVERIFY(!hasOverhead(chartKindsOf(fixtureBundle("real-hash-ttl.json"))));
        ResultsBundle clustersOnly = fixtureBundle("real-cluster-hash-ttl.json");
        clustersOnly.servers.erase(std::remove_if(clustersOnly.servers.begin(), clustersOnly.servers.end(),
                                                  [](const ServerRun &run) { return !run.topology.isCluster(); }),
                                   clustersOnly.servers.end());
        QVERIFY(!hasOverhead(chartKindsOf(clustersOnly)));
    }

    // One series per cluster, each bar its cluster's bytes per key less its standalone ones.
    void barsAreClusterLessStandalone()
    {
        const ResultsBundle bundle = fixtureBundle("real-cluster-hash-ttl.json");
        const ChartData data = buildChartData(bundle, ChartKind::ClusterOverhead);
        QCOMPARE(data.valueTitle, QStringLiteral("bytes per key beyond standalone (used_memory)"));
        QCOMPARE(data.categories, (QStringList{QStringLiteral("hsetex"), QStringLiteral("set-ex"), QStringLiteral("hset-hexpire")}));
        QCOMPARE(int(data.series.size()), 3);
        const int setEx = int(data.categories.indexOf(QStringLiteral("set-ex")));
        for (const ChartSeries &series : data.series) {
            const QString cluster = series.serverId;
            const QString standalone = QString(cluster).remove(QStringLiteral("-cluster-1"));
            QVERIFY2(cluster.endsWith(QLatin1String("-cluster-1")), qPrintable(cluster));
            QCOMPARE(series.bars[size_t(setEx)].value, setExBytes(bundle, cluster) - setExBytes(bundle, standalone));
            QVERIFY2(series.bars[size_t(setEx)].value > 50, qPrintable(cluster));   // slot bookkeeping at 20,000 keys
        }
        QVERIFY(!chartHeadline(bundle, ChartKind::ClusterOverhead));
    }

    // Export all writes it at the preset's size and report.md shows it under its table.
    void exportAllWritesItAndTheReportShowsIt()
    {
        QTemporaryDir dir;
        ExportOptions options;
        const std::optional<SizePreset> slide = findSizePreset(QStringLiteral("slide"));
        options.size = slide->size;
        options.report = true;
        const Outcome<QStringList> written = exportAll(fixtureBundle("real-cluster-hash-ttl.json"), dir.path(), options);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        const QString image = dir.filePath(QStringLiteral("cluster-overhead.png"));
        QVERIFY(written->contains(image));
        QCOMPARE(QImageReader(image).size(), QSize(1920, 1080));

        QFile report(dir.filePath(QStringLiteral("report.md")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(report.readAll());
        const int heading = int(text.indexOf(QStringLiteral("### Cost of cluster mode (bytes per key, cluster less standalone)")));
        QVERIFY2(heading > 0, qPrintable(text));
        QCOMPARE(text.indexOf(QStringLiteral("![Cost of cluster mode](cluster-overhead.png)")), text.indexOf(QLatin1Char('!'), heading));
        QVERIFY(text.contains(QStringLiteral("Valkey 9.1.2 · cluster ×1 against Valkey 9.1.2")));

        QTemporaryDir standaloneDir;
        const Outcome<QStringList> plain = exportAll(fixtureBundle("real-hash-ttl.json"), standaloneDir.path(), options);
        QVERIFY2(plain.ok(), qPrintable(plain.error()));
        QVERIFY(!QFile::exists(standaloneDir.filePath(QStringLiteral("cluster-overhead.png"))));
    }

    // Over keys: a line per cluster series and pattern, each point that point's own cost; the
    // cost of Valkey's per-slot tables falls with the keys, Redis 7.0's stays small.
    void sweepOverKeysDrawsTheCostAtEachPoint()
    {
        const ResultsBundle bundle = fixtureBundle("real-cluster-keys-sweep.json");
        const std::vector<SweepChartKind> kinds = sweepChartKinds(bundle);
        QVERIFY(std::find(kinds.begin(), kinds.end(), SweepChartKind::ClusterOverhead) != kinds.end());
        QVERIFY(sweepChartKinds(fixtureBundle("real-hash-ttl-sweep.json")).size() == 4);
        const SweepChartData data = buildSweepChartData(Figures(bundle), SweepChartKind::ClusterOverhead);
        QCOMPARE(data.xLabels, (QStringList{QStringLiteral("1000"), QStringLiteral("10000"), QStringLiteral("100000")}));
        QCOMPARE(data.yTitle, QStringLiteral("bytes per key beyond standalone"));
        QCOMPARE(int(data.lines.size()), 5);   // set-ex on three versions, hsetex and hset-hexpire on 9.1.2
        for (const SweepChartLine &line : data.lines) {
            for (int point = 0; point < 3; ++point) {
                const FigureTable cost = Figures(sweepPointBundle(bundle, point)).clusterOverhead();
                const QString category = line.label.section(QStringLiteral(" · "), 0, 0);
                QCOMPARE(*line.values[size_t(point)], cost.at(cost.categoryIndex(category), line.serverId).value);
            }
        }
        const auto setEx = [&data](const QString &server) {
            return std::find_if(data.lines.begin(), data.lines.end(), [&server](const SweepChartLine &line) {
                return line.serverId == server && line.label.startsWith(QLatin1String("set-ex"));
            })->values;
        };
        const auto valkey = setEx(QStringLiteral("valkey-9.1.2-cluster-3"));
        QVERIFY(*valkey[0] > *valkey[1] && *valkey[1] > *valkey[2]);
        for (const std::optional<double> &redis : setEx(QStringLiteral("redis-7.0.15-cluster-3")))
            QVERIFY(*redis > 0 && *redis < 40);

        const Outcome<QImage> image = renderSweepChart(Figures(bundle), SweepChartKind::ClusterOverhead, ExportOptions());
        QVERIFY2(image.ok(), qPrintable(image.error()));
        QCOMPARE(image->size(), QSize(1200, 675));
    }
};

QTEST_MAIN(TestClusterOverheadChart)
#include "tst_clusteroverheadchart.moc"
