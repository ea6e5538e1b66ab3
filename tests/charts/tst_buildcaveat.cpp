// No silent mixing of builds: when the compared servers' allocators differ (a Debian package's
// 16-byte jemalloc quantum against an upstream build's 8 bytes, jemalloc against libc, or a
// quantum unknown beside a known one), the figures say part of the difference is the build,
// and every view prints that sentence beside its headline: the chart subtitle, the Markdown
// `versus run` prints and report.md. Bundles are built here.

#include "bundlefigures.h"
#include "bundlemarkdown.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "exportoptions.h"
#include "figures.h"
#include "presentation.h"
#include "provenance.h"
#include "reportmarkdown.h"

#include "bundlebuilders.h"

#include <QImage>
#include <QtTest>

using namespace BundleBuilders;

namespace {

struct Build {
    QString version;
    BuildKind kind;
    QString allocator;
    int quantum;
    QString problem;
};

// One hash-ttl-like pattern on each server; the later version stores less.
ResultsBundle bundleOf(const std::vector<Build> &builds)
{
    ResultsBundle bundle;
    bundle.workload.name = QStringLiteral("hash-ttl");
    bundle.workload.categoryNoun = QStringLiteral("pattern");
    bundle.workload.events = 100;
    bundle.workload.commands = 100;
    bundle.workload.types = {QStringLiteral("set-ex")};
    bundle.workload.typesTimedAlone = true;
    double bytes = 90;
    for (const Build &build : builds) {
        ServerRun run;
        run.product = QStringLiteral("valkey");
        run.version = build.version;
        run.id = QStringLiteral("valkey-%1%2").arg(build.version, build.kind == BuildKind::UpstreamBuild ? QStringLiteral("-upstream") : QString());
        RepeatResult repeat;
        TypeMemory setEx = typeMemory(100, bytes);
        PassTiming timing;
        timing.byCommand = {{QStringLiteral("set"), stat(100, 100)}};
        timing.events = 100;
        timing.commands = 100;
        timing.seconds = 0.001;
        setEx.timing = timing;
        repeat.byType[QStringLiteral("set-ex")] = setEx;
        run.repeats.push_back(repeat);
        bundle.servers.push_back(withBuild(run, build.kind, build.allocator, build.quantum, build.problem));
        bytes -= 8;
    }
    return bundle;
}

const QString kJemalloc = QStringLiteral("jemalloc-5.3.0");

} // namespace

class TestBuildCaveat : public QObject {
    Q_OBJECT

private slots:
    void caveat_data()
    {
        QTest::addColumn<std::vector<Build>>("builds");
        QTest::addColumn<QString>("caveat");
        const QString isBuild = QStringLiteral(": part of their difference in memory is the build, not the version.");
        QTest::newRow("mixed quanta")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QStringLiteral("Valkey 8.0.1 allocates with a 16-byte quantum and Valkey 9.1.2 (upstream build) with an 8-byte one") + isBuild;
        QTest::newRow("equal quanta")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::DebianPackage, kJemalloc, 16, {}}}
            << QString();
        QTest::newRow("two upstream builds alike")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::UpstreamBuild, kJemalloc, 8, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QString();
        QTest::newRow("unknown beside known")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::Endpoint, kJemalloc, 0,
                                   QStringLiteral("MEMORY MALLOC-STATS refused: ERR unknown command")}}
            << QStringLiteral("Valkey 8.0.1 allocates with a 16-byte quantum; Valkey 9.1.2's quantum is unknown "
                              "(MEMORY MALLOC-STATS refused): part of their difference in memory may be the build, not the version.");
        QTest::newRow("jemalloc and libc")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UserBinary, QStringLiteral("libc"), 0,
                                   QStringLiteral("allocator libc has no quantum")}}
            << QStringLiteral("Valkey 8.0.1 allocates with jemalloc and Valkey 9.1.2 with libc") + isBuild;
        QTest::newRow("three servers, two quanta")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("8.1.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QStringLiteral("Valkey 8.0.1 allocates with a 16-byte quantum and Valkey 9.1.2 (upstream build) with an 8-byte one")
                   + isBuild;
        // The comparison the caveat concerns is named: each server against the baseline.
        QTest::newRow("one version, two builds")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("8.0.1"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QStringLiteral("Valkey 8.0.1 (Debian package) allocates with a 16-byte quantum and Valkey 8.0.1 (upstream build) with "
                              "an 8-byte one: one version in two builds, so all of their difference in memory is the build.");
        QTest::newRow("two builds against the baseline")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                  {QStringLiteral("8.1.1"), BuildKind::UpstreamBuild, kJemalloc, 8, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QStringLiteral("Valkey 8.0.1 allocates with a 16-byte quantum and Valkey 8.1.1 (upstream build) with an 8-byte one")
                   + isBuild + QLatin1Char(' ')
                   + QStringLiteral("Valkey 8.0.1 allocates with a 16-byte quantum and Valkey 9.1.2 (upstream build) with an 8-byte one")
                   + isBuild;
        QTest::newRow("older bundle, nothing read")
            << std::vector<Build>{{QStringLiteral("8.0.1"), BuildKind::Unknown, {}, 0, {}},
                                  {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}}
            << QString();
    }

    void caveat()
    {
        QFETCH(std::vector<Build>, builds);
        QFETCH(QString, caveat);
        const ResultsBundle bundle = bundleOf(builds);
        const Figures figures(bundle);
        QCOMPARE(figures.buildCaveat(), caveat);

        // The memory chart's subtitle holds it on a line of its own, under what the chart
        // measures. The time charts do not: one repeat resolves no time difference, so no build
        // effect on time is known.
        const QString memorySubtitle = defaultChartSubtitle(bundle, ChartKind::MemoryPerAttribute);
        if (caveat.isEmpty())
            QVERIFY2(!memorySubtitle.contains(QLatin1Char('\n')), qPrintable(memorySubtitle));
        else
            QVERIFY2(memorySubtitle.endsWith(QLatin1Char('\n') + caveat), qPrintable(memorySubtitle));
        for (ChartKind kind : {ChartKind::UsecPerCommand, ChartKind::Throughput})
            QVERIFY2(!defaultChartSubtitle(bundle, kind).contains(QLatin1Char('\n')), qPrintable(defaultChartSubtitle(bundle, kind)));
        QCOMPARE(figures.timeBuildCaveat(), QString());

        // report.md: once, right after the headline sentences.
        const QString report = reportMarkdown(figures, {});
        QCOMPARE(report.count(QStringLiteral(" is the build")), caveat.isEmpty() ? 0 : caveat.count(QStringLiteral(" is the build")));
        if (!caveat.isEmpty()) {
            const qsizetype at = report.indexOf(caveat);
            const qsizetype headline = report.indexOf(QStringLiteral("- **Memory per stored attribute**"));
            QVERIFY2(headline >= 0 && headline < at, qPrintable(report));
            QVERIFY2(report.indexOf(QStringLiteral("\n## "), headline) > at, qPrintable(report));   // before the first section
        }

        // The Markdown `versus run` prints.
        const QString markdown = bundleToMarkdown(figures);
        QCOMPARE(markdown.count(QStringLiteral(" is the build")), caveat.isEmpty() ? 0 : caveat.count(QStringLiteral(" is the build")));
        if (!caveat.isEmpty())
            QVERIFY2(markdown.contains(QStringLiteral("Build: ") + caveat), qPrintable(markdown));
    }

    // A series reached over TLS beside one over plain TCP: the transport caveat follows the
    // build's, in the subtitle and the answer (buildCaveat()), and on a line of its own in the
    // Markdown and report.md. Both over TLS: nothing to say.
    void transportCaveat()
    {
        ResultsBundle bundle = bundleOf({{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                         {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}});
        bundle.servers[0].transport = QStringLiteral("plain");
        bundle.servers[1].transport = QStringLiteral("tls");
        const QString transport = QStringLiteral("Valkey 9.1.2 (upstream build) was reached over TLS and Valkey 8.0.1 over plain TCP: "
                                                 "part of this difference may be TLS, not the version (most in the client's "
                                                 "figures: events per second and latency).");
        const Figures figures(bundle);
        QCOMPARE(figures.transportCaveat(), transport);
        QCOMPARE(figures.buildCaveat(), figures.allocatorCaveat() + QLatin1Char(' ') + transport);
        QVERIFY(defaultChartSubtitle(bundle, ChartKind::UsecPerCommand).endsWith(transport));
        QVERIFY2(bundleToMarkdown(figures).contains(QStringLiteral("\nTransport: ") + transport), qPrintable(bundleToMarkdown(figures)));
        QVERIFY(reportMarkdown(figures, {}).contains(QStringLiteral("**Transport:** ") + transport));
        bundle.servers[0].transport = QStringLiteral("tls-unchecked");
        QCOMPARE(Figures(bundle).transportCaveat(), QString());
        // Every server over TLS: no caveat, but the footnote and report.md say how they were
        // reached (a TLS-only run's said nothing of TLS).
        QVERIFY2(defaultChartFootnote(Figures(bundle)).contains(QStringLiteral(" · over TLS, certificates not checked · ")),
                 qPrintable(defaultChartFootnote(Figures(bundle))));
        QVERIFY(reportMarkdown(Figures(bundle), {}).contains(QStringLiteral("\n- Transport: every server over TLS, certificates not checked\n")));
        bundle.servers[0].transport = QStringLiteral("tls");
        QVERIFY(reportMarkdown(Figures(bundle), {}).contains(QStringLiteral("\n- Transport: every server over TLS\n")));
        QVERIFY(!reportMarkdown(figures, {}).contains(QStringLiteral("- Transport:")));
        bundle.servers[0].transport.clear();   // a bundle from before TLS: plain
        QVERIFY(!defaultChartFootnote(Figures(bundle)).contains(QStringLiteral("over TLS")));
        QCOMPARE(Figures(bundle).transportCaveat(), transport);
    }

    // An endpoint that refused CONFIG (a managed service): how it was measured instead is said
    // after the other caveats, in the subtitle and the answer, and on a line of its own in the
    // Markdown and report.md; hidden, it says nothing.
    void limitsCaveat()
    {
        ResultsBundle bundle = bundleOf({{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                         {QStringLiteral("8.1.1"), BuildKind::DebianPackage, kJemalloc, 16, {}}});
        MeasurementLimits &limits = bundle.servers[1].limits;
        limits.settingsUnread = QStringLiteral("CONFIG GET refused: \"ERR unknown command\"");
        limits.trackingLeftOn = limits.settingsUnread;
        limits.statsNotReset = QStringLiteral("not sent: it would free the latency histograms mid-run");
        const QString caveat = QStringLiteral("Valkey 8.1.1 refused CONFIG and was measured around it: its server time is the "
                                              "difference of commandstats over each pass, not counted from a reset; its latency "
                                              "tracking stayed on, each command's histogram allocated before the first baseline; "
                                              "its settings were not recorded.");
        const Figures figures(bundle);
        QCOMPARE(figures.limitsCaveat(), caveat);
        QCOMPARE(figures.buildCaveat(), caveat);
        QVERIFY(defaultChartSubtitle(bundle, ChartKind::UsecPerCommand).endsWith(caveat));
        QVERIFY2(bundleToMarkdown(figures).contains(QStringLiteral("\nMeasurement: ") + caveat), qPrintable(bundleToMarkdown(figures)));
        QVERIFY(reportMarkdown(figures, {}).contains(QStringLiteral("**Measurement:** ") + caveat));
        limits = MeasurementLimits();
        limits.statsNotReset = QStringLiteral("CONFIG RESETSTAT refused: \"NOPERM\"");
        QCOMPARE(Figures(bundle).limitsCaveat(), QStringLiteral("Valkey 8.1.1 refused CONFIG and was measured around it: its "
                                                                "server time is the difference of commandstats over each pass, "
                                                                "not counted from a reset."));
        FigureOptions options;
        options.hiddenServers = {bundle.servers[1].id};
        QCOMPARE(Figures(bundle, options).limitsCaveat(), QString());
    }

    void hiddenServerLeavesTheComparison()
    {
        const ResultsBundle bundle = bundleOf({{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                               {QStringLiteral("8.1.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                               {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}});
        FigureOptions options;
        options.hiddenServers = {QStringLiteral("valkey-9.1.2-upstream")};
        QCOMPARE(Figures(bundle, options).buildCaveat(), QString());
    }

    // An upstream build's name says so; a Debian package of the same version beside it too.
    void namesTellBuildsApart()
    {
        const ResultsBundle bundle = bundleOf({{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                               {QStringLiteral("8.0.1"), BuildKind::UpstreamBuild, kJemalloc, 8, {}},
                                               {QStringLiteral("9.1.2"), BuildKind::DebianPackage, kJemalloc, 16, {}}});
        const Figures figures(bundle);
        QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1")).name, QStringLiteral("Valkey 8.0.1 (Debian package)"));
        QCOMPARE(figures.summary(QStringLiteral("valkey-8.0.1-upstream")).name, QStringLiteral("Valkey 8.0.1 (upstream build)"));
        QCOMPARE(figures.summary(QStringLiteral("valkey-9.1.2")).name, QStringLiteral("Valkey 9.1.2"));
        // Each comparison against the baseline: 8.0.1's two builds differ in memory by the build
        // alone; 9.1.2 has the baseline's quantum, and the answer (8.0.1 → 9.1.2) no caveat.
        QCOMPARE(figures.buildCaveat(),
                 QStringLiteral("Valkey 8.0.1 (Debian package) allocates with a 16-byte quantum and Valkey 8.0.1 (upstream build) with "
                                "an 8-byte one: one version in two builds, so all of their difference in memory is the build."));
        QCOMPARE(figures.answerCaveat(), QString());
        // The footnote's build part and the report's provenance table say origin and quantum.
        QCOMPARE(serverBuildProvenance(bundle.servers[0]), QStringLiteral("Valkey 8.0.1 (Debian package, quantum 16 B)"));
        QCOMPARE(serverBuildProvenance(bundle.servers[1]), QStringLiteral("Valkey 8.0.1 (upstream build, quantum 8 B)"));
        QCOMPARE(buildProvenance(bundle.servers[0]), QStringLiteral("Debian package (trixie), jemalloc-5.3.0, quantum 16 B"));
        QCOMPARE(buildProvenance(bundle.servers[1]),
                 QStringLiteral("upstream build of valkey-8.0.1.tar.gz, jemalloc-5.3.0, quantum 8 B"));
        const QString report = reportMarkdown(figures, {});
        QVERIFY2(report.contains(QStringLiteral("| Server | Origin | Build id | Allocator | Quantum |")), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("| Valkey 8.0.1 (upstream build) | upstream build of valkey-8.0.1.tar.gz | — | jemalloc-5.3.0 | 8 B |")),
                 qPrintable(report));
    }

    // At every preset the caveat wraps inside the image, whole, and leaves the bars their room.
    // With VERSUS_KEEP_PNG naming a folder the images are kept there for a look.
    void subtitleFitsEveryPreset()
    {
        const ResultsBundle bundle = bundleOf({{QStringLiteral("8.0.1"), BuildKind::DebianPackage, kJemalloc, 16, {}},
                                               {QStringLiteral("9.1.2"), BuildKind::UpstreamBuild, kJemalloc, 8, {}}});
        const QString subtitle = defaultChartSubtitle(bundle, ChartKind::MemoryPerAttribute);
        const QString keep = qEnvironmentVariable("VERSUS_KEEP_PNG");
        for (const SizePreset &preset : sizePresets()) {
            ExportOptions options;
            options.size = preset.size;
            ChartGeometry geometry;
            const Outcome<QImage> image = renderChart(bundle, ChartKind::MemoryPerAttribute, options, &geometry);
            QVERIFY2(image, qPrintable(image ? QString() : image.error()));
            QVERIFY2(geometry.subtitleLines.size() >= 2, qPrintable(preset.name));
            QCOMPARE(geometry.subtitleLines.join(QLatin1Char(' ')), QString(subtitle).replace(QLatin1Char('\n'), QLatin1Char(' ')));
            QVERIFY2(geometry.plotArea.height() > image->height() * 0.35, qPrintable(preset.name));
            if (!keep.isEmpty())
                QVERIFY(image->save(QStringLiteral("%1/caveat-%2.png").arg(keep, preset.name)));
        }
    }
};

QTEST_MAIN(TestBuildCaveat)
#include "tst_buildcaveat.moc"
