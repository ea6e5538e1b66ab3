#pragma once
// Export is a function, not a dialog: it renders a chart off-screen into an image of exactly
// the size asked for (never the size of a widget), and writes PNG (with its dpi), SVG (text
// kept as text) or PDF (page of the image's aspect ratio). A whole export folder, with the
// data files and the report, is exportfolder.h's.

#include "atomicfile.h"
#include "baroverlay.h"
#include "chartdata.h"
#include "figureviews.h"
#include "exportoptions.h"
#include "outcome.h"
#include "resultsbundle.h"
#include <QImage>
#include <QStringList>

// Where things landed in a rendered image, in image pixels.
struct ChartGeometry {
    QRectF plotArea;
    std::vector<std::vector<QRectF>> bars;   // [series][category], as in buildChartData()
    std::vector<PlacedLabel> labels;         // bar labels and markers; rects in image pixels
    double valueAxisMax = 0;                 // the value axis runs from 0 to this
    int valueAxisTicks = 0;                  // ticks on it, zero included
    ChartData data;
    bool barLabelsShown = true;
    double labelPx = 0;   // bar label text height, in image pixels
    double categoryPx = 0;   // category name text height, in image pixels
    QStringList titleLines;   // the title as drawn: one or two lines, a long second one cut in its middle
    QStringList subtitleLines;   // the subtitle as drawn, each of its lines wrapped to the width
    QStringList footnoteLines;   // the footnote as drawn, top to bottom, each line wrapped to the width
    // The widest category name needs more room than the axis got: the names are drawn cut ("…").
    QString widestCategory;
    bool categoryNamesCut = false;
};

// The size, scale and pixel count are within what can be rendered; errors say which is not.
Status checkExportOptions(const ExportOptions &options);

// Every function that takes a Figures draws what it says (baseline, hidden versions, category
// order, commands shown: Figures::options()) as `options` say how (size, theme, titles, the
// categories picked). Whoever holds a bundle builds its Figures once, with
// figureOptionsOf(options), as `versus export` does.

// An image of exactly options.pixelSize(), with dots per metre set from options.dpi × scale.
// `geometry`, when given, receives where the bars stand. A view drawn as bars only (its row's
// drawing): the memory Why is renderWhyChart()'s (whyexport.h).
Outcome<QImage> renderChart(const Figures &figures, ChartKind kind, const ExportOptions &options,
                            ChartGeometry *geometry = nullptr);

// What makes the chart hard to read at these options, said to the person exporting it and
// never drawn into the image: today, bar labels left out because the bars are too thin. None
// for a view not drawn as bars.
QStringList legibilityProblems(const Figures &figures, ChartKind kind, const ExportOptions &options);
// The same for a chart already rendered (renderChart()'s geometry), without laying it out again;
// `namesFit`, when known, is the size that cut category names would fit at.
QStringList legibilityProblems(ChartKind kind, const ExportOptions &options, const ChartGeometry &laidOut,
                               const std::optional<QSize> &namesFit = std::nullopt);
// The smallest size of options.size's proportions (in steps of 5%, up to four times it) at which
// no category name of `kind` is cut short; none when even that is too small.
std::optional<QSize> sizeForCategoryNames(const Figures &figures, ChartKind kind, const ExportOptions &options);

// The options `kind` is drawn with: `options`, or, with options.tallerWhenCrowded and bars too
// thin for their figures at options.size, the same at the blog-tall size (1200×1500); a view not
// drawn as bars keeps options.size. What comes back has tallerWhenCrowded cleared: it is fitted
// already.
ExportOptions fittedOptions(const Figures &figures, ChartKind kind, const ExportOptions &options);

// Writes one view's chart; the format follows the file's extension (.png, .svg, .pdf). Drawn
// with fittedOptions(), as its row's drawing says: bars here, the memory Why by exportWhyChart()
// (whyexport.h) with its default category.
Status exportChart(const Figures &figures, ChartKind kind, const ExportOptions &options, const QString &path,
                   PathOrigin origin = PathOrigin::NamedByUser);

// "<stem>.<ext>", the chart's name in an export folder (exportfolder.h).
QString chartFileName(ChartKind kind, ImageFormat format);
// Every name of `names` (a --categories list) names a category of at least one of `kinds`'
// charts: "'cpu' is not a category of these charts (they have: All attributes, counter, …)".
Status checkCategoryNames(const Figures &figures, const std::vector<ChartKind> &kinds, const QStringList &names);
