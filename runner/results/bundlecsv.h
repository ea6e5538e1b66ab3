#pragma once
// The figures as CSV: one row per server × metric × category (docs/BUNDLE.md).

#include "figures.h"
#include <QString>

QString bundleToCsv(const Figures &figures);
QString bundleToCsv(const ResultsBundle &bundle);
// A CSV cell: quoted when it holds a comma, quote or line break; a leading = + - @ (which
// spreadsheets would run as a formula) is kept as text.
QString csvField(const QString &value);
