#pragma once
// An export folder: every view's chart in every format asked for, in the table's order
// (figureviews.h; the memory Why is one of them), then the data files beside them (results.csv,
// results.json) and, when asked, report.md, which links those images; then a sweep's own charts,
// which report.md does not show.
// Each image is written by its chart's own export
// (chartexporter.h, whyexport.h, sweepexport.h); this file decides what goes into the folder,
// under which names, and checks every name before the first file is written.

#include "figureviews.h"
#include "exportoptions.h"
#include "figures.h"
#include "outcome.h"
#include "resultsbundle.h"
#include "sweepchartdata.h"
#include <QString>
#include <QStringList>
#include <vector>

// Writes the chart of every view the figures have (chartKindsOf()) in every format of
// options.formats into `dir` (created if needed) as <stem>.<ext>, a sweep's own charts, plus
// results.csv and results.json (and report.md with options.report). Returns the paths written.
Outcome<QStringList> exportAll(const Figures &figures, const QString &dir, const ExportOptions &options);
// The same for a chosen set of views, without the sweep charts.
Outcome<QStringList> exportCharts(const Figures &figures, const std::vector<ChartKind> &kinds,
                                  const QString &dir, const ExportOptions &options);
// The names exportCharts() writes into its folder, in order: "<stem>.<ext>" for each
// chart and format, then results.csv and results.json (and report.md).
QStringList exportFileNames(const std::vector<ChartKind> &kinds, const ExportOptions &options);
// The names exportSweepCharts() writes for these kinds.
QStringList sweepExportFileNames(const std::vector<SweepChartKind> &kinds, const ExportOptions &options);
// Every sweep chart of the bundle (none unless it is a sweep) in every format of options.formats
// into `dir`, as <sweepChartFileStem>.<ext>. Returns the paths written.
Outcome<QStringList> exportSweepCharts(const Figures &figures, const QString &dir, const ExportOptions &options);

// The paths of `names` that already exist in `dir`: what an export there would replace.
QStringList existingFiles(const QString &dir, const QStringList &names);
// Refuses, before anything is written, a name in `dir` Versus may not replace: a symbolic link
// (it may point out of the folder), a folder, a device (checkReplaceableByVersus).
Status checkFolderNames(const QString &dir, const QStringList &names);
