#pragma once
// The figures as CSV: one row per server × metric × category (docs/BUNDLE.md).

#include "categoryorder.h"
#include "figures.h"
#include <QString>

// Within each server and metric, the categories come in `order` (the window's Sort, --sort).
QString bundleToCsv(const Figures &figures, CategoryOrder order = CategoryOrder::Workload);
QString bundleToCsv(const ResultsBundle &bundle);
// A CSV cell: quoted when it holds a comma, quote or line break; a leading = + - @ (which
// spreadsheets would run as a formula) is kept as text.
QString csvField(const QString &value);
