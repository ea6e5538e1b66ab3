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
// "### Cluster nodes": how each cluster series' keys and bytes spread over its primaries;
// empty without a cluster (clustermarkdown.cpp).
QString clusterNodesMarkdown(const Figures &figures);
