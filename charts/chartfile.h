#pragma once
// How a chart on its page (chartpage.h: the bar charts', the sweep charts' and the Why chart's
// alike) becomes an image or a file: rendered at the export's pixel size and dpi, encoded in
// memory and written once, so a failed write leaves the old file (writeFileAtomically).

#include "atomicfile.h"
#include "chartexporter.h"
#include "outcome.h"
#include <QImage>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <functional>

class ChartPage;
class QFont;
class QPainter;

// `text` broken into lines no wider than `width` in `font`, as the charts' titles and
// footnotes wrap (a footnote is never cut short: it says why a figure is marked or missing).
QStringList wrappedLines(const QString &text, const QFont &font, double width);

using ChartPainting = std::function<void(QPainter *, const QRectF &)>;

// The chart at options.pixelSize(), transparent where it draws nothing, with the export's dpi.
Outcome<QImage> paintedImage(const ChartPainting &paint, const ExportOptions &options);
// A composed chart (its render(QPainter *, const QRectF &) fills the area, its geometry(scale)
// says where things landed) painted at options.pixelSize(); `geometry`, when given, receives
// where things landed in image pixels.
template <typename Composed, typename Geometry>
Outcome<QImage> paintedComposition(Composed &chart, const ExportOptions &options, Geometry *geometry)
{
    Outcome<QImage> image = paintedImage([&chart](QPainter *painter, const QRectF &area) { chart.render(painter, area); },
                                         options);
    if (image && geometry)
        *geometry = chart.geometry(double(options.pixelSize().width()) / options.size.width());
    return image;
}
// The one way a chart is written: `page` as `path`, in the format its extension names: PNG at
// options.pixelSize() with its dpi, SVG, or PDF (one page of the image's aspect ratio, as large
// as the image at its dpi). `title` goes into the file's metadata, `stem` ("why-memory") into
// an SVG's description; the options must have passed checkExportOptions(). An unknown extension
// is refused. `origin`: whether the user named `path` or Versus chose it in a folder
// (atomicfile.h).
Status writeChartFile(ChartPage &page, const ExportOptions &options, const QString &title, const QString &stem,
                      const QString &path, PathOrigin origin = PathOrigin::NamedByUser);
