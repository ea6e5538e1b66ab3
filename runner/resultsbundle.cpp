#include "resultsbundle.h"

long long RepeatResult::totalCalls() const
{
    long long total = 0;
    for (const auto &entry : byCommand)
        total += entry.second.calls;
    return total;
}

long long RepeatResult::totalUsec() const
{
    long long total = 0;
    for (const auto &entry : byCommand)
        total += entry.second.usec;
    return total;
}

double RepeatResult::usecPerCall() const
{
    const long long calls = totalCalls();
    return calls > 0 ? double(totalUsec()) / double(calls) : 0.0;
}

double RepeatResult::usecPerEvent() const
{
    return events > 0 ? double(totalUsec()) / double(events) : 0.0;
}

const ServerRun *ResultsBundle::server(const QString &id) const
{
    for (const ServerRun &run : servers) {
        if (run.id == id)
            return &run;
    }
    return nullptr;
}
