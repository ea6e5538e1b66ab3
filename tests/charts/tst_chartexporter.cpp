#include "bundlefigures.h"
#include "fixturebundle.h"
#include "viewfiles.h"
#include "barchart.h"
#include "bundlejson.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "palette.h"
#include "presentation.h"
#include "presetoptions.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

} // namespace

class TestChartExporter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactPixelSizes_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QSize>("custom");
        QTest::addColumn<double>("scale");
        QTest::addColumn<QSize>("expected");
        for (double scale : {1.0, 2.0, 3.0}) {
            for (const SizePreset &preset : sizePresets()) {
                if (preset.name.startsWith(QLatin1String("a4")) && scale == 3.0)
                    continue;   // 10524×7440 adds nothing over 2×
                QTest::addRow("%s %gx", qPrintable(preset.name), scale)
                    << preset.name << QSize() << scale << preset.size * scale;
            }
            QTest::addRow("custom 1000x500 %gx", scale) << QString() << QSize(1000, 500) << scale << QSize(1000, 500) * scale;
        }
    }
    void exactPixelSizes()
    {
        QFETCH(QString, preset);
        QFETCH(QSize, custom);
        QFETCH(double, scale);
        QFETCH(QSize, expected);
        ExportOptions options = preset.isEmpty() ? ExportOptions() : presetOptions(preset);
        if (custom.isValid())
            options.size = custom;
        options.scale = scale;
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, options);
        QVERIFY2(image.ok(), qPrintable(image.error()));
        QCOMPARE(image->size(), expected);
    }

    void barsHaveTheirVersionsColours_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<double>("scale");
        for (ChartKind kind : everyBundleChartKinds()) {
            for (const char *theme : {"light", "dark", "transparent"})
                QTest::addRow("%s %s", qPrintable(figureView(kind).stem), theme) << int(kind) << QString::fromLatin1(theme) << 1.0;
            QTest::addRow("%s light 2x", qPrintable(figureView(kind).stem)) << int(kind) << QStringLiteral("light") << 2.0;
        }
    }
    void barsHaveTheirVersionsColours()
    {
        QFETCH(int, kind);
        QFETCH(QString, theme);
        QFETCH(double, scale);
        ExportOptions options;
        options.theme = parseColorTheme(theme).value();
        options.scale = scale;
        ChartGeometry geometry;
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind(kind), options, &geometry);
        QVERIFY2(image.ok(), qPrintable(image.error()));
        QCOMPARE(geometry.data.series.size(), size_t(4));
        int sampled = 0;
        for (size_t s = 0; s < geometry.bars.size(); ++s) {
            for (size_t c = 0; c < geometry.bars[s].size(); ++c) {
                const QRectF bar = geometry.bars[s][c];
                QVERIFY2(bar.width() > 4 && bar.height() > 4, qPrintable(QStringLiteral("bar %1/%2 is tiny").arg(s).arg(c)));
                // Left of the centre: the error bar and its label sit at the bar's end.
                const QPoint probe(int(bar.left() + bar.width() * 0.3), int(bar.center().y()));
                QCOMPARE(QColor(image->pixel(probe)).name(), geometry.data.series[s].color.name());
                ++sampled;
            }
        }
        QVERIFY(sampled >= 4);
        // Top to bottom in each group: oldest version first.
        QVERIFY(geometry.bars[0][0].top() < geometry.bars[1][0].top());
        QVERIFY(geometry.bars[2][0].top() < geometry.bars[3][0].top());
    }

    // Hiding a version leaves the others in the colours they have with every version shown,
    // in the pixels too, and leaves it out of the data files.
    void hiddenVersionsKeepTheOthersColours()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        ChartGeometry all;
        QVERIFY(renderChart(bundle, ChartKind::MemoryPerAttribute, ExportOptions(), &all).ok());
        QCOMPARE(all.data.series.size(), size_t(4));
        const QString hidden = all.data.series[1].serverId;

        Figures::Options without;
        without.hiddenServers = {hidden};
        ChartGeometry shown;
        const Outcome<QImage> image =
            renderChart(Figures(bundle, without), ChartKind::MemoryPerAttribute, ExportOptions(), &shown);
        QVERIFY2(image.ok(), qPrintable(image.error()));
        QCOMPARE(shown.data.series.size(), size_t(3));
        for (size_t s = 0; s < shown.data.series.size(); ++s) {
            const ChartSeries &series = shown.data.series[s];
            QVERIFY(series.serverId != hidden);
            const auto same = std::find_if(all.data.series.begin(), all.data.series.end(),
                                           [&](const ChartSeries &each) { return each.serverId == series.serverId; });
            QVERIFY(same != all.data.series.end());
            QCOMPARE(series.color.name(), same->color.name());
            const QRectF bar = shown.bars[s][0];
            QCOMPARE(QColor(image->pixel(QPoint(int(bar.left() + bar.width() * 0.3), int(bar.center().y())))).name(),
                     same->color.name());
        }
        QVERIFY(!defaultChartFootnote(Figures(withoutServers(bundle, {hidden}))).contains(serverDisplayName(*bundle.server(hidden))));
        QVERIFY(defaultChartFootnote(Figures(bundle)).contains(serverDisplayName(*bundle.server(hidden))));

        QTemporaryDir dir;
        const Outcome<QStringList> written = exportAll(Figures(bundle, without), dir.path(), ExportOptions());
        QVERIFY2(written.ok(), qPrintable(written.error()));
        const Outcome<ResultsBundle> saved = loadBundle(dir.filePath(QStringLiteral("results.json")));
        QVERIFY(saved.ok());
        QCOMPARE(saved->servers.size(), size_t(3));
        QVERIFY(!saved->server(hidden));
        QFile csv(dir.filePath(QStringLiteral("results.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(!csv.readAll().contains(hidden.toUtf8()));
    }

    void imageIsNotBlank()
    {
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::UsecPerCommand, ExportOptions());
        QVERIFY(image.ok());
        QSet<QRgb> colours;
        for (int y = 0; y < image->height(); y += 3) {
            for (int x = 0; x < image->width(); x += 3)
                colours.insert(image->pixel(x, y));
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void unsupportedIsAMarkerNotABar()
    {
        ChartGeometry geometry;
        const Outcome<QImage> image = renderChart(fixtureBundle("hash-ttl-3-versions.json"), ChartKind::MemoryPerAttribute,
                                                  ExportOptions(), &geometry);
        QVERIFY(image.ok());
        QCOMPARE(geometry.data.categories, (QStringList{QStringLiteral("set-ex"), QStringLiteral("hsetex"),
                                                        QStringLiteral("hset-hexpire")}));
        const ChartBar &refused = geometry.data.series[0].bars[1];
        QVERIFY(refused.unsupported);
        QCOMPARE(refused.label, QStringLiteral("unsupported (Valkey 8.0.1)"));
        QVERIFY(geometry.bars[0][1].width() < 1);
        QVERIFY(!geometry.data.series[2].bars[1].unsupported);
        QVERIFY(geometry.bars[2][1].width() > 50);
    }

    void exportKeepsTheWindowsSort()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        const QStringList workloadOrder = buildChartData(bundle, ChartKind::MemoryPerAttribute).categories;
        for (const CategoryOrder order : {CategoryOrder::Value, CategoryOrder::Change, CategoryOrder::Name}) {
            Figures::Options sorted;
            sorted.order = order;
            ChartGeometry geometry;
            const Outcome<QImage> image =
                renderChart(Figures(bundle, sorted), ChartKind::MemoryPerAttribute, ExportOptions(), &geometry);
            QVERIFY2(image.ok(), qPrintable(image.error()));
            const ChartData expected = buildChartData(Figures(bundle, sorted), ChartKind::MemoryPerAttribute);
            QCOMPARE(geometry.data.categories, expected.categories);
            QVERIFY(geometry.data.categories != workloadOrder);
            QCOMPARE(geometry.data.categories.first(), QStringLiteral("All attributes"));   // the total stays on top
        }
        // Largest change first, whichever its sign: each category's largest |change| never grows.
        Figures::Options byChange;
        byChange.order = CategoryOrder::Change;
        const ChartData data = buildChartData(Figures(bundle, byChange), ChartKind::MemoryPerAttribute);
        double previous = 1e300;
        for (int c = 1; c < data.categories.size(); ++c) {
            double largest = 0;
            for (const ChartSeries &series : data.series)
                if (!series.baseline && series.bars[size_t(c)].change)
                    largest = std::max(largest, std::abs(*series.bars[size_t(c)].change));
            QVERIFY2(largest <= previous, qPrintable(data.categories[c]));
            previous = largest;
        }
        QCOMPARE(categoryOrderNamed(QStringLiteral("largest")), std::optional<CategoryOrder>(CategoryOrder::Value));
        QCOMPARE(categoryOrderNamed(QStringLiteral("biggest")), std::nullopt);
    }

    // A chart drawn without its figures says so on the image itself; without a size chosen it is
    // drawn at the blog-tall size instead, where every bar keeps its figure.
    void crowdedChartSaysSoOrGrowsTaller()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        QTemporaryDir dir;
        ExportOptions chosen;   // 1200×675, chosen
        QVERIFY(!legibilityProblems(bundle, ChartKind::MemoryPerAttribute, chosen).isEmpty());
        const QString svg = dir.filePath(QStringLiteral("crowded.svg"));
        QVERIFY(exportChart(bundle, ChartKind::MemoryPerAttribute, chosen, svg).ok());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains("Figures not written on the bars: 32 bars are too thin for them at 1200×675."), text.left(400).constData());
        QCOMPARE(fittedOptions(bundle, ChartKind::MemoryPerAttribute, chosen).size, QSize(1200, 675));

        ExportOptions unchosen;
        unchosen.tallerWhenCrowded = true;
        const ExportOptions fitted = fittedOptions(bundle, ChartKind::MemoryPerAttribute, unchosen);
        QCOMPARE(fitted.size, QSize(1200, 1500));
        QVERIFY(legibilityProblems(bundle, ChartKind::MemoryPerAttribute, fitted).isEmpty());
        const QString png = dir.filePath(QStringLiteral("fitted.png"));
        QVERIFY(exportChart(bundle, ChartKind::MemoryPerAttribute, unchosen, png).ok());
        QCOMPARE(QImage(png).size(), QSize(1200, 1500));
        // A chart whose figures fit keeps the default size.
        QCOMPARE(fittedOptions(bundle, ChartKind::Throughput, unchosen).size, QSize(1200, 675));
    }

    // At 400×300 the category names are cut to "…": said, naming the widest, not a silent exit 0.
    void cutCategoryNamesAreSaid()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        ExportOptions small;
        small.size = QSize(400, 300);
        ChartGeometry geometry;
        QVERIFY(renderChart(bundle, ChartKind::UsecPerCommand, small, &geometry).ok());
        QVERIFY2(geometry.categoryNamesCut, qPrintable(QStringLiteral("%1 plot left %2").arg(geometry.widestCategory).arg(geometry.plotArea.left())));
        // With the smallest size of the same proportions at which they fit.
        const std::optional<QSize> fits = sizeForCategoryNames(Figures(bundle), ChartKind::UsecPerCommand, small);
        QVERIFY(fits && fits->width() > 400 && fits->height() > 300);
        QVERIFY2(legibilityProblems(bundle, ChartKind::UsecPerCommand, small)
                     .contains(QStringLiteral("usec-per-command at 400x300: category names cut short, the chart is too narrow "
                                              "for \"%1\"; they fit from %2x%3").arg(geometry.widestCategory).arg(fits->width()).arg(fits->height())),
                 qPrintable(legibilityProblems(bundle, ChartKind::UsecPerCommand, small).join(QLatin1Char('|'))));
        ExportOptions fitting;
        fitting.size = *fits;
        QVERIFY(renderChart(bundle, ChartKind::UsecPerCommand, fitting, &geometry).ok());
        QVERIFY2(!geometry.categoryNamesCut, qPrintable(geometry.widestCategory));
        ExportOptions blog;
        QVERIFY(renderChart(bundle, ChartKind::UsecPerCommand, blog, &geometry).ok());
        QVERIFY2(!geometry.categoryNamesCut, qPrintable(geometry.widestCategory));
    }

    void labelsAreLegibleOrLeftOutAndSaid()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        for (const SizePreset &preset : sizePresets()) {
            for (const ChartKind kind : everyBundleChartKinds()) {
                ExportOptions options = presetOptions(preset.name);
                ChartGeometry geometry;
                QVERIFY(renderChart(bundle, kind, options, &geometry).ok());
                const QStringList problems = legibilityProblems(bundle, kind, options);
                const QString where = preset.name + QLatin1Char(' ') + figureView(kind).stem;
                // Either every label is at least 11 px tall, or none is drawn and the exporter says why.
                if (geometry.barLabelsShown) {
                    QVERIFY2(geometry.labelPx >= BarChart::minimumLabelPx, qPrintable(where));
                    QVERIFY2(problems.isEmpty(), qPrintable(where));
                } else {
                    QCOMPARE(problems.size(), 1);
                    QVERIFY2(problems.first().startsWith(figureView(kind).stem + QStringLiteral(" at ")), qPrintable(problems.first()));
                }
            }
        }
        // 8 categories × 4 versions at 800×450: too thin; the first two types alone fit.
        ExportOptions small;
        small.size = QSize(800, 450);
        QCOMPARE(legibilityProblems(bundle, ChartKind::MemoryPerAttribute, small).size(), 1);
        ChartGeometry crowded;
        QVERIFY(renderChart(bundle, ChartKind::MemoryPerAttribute, small, &crowded).ok());
        QVERIFY(!crowded.barLabelsShown);
        small.topCategories = 2;
        ChartGeometry fewer;
        QVERIFY(renderChart(bundle, ChartKind::MemoryPerAttribute, small, &fewer).ok());
        QCOMPARE(fewer.data.categories, (QStringList{QStringLiteral("All attributes"), QStringLiteral("counter"), QStringLiteral("sum")}));
        QVERIFY(fewer.barLabelsShown);
        QVERIFY2(fewer.data.footnotes.contains(QStringLiteral("Showing 2 of 7 categories; totals cover all of them.")),
                 qPrintable(fewer.data.footnotes.join(QLatin1Char('|'))));
        QVERIFY(legibilityProblems(bundle, ChartKind::MemoryPerAttribute, small).isEmpty());
        // --scale 2 is the same layout at twice the pixels.
        small.scale = 2;
        ChartGeometry doubled;
        QVERIFY(renderChart(bundle, ChartKind::MemoryPerAttribute, small, &doubled).ok());
        QCOMPARE(doubled.labelPx, fewer.labelPx * 2);
        QCOMPARE(doubled.plotArea.width(), fewer.plotArea.width() * 2);
    }

    void pngCarriesItsDpi_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("dotsPerMeter");
        QTest::newRow("blog 1x") << "blog" << 1.0 << 3780;    // 96 dpi
        QTest::newRow("blog 2x") << "blog" << 2.0 << 7559;    // 192 dpi
        QTest::newRow("slide 3x") << "slide" << 3.0 << 11339; // 288 dpi
        QTest::newRow("a4") << "a4" << 1.0 << 11811;          // 300 dpi
    }
    void pngCarriesItsDpi()
    {
        QFETCH(QString, preset);
        QFETCH(double, scale);
        QFETCH(int, dotsPerMeter);
        QTemporaryDir dir;
        ExportOptions options = presetOptions(preset);
        options.scale = scale;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        const Status status = exportChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::UsecPerEvent, options, path);
        QVERIFY2(status.ok(), qPrintable(status.error()));
        const QImage image(path);
        QCOMPARE(image.size(), options.pixelSize());
        QCOMPARE(image.dotsPerMeterX(), dotsPerMeter);
        QCOMPARE(image.dotsPerMeterY(), dotsPerMeter);
    }

    void svgIsXmlWithText()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.svg"));
        const Status status = exportChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, ExportOptions(), path);
        QVERIFY2(status.ok(), qPrintable(status.error()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int texts = 0;
        QString allText;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
                ++texts;
                allText += xml.readElementText(QXmlStreamReader::IncludeChildElements);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(texts > 20, qPrintable(QString::number(texts)));
        QVERIFY(allText.contains(QStringLiteral("Memory per stored attribute")));
        QVERIFY(allText.contains(QStringLiteral("217.6")));
    }

    void pdfIsAPdf()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.pdf"));
        const Status status = exportChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::UsecPerCommand, presetOptions(QStringLiteral("a4")), path);
        QVERIFY2(status.ok(), qPrintable(status.error()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.size() > 2000);
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        // A4 landscape is 841.89 × 595.28 points; the old 2480×1754 preset gave A5.
        static const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
        const QRegularExpressionMatch box = mediaBox.match(QString::fromLatin1(bytes));
        QVERIFY2(box.hasMatch(), "no MediaBox");
        QVERIFY2(std::abs(box.captured(1).toDouble() - 841.89) < 0.5, qPrintable(box.captured(1)));
        QVERIFY2(std::abs(box.captured(2).toDouble() - 595.28) < 0.5, qPrintable(box.captured(2)));
    }

    void transparentCornersAreTransparent()
    {
        ExportOptions options;
        options.theme = ColorTheme::Transparent;
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, options);
        QVERIFY(image.ok());
        const int w = image->width() - 1, h = image->height() - 1;
        for (const QPoint corner : {QPoint(0, 0), QPoint(w, 0), QPoint(0, h), QPoint(w, h)})
            QCOMPARE(qAlpha(image->pixel(corner)), 0);
        options.theme = ColorTheme::Light;
        QCOMPARE(qAlpha(renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, options)->pixel(0, 0)), 255);
    }

    void sameInputSameBytes()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        ExportOptions options;
        options.scale = 2;
        const QByteArray first = pngBytes(renderChart(bundle, ChartKind::MemoryPerAttribute, options).value());
        const QByteArray second = pngBytes(renderChart(bundle, ChartKind::MemoryPerAttribute, options).value());
        QVERIFY(first.size() > 10000);
        QVERIFY(first == second);
    }

    void exportAllWritesPredictableNames()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.formats = {ImageFormat::Png, ImageFormat::Svg};
        const QString target = dir.filePath(QStringLiteral("new/folder"));
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        const Outcome<QStringList> written = exportAll(bundle, target, options);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        QStringList names;
        for (const QString &path : written.value())
            names << QFileInfo(path).fileName();
        // Each view the bundle has, by its stem, in each format, then the data.
        const QStringList expected = viewFileNames(chartKindsOf(bundle), {QStringLiteral("png"), QStringLiteral("svg")})
                                     + QStringList{QStringLiteral("results.csv"), QStringLiteral("results.json")};
        QCOMPARE(names, expected);
        QVERIFY(loadBundle(QDir(target).filePath(QStringLiteral("results.json"))).ok());
    }

    void unwritableFolderNamesThePath()
    {
        // A folder below a plain file cannot exist, even for root.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain-file"));
        QFile(file).open(QIODevice::WriteOnly);
        const QString target = file + QStringLiteral("/charts");
        const Outcome<QStringList> written = exportAll(fixtureBundle("ecommerce-4-versions.json"), target, ExportOptions());
        QVERIFY(!written.ok());
        QVERIFY2(written.error().contains(target), qPrintable(written.error()));
    }

    void badOptionsAreErrors()
    {
        ExportOptions options;
        options.size = QSize(0, 0);
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::Throughput, options);
        QVERIFY(!image.ok());
        QVERIFY(image.error().contains(QStringLiteral("0x0")));
        QVERIFY(!parseImageSize(QStringLiteral("12x")).ok());
        QCOMPARE(parseImageSize(QStringLiteral("1600x900")).value(), QSize(1600, 900));
        QVERIFY(!parseImageFormats(QStringLiteral("png,gif")).ok());
        QVERIFY(!parseColorTheme(QStringLiteral("pink")).ok());
        QTemporaryDir dir;
        const Status status = exportChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::Throughput, ExportOptions(),
                                          dir.filePath(QStringLiteral("chart.gif")));
        QVERIFY(!status.ok());
        QVERIFY(status.error().contains(QStringLiteral("chart.gif")));
    }

    // Reports the time of a full export at 2400×1350 PNG (blog at 2×); no assertion on it.
    void exportAllSpeed()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        ExportOptions options;
        options.scale = 2;
        QTemporaryDir dir;
        QBENCHMARK {
            QVERIFY(exportAll(bundle, dir.path(), options).ok());
        }
    }

    void renderSpeed()
    {
        const ResultsBundle bundle = fixtureBundle("ecommerce-4-versions.json");
        ExportOptions options;
        options.scale = 2;
        QBENCHMARK {
            QVERIFY(renderChart(bundle, ChartKind::UsecPerCommand, options).ok());
        }
    }

    // Not an assertion: with VERSUS_CHART_REVIEW_DIR set, writes every preset and theme for a
    // person to look at.
    void writeReviewImages()
    {
        const QString dir = qEnvironmentVariable("VERSUS_CHART_REVIEW_DIR");
        if (dir.isEmpty())
            QSKIP("set VERSUS_CHART_REVIEW_DIR to write review images");
        for (const char *bundleName : {"ecommerce-4-versions.json", "hash-ttl-3-versions.json"}) {
            const ResultsBundle bundle = fixtureBundle(bundleName);
            for (const SizePreset &preset : sizePresets()) {
                for (ColorTheme theme : {ColorTheme::Light, ColorTheme::Dark, ColorTheme::Transparent}) {
                    ExportOptions options = presetOptions(preset.name);
                    options.theme = theme;
                    const QString folder = QStringLiteral("%1/%2/%3-%4")
                                               .arg(dir, bundle.workload.name, preset.name, colorThemeName(theme));
                    QVERIFY(exportAll(bundle, folder, options).ok());
                }
            }
        }
    }
};

QTEST_MAIN(TestChartExporter)
#include "tst_chartexporter.moc"
