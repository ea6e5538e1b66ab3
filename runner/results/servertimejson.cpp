#include "servertimejson.h"

#include <climits>

Json serverTimeToJson(const ServerClock &clock)
{
    Json json = Json::object();
    for (const auto &[name, counter] : serverClockCounters()) {
        if (const std::optional<long long> &value = clock.*counter)
            json[name] = *value;
    }
    return json;
}

void readServerTime(const Json &object, std::optional<ServerClock> &out)
{
    const auto found = object.find("server_time");
    if (found == object.end() || !found->is_object())
        return;
    ServerClock clock;
    for (const auto &[name, counter] : serverClockCounters()) {
        const auto value = found->find(name);
        if (value == found->end())
            continue;
        // Unsigned values above a long long's range read as absent too.
        if (value->is_number_unsigned() && value->get<unsigned long long>() <= (unsigned long long)(LLONG_MAX))
            clock.*counter = value->get<long long>();
        else if (value->is_number_integer() && !value->is_number_unsigned() && value->get<long long>() >= 0)
            clock.*counter = value->get<long long>();
    }
    if (clock.any())
        out = clock;
}
