// The sweep charts of a real sweep bundle: exact pixel sizes at every preset, theme and scale,
// the lines' names inside the image and apart, and the files exportAll writes for a sweep.

#include "bundlefigures.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "fixturebundle.h"
#include "sweepexport.h"
#include "sweepmarkdown.h"

#include <QTemporaryDir>
#include <QtTest>

class SweepChartTest : public QObject {
    Q_OBJECT

private slots:
    void dataFollowsTheFigures()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        QCOMPARE(sweepChartKinds(bundle).size(), size_t(4));   // memory, ratio and the two time charts
        QVERIFY(sweepChartKinds(fixtureBundle("real-hash-ttl.json")).empty());
        const SweepChartData data = buildSweepChartData(Figures(bundle), SweepChartKind::MemoryPerKey);
        // 16, 64, 256 span ×16: a log scale, at even steps.
        QVERIFY(data.logarithmic);
        QCOMPARE(data.x, (std::vector<double>{4, 6, 8}));
        // set-ex on 8.0.1 and the three patterns on 9.1.2; 8.0.1's refused patterns are said.
        QCOMPARE(data.lines.size(), size_t(4));
        QCOMPARE(data.lines.front().label, QStringLiteral("set-ex · 8.0.1"));
        QCOMPARE(data.footnotes, QStringList{QStringLiteral("No line for hsetex, hset-hexpire on Valkey 8.0.1 (unsupported).")});
        QCOMPARE(defaultSweepSubtitle(Figures(bundle), SweepChartKind::Ratio).left(30), QStringLiteral("hsetex on Valkey 9.1.2: 2.79× "));
    }

    // Beside Valkey, another product's lines are named with it, and the subtitle keeps to the
    // newest Valkey, which sorts before the other products.
    void mixedProductsNameTheProduct()
    {
        ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        changeServerRun(bundle, QStringLiteral("valkey-8.0.1"), [](ServerRun &run) { run.product = QStringLiteral("redis"); });
        const SweepChartData data = buildSweepChartData(Figures(bundle), SweepChartKind::MemoryPerKey);
        QStringList labels;
        for (const SweepChartLine &line : data.lines)
            labels << line.label;
        QCOMPARE(labels, (QStringList{QStringLiteral("hsetex · Valkey 9.1.2"), QStringLiteral("set-ex · Valkey 9.1.2"),
                                      QStringLiteral("hset-hexpire · Valkey 9.1.2"), QStringLiteral("set-ex · Redis 8.0.1")}));
        QVERIFY2(defaultSweepSubtitle(Figures(bundle), SweepChartKind::MemoryPerKey).startsWith(QStringLiteral("hsetex on Valkey 9.1.2: ")),
                 qPrintable(defaultSweepSubtitle(Figures(bundle), SweepChartKind::MemoryPerKey)));
    }

    // A sweep cancelled during its last point: that point's figures are partial. They are
    // marked in the tables, not drawn, and never in the headline, which speaks of the finished
    // points only (it read "16 to 256" from the partial figure before).
    void unfinishedPointIsMarkedAndInNoHeadline()
    {
        ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        bundle.complete = false;
        bundle.sweep.points.back().complete = false;
        const SweepTable memory = sweepTable(bundle, Measure::BytesPerKey);
        QCOMPARE(memory.unfinishedValues(), QStringList{QStringLiteral("256")});
        for (const SweepLine &line : memory.lines) {
            const Figure &last = line.points.back();
            QVERIFY(!last.hasValue() || last.state == FigureState::Incomplete);
            QVERIFY(!last.change);
        }
        const QString subtitle = defaultSweepSubtitle(Figures(bundle), SweepChartKind::Ratio);
        QVERIFY2(subtitle.startsWith(QStringLiteral("hsetex on Valkey 9.1.2: 2.79× → 2.20× set-ex from value-size 16 to 64")),
                 qPrintable(subtitle));
        const QString markdown = sweepToMarkdown(bundle);
        QVERIFY2(markdown.contains(QStringLiteral("| Pattern · server | value-size=16 | value-size=64 | value-size=256 (unfinished) |")),
                 qPrintable(markdown));
        QVERIFY(markdown.contains(QStringLiteral("| hsetex · Valkey 9.1.2 | 2.79× | 2.20× | 1.44× ‡ |")));
        QVERIFY(markdown.contains(QStringLiteral("‡ The run stopped before value-size=256 finished: those figures are partial")));
        const SweepChartData data = buildSweepChartData(Figures(bundle), SweepChartKind::MemoryPerKey);
        for (const SweepChartLine &line : data.lines)
            QVERIFY(!line.values.back().has_value());
        QVERIFY(data.footnotes.contains(QStringLiteral("value-size=256 not drawn: the run stopped before it finished")));
    }

    void exactSizeAtEveryPresetAndTheme()
    {
        const ResultsBundle bundle = fixtureBundle("real-hash-ttl-sweep.json");
        for (const SizePreset &preset : sizePresets()) {
            for (ColorTheme theme : allColorThemes()) {
                for (SweepChartKind kind : sweepChartKinds(bundle)) {
                    ExportOptions options;
                    options.size = preset.size;
                    options.dpi = preset.dpi;
                    options.theme = theme;
                    SweepGeometry geometry;
                    const Outcome<QImage> image = renderSweepChart(Figures(bundle), kind, options, &geometry);
                    const QString where = QStringLiteral("%1 %2 %3").arg(preset.name, colorThemeName(theme), sweepChartFileStem(kind));
                    QVERIFY2(image, qPrintable(where));
                    QCOMPARE(image->size(), preset.size);
                    QCOMPARE(image->dotsPerMeterX(), int(std::lround(preset.dpi / 0.0254)));
                    checkLayout(geometry, QRectF(QPointF(0, 0), QSizeF(preset.size)), where);
                }
            }
        }
    }

    // The sweep charts stand on the bar charts' page: a long title wraps to two lines and is cut
    // in the middle of the second, a subtitle wraps, exactly as a bar chart lays them out.
    void titlesWrapAsTheBarChartsDo()
    {
        const ResultsBundle sweep = fixtureBundle("real-hash-ttl-sweep.json");
        const QString words = QStringLiteral("Memory per key of every pattern against the key count it was measured at, "
                                             "Valkey 8.0.1 and 9.1.2 side by side on one machine: ");
        ExportOptions options;
        options.size = findSizePreset(QStringLiteral("social"))->size;
        options.title = words + words + words + QStringLiteral("−10.0%");
        options.subtitle = words + words;
        SweepGeometry swept;
        QVERIFY(renderSweepChart(Figures(sweep), SweepChartKind::MemoryPerKey, options, &swept));
        ChartGeometry bars;
        QVERIFY(renderChart(fixtureBundle("real-hash-ttl.json"), ChartKind::MemoryPerAttribute, options, &bars));
        QCOMPARE(swept.titleLines.size(), 2);
        QVERIFY2(swept.titleLines.last().contains(QStringLiteral("…")) && swept.titleLines.last().endsWith(QStringLiteral("−10.0%")),
                 qPrintable(swept.titleLines.last()));
        QCOMPARE(swept.titleLines, bars.titleLines);
        QVERIFY(swept.subtitleLines.size() > 1);
        QCOMPARE(swept.subtitleLines, bars.subtitleLines);
    }

    void scaleMultipliesThePixels()
    {
        ExportOptions options;
        options.scale = 2;
        const Outcome<QImage> image = renderSweepChart(Figures(fixtureBundle("real-hash-ttl-sweep.json")), SweepChartKind::Ratio, options);
        QVERIFY(image);
        QCOMPARE(image->size(), QSize(2400, 1350));
    }

    void exportAllWritesTheSweepCharts()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.formats = {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf};
        const Outcome<QStringList> written = exportAll(fixtureBundle("real-hash-ttl-sweep.json"), dir.path(), options);
        QVERIFY2(written, qPrintable(written ? QString() : written.error()));
        for (const char *name : {"sweep-memory-per-key.png", "sweep-memory-per-key.svg", "sweep-memory-per-key.pdf",
                                 "sweep-ratio.png", "sweep-ratio.svg", "sweep-ratio.pdf"}) {
            QVERIFY2(written->contains(QDir(dir.path()).filePath(QLatin1String(name))), name);
            QVERIFY2(QFileInfo(QDir(dir.path()).filePath(QLatin1String(name))).size() > 1000, name);
        }
        // A bundle of one run has none.
        QTemporaryDir plain;
        const Outcome<QStringList> one = exportAll(fixtureBundle("real-hash-ttl.json"), plain.path(), ExportOptions());
        QVERIFY(one);
        QVERIFY(!one->join(QLatin1Char(' ')).contains(QLatin1String("sweep-")));
    }

private:
    static void checkLayout(const SweepGeometry &geometry, const QRectF &image, const QString &where)
    {
        QVERIFY2(image.contains(geometry.plotArea), qPrintable(where));
        QCOMPARE(geometry.labels.size(), geometry.data.lines.size());
        for (size_t i = 0; i < geometry.labels.size(); ++i) {
            QVERIFY2(image.contains(geometry.labels[i]), qPrintable(where));
            QVERIFY2(geometry.labels[i].left() >= geometry.plotArea.right(), qPrintable(where));
            for (size_t j = i + 1; j < geometry.labels.size(); ++j)
                QVERIFY2(!geometry.labels[i].intersects(geometry.labels[j]), qPrintable(where));
        }
    }
};

QTEST_MAIN(SweepChartTest)
#include "tst_sweepchart.moc"
