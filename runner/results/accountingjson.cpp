#include "accountingjson.h"

#include <cstdlib>

namespace {

constexpr long long kLargestSizeClass = 1LL << 40;

long long sizeClassOf(const Json &at, const std::string &name)
{
    char *end = nullptr;
    const long long size = name.empty() || name.size() > 13 || name.find_first_not_of("0123456789") != std::string::npos
        ? 0
        : std::strtoll(name.c_str(), &end, 10);
    if (size < 1 || size > kLargestSizeClass)
        failAtJson(at, "size class \"" + name.substr(0, 40) + "\" is no whole number of bytes from 1 to 2^40");
    return size;
}

} // namespace

Json accountingToJson(const MemoryAccounting &accounting)
{
    Json regions = Json::object();
    for (const auto &[size, count] : accounting.regions)
        regions[std::to_string(size)] = count;
    Json json = {{"memory_stats", toJsonObject(accounting.stats)}, {"size_classes", regions}};
    if (!accounting.statsUnavailable.isEmpty())
        json["memory_stats_unavailable"] = accounting.statsUnavailable;
    if (!accounting.regionsUnavailable.isEmpty())
        json["size_classes_unavailable"] = accounting.regionsUnavailable;
    return json;
}

void readAccounting(const Json &object, std::optional<MemoryAccounting> &out)
{
    const auto found = object.find("accounting");
    if (found == object.end())
        return;
    const Json &json = *found;
    requireObject(json);
    MemoryAccounting accounting;
    readOptional(json, "memory_stats", accounting.stats);
    readOptional(json, "memory_stats_unavailable", accounting.statsUnavailable);
    readOptional(json, "size_classes_unavailable", accounting.regionsUnavailable);
    if (const auto classes = json.find("size_classes"); classes != json.end()) {
        requireObject(*classes);
        for (const auto &[name, count] : classes->items())
            readValue(count, accounting.regions[sizeClassOf(count, name)]);
    }
    out = std::move(accounting);
}
