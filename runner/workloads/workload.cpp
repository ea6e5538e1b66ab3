#include "workload.h"

#include "resp.h"

void appendResp(const WorkloadCommand &command, std::string &out)
{
    appendRespCommand(command.args, out);
}

void EventCommands::clear()
{
    // Reversed, so that add() hands the first command's strings to the first command again.
    for (auto command = commands.rbegin(); command != commands.rend(); ++command)
        m_spare.push_back(std::move(*command));
    commands.clear();
}

WorkloadCommand &EventCommands::add()
{
    if (m_spare.empty())
        return commands.emplace_back();
    commands.push_back(std::move(m_spare.back()));
    m_spare.pop_back();
    return commands.back();
}

WorkloadCommand &EventCommands::add(std::string_view type, std::initializer_list<std::string_view> args)
{
    WorkloadCommand &command = add();
    command.type.assign(type.data(), type.size());
    std::vector<std::string> &kept = command.args;
    while (kept.size() > args.size()) {
        m_spareArgs.push_back(std::move(kept.back()));
        kept.pop_back();
    }
    while (kept.size() < args.size()) {
        if (m_spareArgs.empty()) {
            kept.emplace_back();
            continue;
        }
        kept.push_back(std::move(m_spareArgs.back()));
        m_spareArgs.pop_back();
    }
    size_t i = 0;
    for (const std::string_view arg : args)
        kept[i++].assign(arg.data(), arg.size());
    return command;
}

Status forEachEvent(const Workload &workload, const std::function<Status(long long number, const EventCommands &event)> &visit)
{
    Outcome<std::unique_ptr<CommandSource>> opened = workload.open();
    if (!opened)
        return Error{opened.error()};
    EventCommands event;
    for (long long number = 1;; ++number) {
        event.clear();
        if (!opened.value()->next(event))
            break;
        if (Status visited = visit(number, event); !visited)
            return visited;
    }
    if (!opened.value()->error().isEmpty())
        return Error{opened.value()->error()};
    return Status::success();
}
