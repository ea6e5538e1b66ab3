#pragma once
// The order of a table's or a chart's categories, shared by the window's Sort, its Copy, the
// exports and the CLI, so a chart and the tables beside it list the categories alike.

#include "figures.h"
#include <QString>
#include <optional>
#include <vector>

enum class CategoryOrder {
    Workload,   // as the workload lists them (the memory chart) or most frequent first (commands)
    Value,      // largest baseline value first
    Change,     // largest change against the baseline first, either way
    Name,       // alphabetical
};

// "workload", "largest", "change", "name" (the CLI's --sort); nullopt for anything else.
std::optional<CategoryOrder> categoryOrderNamed(const QString &name);
QString categoryOrderName(CategoryOrder order);   // the name categoryOrderNamed() reads

// The indices of `table`'s categories in `order`. Totals ("All attributes") stay first and the
// folded rest ("other") last; ties keep the workload order. Value and Change read the
// baseline's column (the first server with figures when the baseline is not in the table).
std::vector<int> orderedCategories(const FigureTable &table, const QString &baselineId, CategoryOrder order);
// `table` with its categories and rows in that order.
FigureTable inCategoryOrder(const FigureTable &table, const QString &baselineId, CategoryOrder order);
