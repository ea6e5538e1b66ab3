#include "serverclock.h"

const std::array<ServerClockCounter, 5> &serverClockCounters()
{
    static const std::array<ServerClockCounter, 5> counters = {{
        {"main_thread_cpu_usec", &ServerClock::mainThreadCpuUsec},
        {"eventloop_cycles", &ServerClock::eventLoopCycles},
        {"eventloop_usec", &ServerClock::eventLoopUsec},
        {"eventloop_cmd_usec", &ServerClock::eventLoopCommandUsec},
        {"commands_processed", &ServerClock::commandsProcessed},
    }};
    return counters;
}

ServerClock ServerClock::since(const ServerClock &before) const
{
    ServerClock change;
    for (const auto &[name, counter] : serverClockCounters()) {
        const std::optional<long long> &now = this->*counter;
        const std::optional<long long> &then = before.*counter;
        if (now && then && *now >= *then)
            change.*counter = *now - *then;
    }
    return change;
}

void ServerClock::add(const ServerClock &other)
{
    for (const auto &[name, counter] : serverClockCounters()) {
        std::optional<long long> &mine = this->*counter;
        const std::optional<long long> &theirs = other.*counter;
        mine = mine && theirs ? std::optional<long long>(*mine + *theirs) : std::nullopt;
    }
}

void ServerClock::takeOff(const ServerClock &own)
{
    for (const auto &[name, counter] : serverClockCounters()) {
        std::optional<long long> &mine = this->*counter;
        const std::optional<long long> &cost = own.*counter;
        if (mine && cost && *cost <= *mine)
            *mine -= *cost;
    }
}
