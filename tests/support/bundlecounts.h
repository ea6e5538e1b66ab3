#pragma once
// Counts read off a results bundle, for tests that compare two servers' runs of one workload.

#include "resultsbundle.h"

#include <QString>
#include <map>

// Each type's keys, by the type's name.
inline std::map<QString, long long> keysByType(const RepeatResult &repeat)
{
    std::map<QString, long long> keys;
    for (const auto &[type, memory] : repeat.byType)
        keys[type] = memory.keys;
    return keys;
}
