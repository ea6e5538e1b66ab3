// The Why chart of bundles made by real runs (tests/fixtures/bundles/make-real-fixtures.sh):
// exact pixel sizes at every preset, segments in the explanation's parts and the fixed order,
// a part below zero drawn left of zero, "not attributed" drawn in its grey, the reference type's
// bars beside hash-ttl's, and the files Export all writes, report.md's image among them.
#include "bundlefigures.h"
#include "chartexporter.h"
#include "exportfolder.h"
#include "fixturebundle.h"
#include "viewfiles.h"
#include "whyexport.h"

#include <QFileInfo>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

namespace {

// The colour drawn at the middle of `rect` (image pixels).
QColor colourAt(const QImage &image, const QRectF &rect)
{
    return image.pixelColor(rect.center().toPoint());
}

} // namespace

class WhyChartTest : public QObject {
    Q_OBJECT

private slots:
    void exactSizeAtEveryPreset()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-ecommerce.json");
        for (const SizePreset &preset : sizePresets()) {
            for (const ColorTheme theme : allColorThemes()) {
                ExportOptions options;
                options.size = preset.size;
                options.dpi = preset.dpi;
                options.theme = theme;
                WhyGeometry geometry;
                const Outcome<QImage> image = renderWhyChart(bundle, QString(), options, &geometry);
                QVERIFY2(image, qPrintable(image.error()));
                QCOMPARE(image->size(), preset.size);
                // Every bar and its total inside the image, under the title.
                const QRectF inside(QPointF(0, 0), QSizeF(preset.size));
                QCOMPARE(geometry.segments.size(), size_t(3));
                for (const QRectF &total : geometry.totals)
                    QVERIFY2(inside.contains(total), qPrintable(preset.name));
            }
        }
        ExportOptions twice;
        twice.scale = 2;
        const Outcome<QImage> image = renderWhyChart(bundle, QString(), twice);
        QCOMPARE(image->size(), QSize(2400, 1350));
    }

    // A tall page: the bars take its height (they stood in its top third, the rest blank), and
    // the legend names only the parts some bar draws (server overhead and not attributed read
    // 0.0 on every bar of this run: no legend entry for what has no width).
    void tallPagesAreFilledAndTheLegendListsWhatIsDrawn_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("social-tall") << QStringLiteral("social-tall");
        QTest::newRow("a4-portrait") << QStringLiteral("a4-portrait");
    }
    void tallPagesAreFilledAndTheLegendListsWhatIsDrawn()
    {
        QFETCH(QString, preset);
        const ResultsBundle bundle = fixtureBundle("real-why-ecommerce.json");
        const std::optional<SizePreset> size = findSizePreset(preset);
        ExportOptions options;
        options.size = size->size;
        WhyGeometry geometry;
        QVERIFY(renderWhyChart(bundle, QString(), options, &geometry));
        QVERIFY2(geometry.plotArea.height() > size->size.height() * 0.5,
                 qPrintable(QStringLiteral("plot %1 px of %2").arg(geometry.plotArea.height()).arg(size->size.height())));
        QStringList drawn;
        for (const WhyBar &bar : geometry.data.bars) {
            for (const WhySegment &segment : bar.segments) {
                // What is written as 0.0 or −0.0 has no width.
                if (qAbs(segment.bytesPerKey) >= 0.05 && !drawn.contains(segment.label))
                    drawn << segment.label;
            }
        }
        QCOMPARE(geometry.legend, drawn);
        QCOMPARE(geometry.legend, (QStringList{QStringLiteral("main table"), QStringLiteral("expires table"),
                                               QStringLiteral("keys and values")}));
    }

    void segmentsFollowTheExplanation()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-ecommerce.json");
        const Figures figures(bundle);
        const MemoryExplanation explanation = figures.explainMemory(QStringLiteral("all"));
        WhyGeometry geometry;
        QVERIFY(renderWhyChart(bundle, QString(), ExportOptions(), &geometry));
        QCOMPARE(geometry.titleLines.join(QLatin1Char(' ')),
                 QStringLiteral("Where each key's bytes go — All attributes: 191.4 → 175.4 B per key"));
        // The headline sentence, then the caveat, as wrapped to the width, every word of them.
        QCOMPARE(geometry.subtitleLines.join(QString()).remove(QLatin1Char(' ')),
                 QString(explanation.sentence + figures.buildCaveat()).remove(QLatin1Char(' ')));
        QVERIFY(!geometry.footnotes.contains(explanation.sentence));
        QVERIFY(geometry.footnotes.contains(explanation.allocations));
        QCOMPARE(geometry.data.bars.size(), explanation.servers.size());
        QStringList legend;
        for (size_t b = 0; b < explanation.servers.size(); ++b) {
            const MemoryBreakdown &server = explanation.servers[b];
            const WhyBar &bar = geometry.data.bars[b];
            QCOMPARE(bar.serverId, server.serverId);
            QCOMPARE(bar.bytesPerKey, server.bytesPerKey);
            // The explanation's parts, each with its own figure, in the fixed order.
            QCOMPARE(bar.segments.size(), server.parts.size());
            int place = -1;
            for (const WhySegment &segment : bar.segments) {
                QCOMPARE(segment.bytesPerKey, server.part(segment.partId));
                const int at = int(whyPartOrder().indexOf(segment.partId));
                QVERIFY2(at > place, qPrintable(segment.partId));
                place = at;
                if (qAbs(segment.bytesPerKey) >= 0.05 && !legend.contains(segment.label))
                    legend << segment.label;
            }
            QCOMPARE(bar.segments.back().partId, QStringLiteral("not-attributed"));
            // Parts at or above zero stand side by side, left to right, from zero.
            const std::vector<QRectF> &rects = geometry.segments[b];
            QCOMPARE(rects.size(), bar.segments.size());
            QVERIFY(qAbs(rects[1].left() - rects[0].right()) < 0.01);
        }
        QCOMPARE(geometry.legend, legend);
    }

    // Parts counted at the allocator's size classes are said: the compared pair's in the
    // subtitle (its sentence), every other server's in a footnote of its own, once.
    void correctedPartsAreSaidOnce()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-rounding.json");
        const MemoryExplanation explanation = Figures(bundle).explainMemory(QStringLiteral("all"));
        WhyGeometry geometry;
        QVERIFY(renderWhyChart(bundle, QString(), ExportOptions(), &geometry));
        const MemoryBreakdown &debian = *explanation.server(QStringLiteral("valkey-8.0.1"));
        const MemoryBreakdown &redis = *explanation.server(QStringLiteral("redis-7.0.15"));
        QVERIFY(debian.rounding.startsWith(QStringLiteral("Corrected for the allocator: on ")));
        QVERIFY(redis.rounding.startsWith(QStringLiteral("Corrected for the allocator: on ")));
        QCOMPARE(explanation.fromId, debian.serverId);
        QVERIFY2(explanation.sentence.endsWith(debian.rounding), qPrintable(explanation.sentence));
        QVERIFY(!geometry.footnotes.contains(debian.rounding));
        QVERIFY2(geometry.footnotes.contains(redis.rounding), qPrintable(geometry.footnotes.join(QLatin1Char('\n'))));
    }

    // hash-ttl's hsetex against set-ex on real servers: every part is at or above zero (its "not
    // attributed" is a rounding's -0.0), so no bar carries the mark of parts below zero.
    void negativePartAndNotAttributedAreDrawn()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-hash-ttl.json");
        ExportOptions options;
        options.size = QSize(1920, 1080);
        WhyGeometry geometry;
        const Outcome<QImage> image = renderWhyChart(bundle, QString(), options, &geometry);
        QVERIFY(image);
        QCOMPARE(geometry.titleLines.join(QLatin1Char(' ')), QStringLiteral("Where each key's bytes go — hsetex against set-ex"));
        // set-ex on both servers, hsetex on 9.1.2 only (8.0.1 refuses it, and the footnote says so).
        QCOMPARE(geometry.data.bars.size(), size_t(3));
        QCOMPARE(geometry.data.bars[2].name, QStringLiteral("Valkey 9.1.2 · hsetex"));
        QVERIFY(geometry.footnotes.contains(QStringLiteral("hsetex: no bar for Valkey 8.0.1 (unsupported).")));
        QVERIFY(!geometry.data.hasNegativePart);
        for (size_t b = 0; b < geometry.data.bars.size(); ++b)
            QVERIFY(geometry.netMarks[b].isEmpty());
    }

    // The real parts below zero are fractions of a byte; with one of 20 bytes (the server part of
    // the real hsetex bar moved below zero, "not attributed" taking the difference so the parts
    // still add up) the chart draws it left of zero in its colour, and "not attributed" in grey.
    void aWideNegativePartIsDrawnLeftOfZero()
    {
        const ResultsBundle bundle = fixtureBundle("real-why-hash-ttl.json");
        const Figures figures(bundle);
        MemoryExplanation explanation = figures.explainMemory(QStringLiteral("hsetex"));
        QVERIFY(!explanation.servers.empty());
        std::vector<MemoryPart> &parts = explanation.servers.front().parts;
        for (MemoryPart &part : parts) {
            if (part.id == QLatin1String("server")) {
                parts.back().bytesPerKey += part.bytesPerKey + 20;
                part.bytesPerKey = -20;
            }
        }
        WhyChart chart(ColorTheme::Light);
        chart.setData(buildWhyChartData(figures, explanation));
        chart.setSize(QSizeF(1200, 500), QSizeF(1200, 675));
        QImage image(1200, 500, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        chart.paint(&painter, nullptr, nullptr);
        painter.end();
        const WhyLayout layout = chart.layout();
        const WhyBar &bar = chart.data().bars.front();
        QVERIFY(layout.axisMin <= -20);
        const double zero = layout.plotArea.left() + (0 - layout.axisMin) / (layout.axisMax - layout.axisMin) * layout.plotArea.width();
        bool negative = false;
        for (size_t s = 0; s < bar.segments.size(); ++s) {
            const QRectF rect = layout.segments.front()[s];
            const QColor colour = whyPartColor(bar.segments[s].partId, ColorTheme::Light);
            if (bar.segments[s].partId == QLatin1String("server")) {
                negative = true;
                QVERIFY(qAbs(rect.right() - zero) < 0.5);
                QVERIFY(rect.width() > 10);
                QCOMPARE(colourAt(image, rect.adjusted(2, 2, -2, -2)), colour);
            }
            if (bar.segments[s].partId == QLatin1String("not-attributed")) {
                QVERIFY(rect.left() >= zero);
                QCOMPARE(colourAt(image, rect.adjusted(2, 2, -2, -2)), colour);
                QVERIFY(colour != whyPartColor(QStringLiteral("keys-values"), ColorTheme::Light));
            }
        }
        QVERIFY(negative);
        // The measured figure's mark stands where the parts add up to, inside the positive stack.
        QVERIFY(!layout.netMarks.front().isEmpty());
        QVERIFY(layout.netMarks.front().center().x() < layout.segments.front().back().right());
    }

    void exportAllWritesItAndReportLinksIt()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.formats = {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf};
        options.report = true;
        const Outcome<QStringList> written = exportAll(fixtureBundle("real-why-ecommerce.json"), dir.path(), options);
        QVERIFY2(written, qPrintable(written ? QString() : written.error()));
        QStringList names;
        for (const QString &path : written.value())
            names << QFileInfo(path).fileName();
        for (const char *name : {"why-memory.png", "why-memory.svg", "why-memory.pdf"})
            QVERIFY2(names.contains(QLatin1String(name)), name);
        QVERIFY(names.indexOf(QStringLiteral("why-memory.png")) < names.indexOf(QStringLiteral("report.md")));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("why-memory.png"))).size(), QSize(1200, 675));
        // A row of the table of views: written in its place among the others, each in every format.
        const std::vector<ChartKind> kinds = chartKindsOf(fixtureBundle("real-why-ecommerce.json"));
        QVERIFY(std::find(kinds.begin(), kinds.end(), ChartKind::WhyMemory) != kinds.end());
        const QStringList expected = viewFileNames(kinds, {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")})
                                     + QStringList{QStringLiteral("results.csv"), QStringLiteral("results.json"),
                                                   QStringLiteral("report.md")};
        QCOMPARE(names, expected);
        // A bundle of real runs from before the accounting has no Why chart.
        QVERIFY(!hasFiguresFor(Figures(fixtureBundle("real-ecommerce.json")), ChartKind::WhyMemory));
        const std::vector<ChartKind> before = chartKindsOf(fixtureBundle("real-ecommerce.json"));
        QVERIFY(std::find(before.begin(), before.end(), ChartKind::WhyMemory) == before.end());
    }
};

QTEST_MAIN(WhyChartTest)
#include "tst_whychart.moc"
