#pragma once
// Exports the Why chart (whychart.h) as the other charts export: an image of exactly the size
// asked for, PNG with its dpi, SVG or PDF, on the same page (chartpage.h): the title with the two
// figures the headline sentence explains, that sentence and the build caveat as the subtitle, and
// the figures layer's other sentences and the provenance as the footnote.

#include "atomicfile.h"
#include "exportoptions.h"
#include "figures.h"
#include "outcome.h"
#include "resultsbundle.h"
#include "whychart.h"
#include <QImage>
#include <QStringList>

// Where things landed in a rendered Why chart, in image pixels.
struct WhyGeometry {
    WhyChartData data;
    QRectF plotArea;
    std::vector<std::vector<QRectF>> segments;   // per bar, per segment
    std::vector<QRectF> totals;                  // per bar
    std::vector<QRectF> netMarks;                // per bar; empty where none
    QStringList legend;                          // the legend's texts, left to right
    QStringList titleLines;
    QStringList subtitleLines;
    QStringList footnotes;                       // the footnote as given to the page, one note each
};

// As for the other charts (chartexporter.h), a Figures says what is shown and `options` how.
// `categoryId`: "all" or a type of figures.memory(); empty: defaultWhyCategory().
Outcome<QImage> renderWhyChart(const Figures &figures, const QString &categoryId, const ExportOptions &options,
                               WhyGeometry *geometry = nullptr);
// One Why chart; the format follows the file's extension (.png, .svg, .pdf). Its name in an
// export folder is its row's (chartFileName(ChartKind::WhyMemory, …), figureviews.h).
Status exportWhyChart(const Figures &figures, const QString &categoryId, const ExportOptions &options,
                      const QString &path, PathOrigin origin = PathOrigin::NamedByUser);
// The default title of the exported Why chart, for the export dialog's placeholder.
QString defaultWhyTitle(const Figures &figures);
