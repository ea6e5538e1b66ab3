#include "passload.h"

const std::array<PassLoadCounter, 10> &passLoadCounters()
{
    static const std::array<PassLoadCounter, 10> counters = {{
        {"wall_usec", &PassLoad::wallUsec},
        {"replay_cpu_usec", &PassLoad::replayCpuUsec},
        {"replay_wait_usec", &PassLoad::replayWaitUsec},
        {"server_wait_usec", &PassLoad::serverWaitUsec},
        {"others_on_server_cpu_usec", &PassLoad::othersOnServerCpuUsec},
        {"steal_usec", &PassLoad::stealUsec},
        {"forks", &PassLoad::forks},
        {"fork_running", &PassLoad::forkRunning},
        {"evicted_keys", &PassLoad::evictedKeys},
        {"foreign_clients", &PassLoad::foreignClients},
    }};
    return counters;
}

bool PassLoad::any() const
{
    for (const auto &[name, counter] : passLoadCounters()) {
        if (this->*counter)
            return true;
    }
    return false;
}
