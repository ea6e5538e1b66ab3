#pragma once
// The figures as Markdown tables, as `versus run` prints them and Copy ▸ Markdown copies them
// (docs/BUNDLE.md).

#include "categoryorder.h"
#include "figures.h"
#include <QString>

// The memory and command tables list their categories in `order` (the window's Sort, --sort).
QString bundleToMarkdown(const Figures &figures, CategoryOrder order = CategoryOrder::Workload);
QString bundleToMarkdown(const ResultsBundle &bundle);

// One table cell: "217.6 (−10.0%)", "0.52 (−3.1%) †", "unsupported", "failed", "—".
QString markdownCell(const Figure &figure);
