// The export themes: the transparent-dark variant has no background and light text, for
// charts laid over dark slides.
#include "bundlefigures.h"
#include "fixturebundle.h"
#include "bundlejson.h"
#include "chartexporter.h"

#include <QTemporaryDir>
#include <QtTest>

namespace {

bool isLight(QRgb pixel)
{
    return qAlpha(pixel) == 255 && std::min({qRed(pixel), qGreen(pixel), qBlue(pixel)}) > 200;
}

bool isDark(QRgb pixel)
{
    return qAlpha(pixel) == 255 && std::max({qRed(pixel), qGreen(pixel), qBlue(pixel)}) < 80;
}

struct Census {
    int transparent = 0;
    int light = 0;
    int dark = 0;
    int opaque = 0;
};

Census census(const QImage &image, const QRect &area)
{
    Census counts;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            counts.transparent += qAlpha(pixel) == 0 ? 1 : 0;
            counts.opaque += qAlpha(pixel) == 255 ? 1 : 0;
            counts.light += isLight(pixel) ? 1 : 0;
            counts.dark += isDark(pixel) ? 1 : 0;
        }
    }
    return counts;
}

} // namespace

class TestChartThemes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip()
    {
        for (ColorTheme theme : allColorThemes()) {
            const Outcome<ColorTheme> parsed = parseColorTheme(colorThemeName(theme));
            QVERIFY2(parsed.ok(), qPrintable(colorThemeName(theme)));
            QCOMPARE(int(parsed.value()), int(theme));
        }
        QCOMPARE(colorThemeName(ColorTheme::TransparentDark), QStringLiteral("transparent-dark"));
        QCOMPARE(colorThemeList(), QStringLiteral("light, dark, transparent or transparent-dark"));
        QCOMPARE(parseColorTheme(QStringLiteral("pink")).error(),
                 QStringLiteral("unknown theme \"pink\" (use light, dark, transparent or transparent-dark)"));
        QVERIFY(isDarkTheme(ColorTheme::TransparentDark));
        QVERIFY(!isDarkTheme(ColorTheme::Transparent));
    }

    // The PNG as written: every corner and most of the picture fully transparent; the title
    // band's opaque pixels light (text for a dark slide), none of them dark.
    void transparentDarkPngHasNoBackgroundAndLightText()
    {
        QTemporaryDir dir;
        ExportOptions options;
        options.theme = ColorTheme::TransparentDark;
        const QString path = dir.filePath(QStringLiteral("memory.png"));
        const Status written = exportChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, options, path);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        const QImage image = QImage(path).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), QSize(1200, 675));
        QVERIFY(image.hasAlphaChannel());
        const int w = image.width() - 1, h = image.height() - 1;
        for (const QPoint corner : {QPoint(0, 0), QPoint(w, 0), QPoint(0, h), QPoint(w, h)})
            QCOMPARE(qAlpha(image.pixel(corner)), 0);
        const Census whole = census(image, image.rect());
        QVERIFY2(whole.transparent > image.width() * image.height() / 2, qPrintable(QString::number(whole.transparent)));

        const QRect titleBand(0, 0, image.width(), image.height() / 10);
        const Census title = census(image, titleBand);
        QVERIFY2(title.light > 300, qPrintable(QString::number(title.light)));
        QCOMPARE(title.dark, 0);
        QVERIFY2(title.light * 10 > title.opaque * 9, qPrintable(QStringLiteral("%1 of %2").arg(title.light).arg(title.opaque)));
    }

    // The light-page variant stays as it was: transparent, with dark text.
    void transparentKeepsDarkText()
    {
        ExportOptions options;
        options.theme = ColorTheme::Transparent;
        const Outcome<QImage> image = renderChart(fixtureBundle("ecommerce-4-versions.json"), ChartKind::MemoryPerAttribute, options);
        QVERIFY(image.ok());
        const QImage argb = image->convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(qAlpha(argb.pixel(0, 0)), 0);
        const Census title = census(argb, QRect(0, 0, argb.width(), argb.height() / 10));
        QVERIFY2(title.dark > 300, qPrintable(QString::number(title.dark)));
        QCOMPARE(title.light, 0);
    }
};

QTEST_MAIN(TestChartThemes)
#include "tst_chartthemes.moc"
