#pragma once
// The export options shared by `versus export` and `versus run --export-dir`.

#include "figureviews.h"
#include "exportoptions.h"
#include "outcome.h"
#include "resultsbundle.h"
#include "sweepchartdata.h"
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <vector>

struct ExportRequest {
    QString directory;               // --export-dir; empty: nothing is exported
    ExportOptions options;
    Figures::Options shown;          // --sort: the Figures the export reads are built with these
    QString sizeOption;              // what set options.size: "--size 400x300", "--preset social", or empty
    std::vector<ChartKind> charts;   // --chart; every chart when empty
    bool enabled() const { return !directory.isEmpty(); }
};

// --export-dir, --preset, --size, --scale, --format, --theme, --title, --subtitle, --footnote, --sort,
// --categories, --top, --report, --chart
void addExportOptions(QCommandLineParser &parser);
// Checks every value; errors name the option and the value at fault.
Outcome<ExportRequest> exportRequestFromParser(const QCommandLineParser &parser);
// The file names the request writes into its folder (charts, results.csv, results.json).
// With every chart asked for, the charts of `bundleKinds` (chartKindsOf()) and the sweep charts
// of `sweepKinds` (sweepChartKinds()).
QStringList exportRequestFileNames(const ExportRequest &request, const std::vector<ChartKind> &bundleKinds,
                                   const std::vector<SweepChartKind> &sweepKinds = {});
// Renders the requested charts of `figures` (built with request.shown) into
// request.directory; returns the files written. Reads that one Figures throughout.
Outcome<QStringList> exportRequested(const Figures &figures, const ExportRequest &request);
