#pragma once
// Exports the sweep charts (sweepchart.h) as the other charts export: on the same page
// (chartpage.h: title, subtitle, footnotes), written by the same function (writeChartFile()), an
// image of exactly the size asked for, PNG with its dpi, SVG, or PDF.

#include "atomicfile.h"
#include "exportoptions.h"
#include "outcome.h"
#include "resultsbundle.h"
#include "sweepchartdata.h"
#include <QImage>
#include <QRectF>
#include <QStringList>
#include <vector>

struct SweepGeometry {
    QRectF plotArea;                 // in image pixels
    std::vector<QRectF> labels;      // the lines' end labels, in image pixels
    SweepChartData data;
    QStringList titleLines;          // the title as drawn: one or two lines, as the bar charts'
    QStringList subtitleLines;
};

// An image of exactly options.pixelSize(). `geometry`, when given, receives where things stand.
Outcome<QImage> renderSweepChart(const Figures &figures, SweepChartKind kind, const ExportOptions &options,
                                 SweepGeometry *geometry = nullptr);
// One sweep chart; the format follows the file's extension (.png, .svg, .pdf).
Status exportSweepChart(const Figures &figures, SweepChartKind kind, const ExportOptions &options, const QString &path,
                        PathOrigin origin = PathOrigin::NamedByUser);
