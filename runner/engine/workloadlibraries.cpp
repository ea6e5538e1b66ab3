#include "workloadlibraries.h"

#include "workload.h"

#include <QString>

Outcome<std::set<std::string>> librariesLoadedBy(const Workload &workload, const QStringList &commandNames)
{
    std::set<std::string> codes;
    if (!commandNames.isEmpty() && !commandNames.contains(QLatin1String("FUNCTION")))
        return codes;
    Outcome<std::unique_ptr<CommandSource>> opened = workload.open();
    if (!opened)
        return Error{opened.error()};
    EventCommands event;
    for (;;) {
        event.clear();
        if (!opened.value()->next(event))
            break;
        for (const WorkloadCommand &command : event.commands) {
            const std::vector<std::string> &args = command.args;
            if (args.size() >= 3 && QString::fromStdString(args[0]).compare(QLatin1String("FUNCTION"), Qt::CaseInsensitive) == 0
                && QString::fromStdString(args[1]).compare(QLatin1String("LOAD"), Qt::CaseInsensitive) == 0)
                codes.insert(args.back());
        }
    }
    if (!opened.value()->error().isEmpty())
        return Error{opened.value()->error()};
    return codes;
}
