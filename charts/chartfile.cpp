#include "chartfile.h"

#include "atomicfile.h"
#include "chartpage.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextLayout>
#include <cmath>

QStringList wrappedLines(const QString &text, const QFont &font, double width)
{
    QStringList lines;
    QTextLayout layout(text, font);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    // A last line of one word (a title's "−6.6%") does not stand alone: the word before it
    // goes down with it, when the two fit.
    if (lines.size() > 1 && !lines.last().contains(QLatin1Char(' '))) {
        QString &before = lines[lines.size() - 2];
        const qsizetype space = before.lastIndexOf(QLatin1Char(' '));
        const QString joined = before.mid(space + 1) + QLatin1Char(' ') + lines.last();
        if (space > 0 && QFontMetricsF(font).horizontalAdvance(joined) <= width) {
            lines.last() = joined;
            before.truncate(space);
        }
    }
    return lines;
}

Outcome<QImage> paintedImage(const ChartPainting &paint, const ExportOptions &options)
{
    const QSize pixels = options.pixelSize();
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return Error{QStringLiteral("cannot allocate a %1x%2 image").arg(pixels.width()).arg(pixels.height())};
    image.fill(Qt::transparent);
    const int dotsPerMeter = int(std::lround(options.dpi * options.scale / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QPainter painter(&image);
    paint(&painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
    painter.end();
    return image;
}

namespace {

Status writePngFile(const QImage &image, const QString &path, PathOrigin origin)
{
    // Encode in memory, then write once: the PNG encoder makes many small writes.
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    // Charts are flat colours: zlib level 1 (Qt quality 80) is nearly as small and much faster.
    writer.setQuality(80);
    if (!writer.write(image))
        return Error{QStringLiteral("%1: cannot encode PNG: %2").arg(path, writer.errorString())};
    return writeFileAtomically(path, bytes, origin);
}

// QSvgGenerator writes its title and description into <title> and <desc> as given: text from a
// bundle or --title must not close them and open a <script>. XML 1.0 also forbids most control
// characters, which would make the file unreadable.
QString svgText(const QString &text)
{
    QString plain;
    plain.reserve(text.size());
    for (const QChar c : text)
        plain += (c.unicode() < 0x20 && c != QLatin1Char('\t')) || c.unicode() == 0x7f ? QChar(QLatin1Char(' ')) : c;
    return plain.toHtmlEscaped();
}

Status writeSvgFile(const ChartPainting &paint, const ExportOptions &options, const QString &title,
                    const QString &description, const QString &path, PathOrigin origin)
{
    const QSize pixels = options.pixelSize();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(pixels);
    generator.setViewBox(QRect(QPoint(0, 0), pixels));
    generator.setResolution(int(std::lround(options.dpi * options.scale)));
    generator.setTitle(svgText(title));
    generator.setDescription(svgText(description));
    QPainter painter;
    if (!painter.begin(&generator))
        return Error{QStringLiteral("%1: cannot start the SVG painter").arg(path)};
    paint(&painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
    painter.end();
    // Text drawn from a bundle or an option may hold control characters, which no XML reader
    // accepts; as bytes below 0x20 they never belong to a UTF-8 sequence.
    for (char &byte : bytes) {
        if (byte >= 0 && byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r')
            byte = ' ';
    }
    return writeFileAtomically(path, bytes, origin);
}

Status writePdfFile(const ChartPainting &paint, const ExportOptions &options, const QString &title, const QString &path,
                    PathOrigin origin)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        const double dpi = options.dpi > 0 ? options.dpi : 96;
        const QSizeF points(options.size.width() / dpi * 72.0, options.size.height() / dpi * 72.0);
        writer.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(int(std::lround(dpi)));
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Versus"));
        QPainter painter;
        if (!painter.begin(&writer))
            return Error{QStringLiteral("%1: cannot start the PDF painter").arg(path)};
        paint(&painter, QRectF(painter.viewport()));
        painter.end();
    }
    return writeFileAtomically(path, bytes, origin);
}

} // namespace

Status writeChartFile(ChartPage &page, const ExportOptions &options, const QString &title, const QString &stem,
                      const QString &path, PathOrigin origin)
{
    const ChartPainting paint = [&page](QPainter *painter, const QRectF &area) { page.render(painter, area); };
    const QString extension = QFileInfo(path).suffix().toLower();
    if (extension == QLatin1String("pdf"))
        return writePdfFile(paint, options, title, path, origin);
    if (extension == QLatin1String("svg"))
        return writeSvgFile(paint, options, title, QStringLiteral("Versus chart: %1").arg(stem), path, origin);
    if (extension != QLatin1String("png"))
        return Error{QStringLiteral("%1: unknown image format \"%2\" (use .png, .svg or .pdf)").arg(path, extension)};
    const Outcome<QImage> image = paintedImage(paint, options);
    if (!image)
        return Error{QStringLiteral("%1: %2").arg(path, image.error())};
    return writePngFile(image.value(), path, origin);
}
