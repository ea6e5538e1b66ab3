#pragma once
// report.md: what a writer pastes into a post. The headline changes, each chart's image and its
// tables (figures with their change, and each version against the baseline as "0.92 ± 0.01 ×"),
// what the figures cover and how they were made. Display names throughout ("Valkey 8.0.1").
// Written by `versus export --report` and the window's Export all (docs/EXPORT.md).

#include "categoryorder.h"
#include "figures.h"
#include <QString>
#include <map>

// `images`: the chart files beside the report, by the view's stem (figureviews.h) -> file
// name; a chart without one is written as tables only.
// The memory and command tables follow `order`, as the charts beside them.
QString reportMarkdown(const Figures &figures, const std::map<QString, QString> &images,
                       CategoryOrder order = CategoryOrder::Workload);
