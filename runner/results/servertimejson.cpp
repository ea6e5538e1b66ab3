#include "servertimejson.h"

#include <climits>

namespace {

using Counter = std::optional<long long> ServerClock::*;
struct Field {
    const char *name;
    Counter counter;
};
constexpr Field kFields[] = {
    {"main_thread_cpu_usec", &ServerClock::mainThreadCpuUsec},
    {"eventloop_cycles", &ServerClock::eventLoopCycles},
    {"eventloop_usec", &ServerClock::eventLoopUsec},
    {"eventloop_cmd_usec", &ServerClock::eventLoopCommandUsec},
    {"commands_processed", &ServerClock::commandsProcessed},
};

} // namespace

Json serverTimeToJson(const ServerClock &clock)
{
    Json json = Json::object();
    for (const Field &field : kFields) {
        if (const std::optional<long long> &value = clock.*field.counter)
            json[field.name] = *value;
    }
    return json;
}

void readServerTime(const Json &object, std::optional<ServerClock> &out)
{
    const auto found = object.find("server_time");
    if (found == object.end() || !found->is_object())
        return;
    ServerClock clock;
    for (const Field &field : kFields) {
        const auto value = found->find(field.name);
        if (value == found->end())
            continue;
        // Unsigned values above a long long's range read as absent too.
        if (value->is_number_unsigned() && value->get<unsigned long long>() <= (unsigned long long)(LLONG_MAX))
            clock.*field.counter = value->get<long long>();
        else if (value->is_number_integer() && !value->is_number_unsigned() && value->get<long long>() >= 0)
            clock.*field.counter = value->get<long long>();
    }
    if (clock.any())
        out = clock;
}
