#include "categoryorder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace {

// Totals and command groups first, then the categories, then the folded rest.
int rank(const FigureCategory &category)
{
    if (category.total || coversOthers(category.kind))
        return 0;
    return category.kind == CategoryKind::Other ? 2 : 1;
}

bool hasAnyValue(const FigureTable &table, const QString &id)
{
    for (size_t c = 0; c < table.categories.size(); ++c) {
        if (table.at(int(c), id).hasValue())
            return true;
    }
    return false;
}

// The column Value reads: the baseline's, else the first server with a figure.
QString referenceServer(const FigureTable &table, const QString &baselineId)
{
    if (table.servers.contains(baselineId) && hasAnyValue(table, baselineId))
        return baselineId;
    for (const QString &id : table.servers) {
        if (hasAnyValue(table, id))
            return id;
    }
    return table.servers.value(0);
}

// The largest change any version shows in category `c`, whichever its sign; -1 without one.
double largestChange(const FigureTable &table, int c, const QString &baselineId)
{
    double largest = -1;
    for (const QString &id : table.servers) {
        const Figure &figure = table.at(c, id);
        if (id != baselineId && figure.change)
            largest = std::max(largest, std::abs(*figure.change));
    }
    return largest;
}

QString sortName(QString label)
{
    return label.replace(QLatin1Char('_'), QLatin1Char(' '));
}

const std::map<QString, CategoryOrder> &orderNames()
{
    static const std::map<QString, CategoryOrder> names = {
        {QStringLiteral("workload"), CategoryOrder::Workload},
        {QStringLiteral("largest"), CategoryOrder::Value},
        {QStringLiteral("change"), CategoryOrder::Change},
        {QStringLiteral("name"), CategoryOrder::Name},
    };
    return names;
}

} // namespace

std::optional<CategoryOrder> categoryOrderNamed(const QString &name)
{
    const auto found = orderNames().find(name.trimmed().toLower());
    return found == orderNames().end() ? std::nullopt : std::optional<CategoryOrder>(found->second);
}

QString categoryOrderName(CategoryOrder order)
{
    for (const auto &entry : orderNames()) {
        if (entry.second == order)
            return entry.first;
    }
    return {};
}

std::vector<int> orderedCategories(const FigureTable &table, const QString &baselineId, CategoryOrder order)
{
    std::vector<int> indices(table.categories.size());
    std::iota(indices.begin(), indices.end(), 0);
    if (order == CategoryOrder::Workload || indices.size() < 2)
        return indices;
    const QString reference = referenceServer(table, baselineId);
    auto valueOf = [&](int c) {
        const Figure &figure = table.at(c, reference);
        return figure.hasValue() ? figure.value : 0.0;
    };
    std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
        const FigureCategory &first = table.categories[size_t(a)];
        const FigureCategory &second = table.categories[size_t(b)];
        if (rank(first) != rank(second))
            return rank(first) < rank(second);
        switch (order) {
        case CategoryOrder::Name:
            return sortName(first.label).compare(sortName(second.label), Qt::CaseInsensitive) < 0;
        case CategoryOrder::Change:
            return largestChange(table, a, baselineId) > largestChange(table, b, baselineId);
        default:
            return valueOf(a) > valueOf(b);
        }
    });
    return indices;
}

FigureTable inCategoryOrder(const FigureTable &table, const QString &baselineId, CategoryOrder order)
{
    const std::vector<int> indices = orderedCategories(table, baselineId, order);
    FigureTable ordered = table;
    ordered.categories.clear();
    ordered.cells.clear();
    for (int index : indices) {
        ordered.categories.push_back(table.categories[size_t(index)]);
        ordered.cells.push_back(table.cells[size_t(index)]);
    }
    return ordered;
}
