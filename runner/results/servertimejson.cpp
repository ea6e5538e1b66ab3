#include "servertimejson.h"

#include <climits>

namespace {

// Every counter of `counters` that `values` holds, by name.
template <typename Values, typename Counters>
Json passCountersToJson(const Values &values, const Counters &counters)
{
    Json json = Json::object();
    for (const auto &[name, counter] : counters) {
        if (const std::optional<long long> &value = values.*counter)
            json[name] = *value;
    }
    return json;
}

// object[member]'s counters; absent when it is not an object or holds none.
template <typename Values, typename Counters>
std::optional<Values> passCountersFromJson(const Json &object, const char *member, const Counters &counters)
{
    const auto found = object.find(member);
    if (found == object.end() || !found->is_object())
        return std::nullopt;
    Values values;
    bool any = false;
    for (const auto &[name, counter] : counters) {
        const auto value = found->find(name);
        if (value == found->end())
            continue;
        // Unsigned values above a long long's range read as absent too.
        if (value->is_number_unsigned() && value->template get<unsigned long long>() <= (unsigned long long)(LLONG_MAX))
            values.*counter = value->template get<long long>();
        else if (value->is_number_integer() && !value->is_number_unsigned() && value->template get<long long>() >= 0)
            values.*counter = value->template get<long long>();
        any = any || (values.*counter).has_value();
    }
    return any ? std::optional<Values>(values) : std::nullopt;
}

} // namespace

Json serverTimeToJson(const ServerClock &clock)
{
    return passCountersToJson(clock, serverClockCounters());
}

void readServerTime(const Json &object, std::optional<ServerClock> &out)
{
    if (std::optional<ServerClock> clock = passCountersFromJson<ServerClock>(object, "server_time", serverClockCounters()))
        out = clock;
}

Json passLoadToJson(const PassLoad &load)
{
    return passCountersToJson(load, passLoadCounters());
}

void readPassLoad(const Json &object, std::optional<PassLoad> &out)
{
    if (std::optional<PassLoad> load = passCountersFromJson<PassLoad>(object, "load", passLoadCounters()))
        out = load;
}
