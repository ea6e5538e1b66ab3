#pragma once
// The figures as Markdown tables, as `versus run` prints them and Copy ▸ Markdown copies them
// (docs/BUNDLE.md).

#include "categoryorder.h"
#include "figures.h"
#include "markdowntable.h"
#include <QString>

// The memory and command tables list their categories in `order` (the window's Sort, --sort).
QString bundleToMarkdown(const Figures &figures, CategoryOrder order = CategoryOrder::Workload);
QString bundleToMarkdown(const ResultsBundle &bundle);
