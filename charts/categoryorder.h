#pragma once
// The order of a chart's categories, shared by the window's Sort, exports and the CLI.

#include <QString>
#include <optional>

enum class CategoryOrder {
    Workload,   // as the workload lists them (the memory chart) or most frequent first (commands)
    Value,      // largest baseline value first
    Change,     // largest change against the baseline first, either way
    Name,       // alphabetical
};

// "workload", "largest", "change", "name" (the CLI's --sort); nullopt for anything else.
std::optional<CategoryOrder> categoryOrderNamed(const QString &name);
