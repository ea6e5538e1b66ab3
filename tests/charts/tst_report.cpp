// report.md beside exported charts: headline changes, images that were written, tables with
// display names and ratios against the baseline, and the provenance; the chart footnote
// carries the same provenance.

#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlejson.h"
#include "bundlemarkdown.h"
#include "chartdata.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "figures.h"
#include "presentation.h"
#include "reportmarkdown.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class ReportTest : public QObject {
    Q_OBJECT

private slots:
    // The ratio is the medians' ratio, and ± half the range of the ratios taken repeat by
    // repeat (3 repeats: no 95% interval).
    void ratiosAreComputedByTheFiguresLayer()
    {
        const Figures figures(fixtureBundle("real-ecommerce.json"));
        const FigureTable memory = figures.memory();
        const Figure &base = memory.at(0, QStringLiteral("valkey-8.0.1"));
        const Figure &newer = memory.at(0, QStringLiteral("valkey-9.1.2"));
        QVERIFY(newer.ratio.has_value() && newer.ratioPlusMinus.has_value());
        QCOMPARE(*newer.ratio, newer.value / base.value);
        double low = 1e9, high = 0;
        for (const auto &[repeat, value] : newer.byRepeat) {
            const double ratio = value / base.byRepeat.at(repeat);
            low = std::min(low, ratio);
            high = std::max(high, ratio);
        }
        QCOMPARE(newer.byRepeat.size(), size_t(3));
        QCOMPARE(*newer.ratioPlusMinus, (high - low) / 2.0);
        QVERIFY(!base.ratio.has_value());
        QCOMPARE(formatRatio(1.8613, 0.0312), QStringLiteral("1.86 ± 0.03 ×"));
        QCOMPARE(formatRatio(0.92, std::nullopt), QStringLiteral("0.92 ×"));
    }

    void reportIsWrittenBesideTheCharts()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.report = true;
        const ResultsBundle bundle = fixtureBundle("real-ecommerce.json");
        Outcome<QStringList> written = exportAll(bundle, dir.path(), options);
        QVERIFY2(written, qPrintable(written ? QString() : written.error()));
        QCOMPARE(written->last(), dir.filePath(QStringLiteral("report.md")));
        QVERIFY(exportFileNames(everyBundleChartKinds(), options).contains(QStringLiteral("report.md")));
        const QString report = readText(dir.filePath(QStringLiteral("report.md")));
        QVERIFY(report.startsWith(QStringLiteral("# Valkey 8.0.1 and Valkey 9.1.2 on the ecommerce workload\n")));
        QVERIFY2(report.contains(QStringLiteral("- **Memory per stored attribute** (All attributes): 196.1 → 167.7 bytes per key "
                                                "from Valkey 8.0.1 to Valkey 9.1.2 (−14.5%).\n")),
                 qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("![Memory per stored attribute](memory-per-attribute.png)")));
        QVERIFY(report.contains(QStringLiteral("| Attribute | Valkey 8.0.1 | Valkey 9.1.2 |\n")));
        QVERIFY(report.contains(QStringLiteral("| All attributes | 196.1 | 167.7 (−14.5%) |\n")));
        QVERIFY(report.contains(QStringLiteral("| All attributes | 1.00 (baseline) | 0.86 ± 0.00 × |\n")));
        QVERIFY(report.contains(QStringLiteral("| SISMEMBER | 1.00 (baseline) | 0.74 ± 0.03 × |\n")));
        QVERIFY(report.contains(QStringLiteral("- Repeats: median of 3 repeats, fair schedule\n")));
        // A bundle from before the build was recorded: its origin and quantum are not known.
        QVERIFY2(report.contains(QStringLiteral("| Server | Origin | Build id | Allocator | Quantum | Executable sha256 | Status |")),
                 qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("| Valkey 8.0.1 | — | `39f7c371e0a96e3d` | jemalloc-5.3.0 | — | `629d7d628b5db43a` | ok |")));
        QVERIFY(!report.contains(QLatin1String("part of this difference")));
        // Display names, never ids, in what a reader sees.
        QVERIFY2(!report.contains(QLatin1String("valkey-8.0.1")), qPrintable(report));
    }

    // One run has no ± on its ratios, and report.md explains no sign it does not print; with
    // repeats the ratios carry one, and the report says what it is.
    void plusMinusIsExplainedWhereItIsPrinted()
    {
        const ResultsBundle single = fixtureBundle("real-why-ecommerce.json");
        QCOMPARE(single.repeats, 1);
        const QString report = reportMarkdown(Figures(single), {});
        QVERIFY2(report.contains(QStringLiteral(", the baseline.\n")), qPrintable(report));
        QVERIFY2(!report.contains(QStringLiteral("±")), qPrintable(report));

        const QString repeated = reportMarkdown(Figures(fixtureBundle("real-ecommerce.json")), {});
        QVERIFY2(repeated.contains(QStringLiteral("Ratios are against Valkey 8.0.1, the baseline: ± is half the 95% interval of "
                                                  "the ratios taken repeat by repeat, or half their range with fewer than 5 repeats.\n")),
                 qPrintable(repeated));
        QVERIFY(repeated.contains(QStringLiteral(" ± ")));
    }

    // Only images that were written are linked; a PDF is no image in Markdown; hidden versions
    // are left out of the report as of the charts.
    void reportLinksWhatWasWritten()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.report = true;
        options.formats = {ImageFormat::Pdf, ImageFormat::Svg};
        Outcome<QStringList> written = exportCharts(fixtureBundle("real-ecommerce.json"), {ChartKind::MemoryPerAttribute},
                                                    dir.path(), options);
        QVERIFY(written);
        QString report = readText(dir.filePath(QStringLiteral("report.md")));
        QVERIFY(report.contains(QStringLiteral("![Memory per stored attribute](memory-per-attribute.svg)")));
        QVERIFY(!report.contains(QLatin1String(".pdf")));
        QVERIFY(!report.contains(QLatin1String("](usec-per-command")));

        Figures::Options without;
        without.hiddenServers = {QStringLiteral("valkey-9.1.2")};
        QVERIFY(exportCharts(Figures(fixtureBundle("real-ecommerce.json"), without), {ChartKind::MemoryPerAttribute}, dir.path(),
                             options));
        report = readText(dir.filePath(QStringLiteral("report.md")));
        QVERIFY(report.startsWith(QStringLiteral("# Valkey 8.0.1 on the ecommerce workload\n")));
        QVERIFY(!report.contains(QLatin1String("Valkey 9.1.2")));
    }

    // hash-ttl measures each pattern against set-ex on the same server: the ratio is the two
    // figures it comes from, printed, in the report and in the memory chart's title.
    void patternsAreMeasuredAgainstTheReference()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl.json");
        const Figures figures(bundle);
        QCOMPARE(figures.referenceType(), QStringLiteral("set-ex"));
        const FigureTable memory = figures.memory();
        const FigureTable ratios = figures.referenceRatios();
        QCOMPARE(ratios.categories.size(), size_t(2));
        const QString newer = QStringLiteral("valkey-9.1.2");
        const int hsetex = ratios.categoryIndex(QStringLiteral("hsetex"));
        const double expected = memory.at(memory.categoryIndex(QStringLiteral("hsetex")), newer).value
            / memory.at(memory.categoryIndex(QStringLiteral("set-ex")), newer).value;
        QCOMPARE(ratios.at(hsetex, newer).value, expected);
        QCOMPARE(ratios.at(hsetex, QStringLiteral("valkey-8.0.1")).state, FigureState::Unsupported);
        const QString printed = bundleToMarkdown(figures);
        QVERIFY2(printed.contains(QStringLiteral("| hsetex | unsupported | %1 |").arg(formatMultiple(expected))), qPrintable(printed));
        QVERIFY(printed.contains(QLatin1String("### Memory against set-ex")));
        QCOMPARE(defaultChartTitle(bundle, ChartKind::MemoryPerAttribute),
                 QStringLiteral("Memory per stored attribute: hsetex %1 set-ex on Valkey 9.1.2, 120-byte values").arg(formatMultiple(expected)));
        // The report leads with the answer, then a memory bullet per pattern.
        const QString report = reportMarkdown(figures, {});
        const QString answer = QStringLiteral("**Answer:** On Valkey 9.1.2, hsetex takes %1").arg(formatMultiple(expected));
        QVERIFY2(report.section(QStringLiteral("\n\n"), 1, 1).startsWith(answer), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("- **Memory against set-ex** on Valkey 9.1.2: hsetex %1 bytes per key, %2 "
                                                "set-ex's %3.\n")
                                     .arg(formatFigure(memory.at(memory.categoryIndex(QStringLiteral("hsetex")), newer).value),
                                          formatMultiple(expected),
                                          formatFigure(memory.at(memory.categoryIndex(QStringLiteral("set-ex")), newer).value))),
                 qPrintable(report));
        // A workload without a reference type has no such table.
        QVERIFY(Figures(fixtureBundle("real-ecommerce.json")).referenceRatios().categories.empty());
    }

    // The configuration table: settings bearing on the figures in bold, a setting a version
    // lacks as "—", an empty value as "(empty)" (not an empty code span), per-server ones left out.
    void configurationDifferencesAreTabled()
    {
        ResultsBundle bundle = fixtureBundle("real-hash-ttl.json");
        QCOMPARE(int(bundle.servers.size()), 2);
        bundle.servers[0].config = {{QStringLiteral("hz"), QStringLiteral("10")}, {QStringLiteral("port"), QStringLiteral("7001")},
                                    {QStringLiteral("maxclients"), QStringLiteral("10000")},
                                    {QStringLiteral("hash-max-listpack-value"), QString()}};
        bundle.servers[1].config = {{QStringLiteral("hz"), QStringLiteral("10")}, {QStringLiteral("port"), QStringLiteral("7002")},
                                    {QStringLiteral("maxclients"), QStringLiteral("4064")},
                                    {QStringLiteral("hash-max-listpack-value"), QStringLiteral("64")},
                                    {QStringLiteral("hash-seed"), QString()}};
        const Figures figures(bundle);
        const QString markdown = configDifferencesMarkdown(figures, [&figures](const QString &id) { return figures.summary(id).name; });
        QVERIFY2(markdown.contains(QStringLiteral("| **hash-max-listpack-value** | (empty) | `64` |\n")), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("| maxclients | `10000` | `4064` |\n")), qPrintable(markdown));
        // hash-seed left empty is a random seed at every start, as on a version without it: it
        // bears on neither figure and is one of the settings only some versions have.
        QVERIFY2(!markdown.contains(QLatin1String("**hash-seed**")), qPrintable(markdown));
        QVERIFY2(markdown.contains(QStringLiteral("Settings only some of these versions have (1): `hash-seed`.")), qPrintable(markdown));
        QVERIFY(!markdown.contains(QLatin1String("``")));
        QVERIFY(!markdown.contains(QLatin1String("port")));
        QVERIFY(!markdown.contains(QLatin1String("| hz")) && !markdown.contains(QLatin1String("**hz**")));
    }

    void footnoteCarriesTheProvenance()
    {
        QCOMPARE(defaultChartFootnote(Figures(fixtureBundle("real-hash-ttl.json"))).section(QStringLiteral(" · "), 0, 2),
                 QStringLiteral("Workload hash-ttl (keys 2,000, ttl 900, value-size 120), 2,000 events · one run, fair schedule · "
                                "Valkey 8.0.1 (build 39f7c371), Valkey 9.1.2 (build 9108e8f1)"));
    }
};

QTEST_MAIN(ReportTest)
#include "tst_report.moc"
