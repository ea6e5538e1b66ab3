#include "singletypeworkload.h"

#include <algorithm>

namespace {

class SingleTypeSource : public CommandSource {
public:
    SingleTypeSource(std::unique_ptr<CommandSource> inner, const std::string &type)
        : m_inner(std::move(inner)), m_type(type)
    {
    }

    bool next(EventCommands &out) override
    {
        if (!m_inner->next(out))
            return false;
        out.commands.erase(std::remove_if(out.commands.begin(), out.commands.end(),
                                          [this](const WorkloadCommand &command) { return command.type != m_type; }),
                           out.commands.end());
        return true;
    }
    QString error() const override { return m_inner->error(); }

private:
    std::unique_ptr<CommandSource> m_inner;
    std::string m_type;
};

} // namespace

SingleTypeWorkload::SingleTypeWorkload(std::shared_ptr<const Workload> inner, QString type)
    : m_inner(std::move(inner)), m_type(std::move(type)), m_typeBytes(m_type.toStdString())
{
}

WorkloadInfo SingleTypeWorkload::describe() const
{
    WorkloadInfo description = m_inner->describe();
    description.name += QStringLiteral(" (%1 only)").arg(m_type);
    description.types = QStringList{m_type};
    // Commands of one type are not counted by the inner description; count them here once.
    Outcome<std::unique_ptr<CommandSource>> source = open();
    if (source) {
        long long commands = 0;
        EventCommands event;
        while (source.value()->next(event)) {
            commands += static_cast<long long>(event.commands.size());
            event.clear();
        }
        description.commands = commands;
    }
    return description;
}

Outcome<std::unique_ptr<CommandSource>> SingleTypeWorkload::open() const
{
    Outcome<std::unique_ptr<CommandSource>> inner = m_inner->open();
    if (!inner)
        return Error{inner.error()};
    return std::unique_ptr<CommandSource>(std::make_unique<SingleTypeSource>(std::move(inner.value()), m_typeBytes));
}
