#include "serverclock.h"

namespace {

using Counter = std::optional<long long> ServerClock::*;
constexpr Counter kCounters[] = {&ServerClock::mainThreadCpuUsec, &ServerClock::eventLoopCycles, &ServerClock::eventLoopUsec,
                                 &ServerClock::eventLoopCommandUsec, &ServerClock::commandsProcessed};

} // namespace

ServerClock ServerClock::since(const ServerClock &before) const
{
    ServerClock change;
    for (Counter counter : kCounters) {
        const std::optional<long long> &now = this->*counter;
        const std::optional<long long> &then = before.*counter;
        if (now && then && *now >= *then)
            change.*counter = *now - *then;
    }
    return change;
}

void ServerClock::add(const ServerClock &other)
{
    for (Counter counter : kCounters) {
        std::optional<long long> &mine = this->*counter;
        const std::optional<long long> &theirs = other.*counter;
        mine = mine && theirs ? std::optional<long long>(*mine + *theirs) : std::nullopt;
    }
}

void ServerClock::takeOff(const ServerClock &own)
{
    for (Counter counter : kCounters) {
        std::optional<long long> &mine = this->*counter;
        const std::optional<long long> &cost = own.*counter;
        if (mine && cost && *cost <= *mine)
            *mine -= *cost;
    }
}
