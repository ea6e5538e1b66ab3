#pragma once
// report.md beside the exported charts (runner/results/reportmarkdown.h), linking the images
// that were just written: PNG where there is one, else SVG (a PDF is not an image in Markdown).

#include "exportoptions.h"
#include "outcome.h"
#include "resultsbundle.h"
#include <QString>
#include <QStringList>

QString reportFileName();   // "report.md"
// Writes report.md into `dir` for `bundle` as `options` shows it (hidden versions left out);
// `written` are the files exported with it. Returns the report's path.
Outcome<QString> writeReport(const ResultsBundle &bundle, const QString &dir, const ExportOptions &options,
                             const QStringList &written);
