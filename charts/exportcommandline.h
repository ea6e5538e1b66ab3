#pragma once
// The export options shared by `versus export` and `versus run --export-dir`.

#include "outcome.h"
#include "resultsbundle.h"
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

struct ExportRequest {
    QString directory;          // --export-dir; empty: nothing is exported
    QString preset;             // blog, social, slide, a4
    QString size;               // WxH, overrides the preset
    double scale = 1.0;
    QStringList formats;        // png, svg, pdf
    QString theme;              // light, dark, transparent
    QString title;
    QString subtitle;
    QString footnote;
    QStringList charts;         // file stems; empty: every chart
    bool enabled() const { return !directory.isEmpty(); }
};

void addExportOptions(QCommandLineParser &parser);
// Checks every value (preset, size, scale, formats, theme, chart names); errors name the option.
Outcome<ExportRequest> exportRequestFromParser(const QCommandLineParser &parser);
// Renders the requested charts of `bundle` into request.directory; returns the files written.
Outcome<QStringList> exportCharts(const ResultsBundle &bundle, const ExportRequest &request);
