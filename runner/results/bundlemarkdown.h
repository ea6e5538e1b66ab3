#pragma once
// The figures as Markdown tables, as `versus run` prints them and Copy ▸ Markdown copies them
// (docs/BUNDLE.md).

#include "categoryorder.h"
#include "figures.h"
#include "markdowntable.h"
#include <QString>
#include <functional>

// The memory and command tables list their categories in `order` (the window's Sort, --sort).
QString bundleToMarkdown(const Figures &figures, CategoryOrder order = CategoryOrder::Workload);
QString bundleToMarkdown(const ResultsBundle &bundle);
// "### Cluster nodes": how each cluster series' keys and bytes spread over its primaries;
// empty without a cluster (clustermarkdown.cpp).
QString clusterNodesMarkdown(const Figures &figures, const QString &heading = QStringLiteral("###"));
// "### Cost of cluster mode": each cluster series' bytes per key less the same version's
// standalone ones; empty without such a pair (Figures::clusterOverhead()).
// Columns are named by `columnName` (id or display name); `image`, when given, is the chart's file.
QString clusterOverheadMarkdown(const Figures &figures, const std::function<QString(const QString &)> &columnName,
                                const QString &heading = QStringLiteral("###"), const QString &image = {});
