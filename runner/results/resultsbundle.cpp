#include "resultsbundle.h"

#include <algorithm>

long long PassTiming::totalCalls() const
{
    long long total = 0;
    for (const auto &entry : byCommand)
        total += entry.second.calls;
    return total;
}

long long PassTiming::totalUsec() const
{
    long long total = 0;
    for (const auto &entry : byCommand)
        total += entry.second.usec;
    return total;
}

double PassTiming::usecPerCall() const
{
    const long long calls = totalCalls();
    return calls > 0 ? double(totalUsec()) / double(calls) : 0.0;
}

double PassTiming::usecPerEvent() const
{
    return events > 0 ? double(totalUsec()) / double(events) : 0.0;
}

double PassTiming::eventsPerSecond() const
{
    return seconds > 0 ? double(events) / seconds : 0.0;
}

double PassTiming::commandsPerSecond() const
{
    return seconds > 0 ? double(commands) / seconds : 0.0;
}

long long RepeatResult::errorCount() const
{
    long long total = 0;
    for (const auto &entry : errors)
        total += entry.second;
    return total;
}

long long RepeatResult::refusedCount() const
{
    long long total = 0;
    for (const auto &entry : refused)
        total += entry.second;
    return total;
}

const ServerRun *ResultsBundle::server(const QString &id) const
{
    for (const ServerRun &run : servers) {
        if (run.id == id)
            return &run;
    }
    return nullptr;
}

bool ResultsBundle::holdsAnyServer() const
{
    if (!servers.empty())
        return true;
    return std::any_of(sweep.points.begin(), sweep.points.end(), [](const SweepPoint &point) { return !point.servers.empty(); });
}
