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

// A byte count or region count no reading of a process can give (memoryaccounting.h): kept, it
// would overflow the sums and differences the Why makes of these fields.
void requireAddressable(const Json &at, const std::string &what, long long value)
{
    if (value < -kMostAddressableBytes || value > kMostAddressableBytes)
        failAtJson(at, what + " is " + std::to_string(value) + ", beyond the 2^57 bytes a process can address");
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
    for (const auto &[name, bytes] : accounting.stats)
        requireAddressable(json.at("memory_stats"), "memory_stats \"" + name.left(40).toStdString() + "\"", bytes);
    readOptional(json, "memory_stats_unavailable", accounting.statsUnavailable);
    readOptional(json, "size_classes_unavailable", accounting.regionsUnavailable);
    if (const auto classes = json.find("size_classes"); classes != json.end()) {
        requireObject(*classes);
        for (const auto &[name, count] : classes->items()) {
            long long &regions = accounting.regions[sizeClassOf(count, name)];
            readValue(count, regions);
            requireAddressable(count, "the regions of size class " + name, regions);
        }
    }
    out = std::move(accounting);
}
