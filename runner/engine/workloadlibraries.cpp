#include "workloadlibraries.h"

#include "workload.h"

#include <QString>

namespace {

bool is(const std::string &word, const char *name)
{
    return QString::fromStdString(word).compare(QLatin1String(name), Qt::CaseInsensitive) == 0;
}

} // namespace

Outcome<std::set<std::string>> librariesLoadedBy(const Workload &workload, const QStringList &commandNames)
{
    std::set<std::string> codes;
    if (!commandNames.isEmpty() && !commandNames.contains(QLatin1String("FUNCTION")))
        return codes;
    const Status read = forEachEvent(workload, [&codes](long long, const EventCommands &event) {
        for (const WorkloadCommand &command : event.commands) {
            if (command.args.size() >= 3 && is(command.args[0], "FUNCTION") && is(command.args[1], "LOAD"))
                codes.insert(command.args.back());
        }
        return Status::success();
    });
    if (!read)
        return Error{read.error()};
    return codes;
}
