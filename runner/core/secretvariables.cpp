#include "secretvariables.h"

#include <QByteArray>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace {

std::mutex takenMutex;
std::map<std::string, QString> taken;   // variable -> value, for those that were set

} // namespace

void takeSecretVariables()
{
    const std::lock_guard<std::mutex> lock(takenMutex);
    for (const char *name : kSecretVariables) {
        if (!qEnvironmentVariableIsSet(name))
            continue;
        taken[name] = qEnvironmentVariable(name);
        qunsetenv(name);
    }
}

std::optional<QString> secretVariable(const char *name)
{
    {
        const std::lock_guard<std::mutex> lock(takenMutex);
        const auto found = taken.find(name);
        if (found != taken.end())
            return found->second;
    }
    if (qEnvironmentVariableIsSet(name))
        return qEnvironmentVariable(name);
    return std::nullopt;
}
