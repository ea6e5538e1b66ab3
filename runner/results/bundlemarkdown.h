#pragma once
// The figures as Markdown tables, as `versus run` prints them and Copy ▸ Markdown copies them
// (docs/BUNDLE.md).

#include "figures.h"
#include <QString>

QString bundleToMarkdown(const Figures &figures);
QString bundleToMarkdown(const ResultsBundle &bundle);

// One table cell: "217.6 (−10.0%)", "0.52 (−3.1%) †", "unsupported", "failed", "—".
QString markdownCell(const Figure &figure);
