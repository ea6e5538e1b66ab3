#pragma once
// report.md beside the exported charts (runner/results/reportmarkdown.h), linking the images
// that were just written: PNG where there is one, else SVG (a PDF is not an image in Markdown).

#include "figures.h"
#include "outcome.h"
#include <QString>
#include <QStringList>

QString reportFileName();   // "report.md"
// Writes report.md into `dir` for `figures` (hidden versions left out, categories in their
// order); `written` are the files exported with it. Returns the report's path.
Outcome<QString> writeReport(const Figures &figures, const QString &dir, const QStringList &written);
