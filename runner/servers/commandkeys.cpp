#include "commandkeys.h"

#include <algorithm>
#include <cctype>

namespace {

constexpr size_t kFlagsField = 2;
constexpr size_t kFirstKeyField = 3;
constexpr size_t kLastKeyField = 4;
constexpr size_t kStepField = 5;

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool isScript(const std::string &name)
{
    return name == "eval" || name == "evalsha" || name == "eval_ro" || name == "evalsha_ro" || name == "fcall"
        || name == "fcall_ro";
}

// EVAL script numkeys key… arg…: the keys are the numkeys arguments after the count.
std::optional<std::vector<std::string_view>> scriptKeys(const std::vector<std::string> &args)
{
    if (args.size() < 3)
        return std::nullopt;
    const std::string &count = args[2];
    if (count.empty() || !std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); })
        || count.size() > 9)
        return std::nullopt;
    const size_t keys = std::stoul(count);
    if (3 + keys > args.size())
        return std::nullopt;
    return std::vector<std::string_view>(args.begin() + 3, args.begin() + 3 + long(keys));
}

} // namespace

void CommandKeys::add(const std::string &name, const CommandKeySpec &spec)
{
    m_specs[lower(name)] = spec;
}

Outcome<CommandKeys> CommandKeys::fromServer(RedisConnection &connection, const std::vector<std::string> &names)
{
    std::vector<std::string> ask{"COMMAND", "INFO"};
    ask.insert(ask.end(), names.begin(), names.end());
    const Outcome<Reply> reply = connection.command(ask);
    if (!reply)
        return Error{reply.error()};
    if (reply->isError() || reply->elements.size() != names.size())
        return Error{QStringLiteral("%1: COMMAND INFO: %2")
                         .arg(connection.name(), reply->isError() ? QString::fromStdString(reply->text)
                                                                  : QStringLiteral("not one entry per command"))};
    CommandKeys keys;
    for (size_t i = 0; i < names.size(); ++i) {
        const Reply &entry = reply->elements[i];
        if (entry.kind != Reply::Kind::Array || entry.elements.size() <= kStepField)
            continue;   // unknown to this server
        CommandKeySpec spec;
        spec.first = int(entry.elements[kFirstKeyField].integer);
        spec.last = int(entry.elements[kLastKeyField].integer);
        spec.step = int(entry.elements[kStepField].integer);
        for (const Reply &flag : entry.elements[kFlagsField].elements)
            spec.movable = spec.movable || flag.text == "movablekeys";
        keys.add(names[i], spec);
    }
    return keys;
}

bool CommandKeys::knows(const std::string &name) const
{
    const std::string lowered = lower(name);
    return isScript(lowered) || m_specs.count(lowered) > 0;
}

std::optional<std::vector<std::string_view>> CommandKeys::keysOf(const std::vector<std::string> &args) const
{
    if (args.empty())
        return std::nullopt;
    const std::string name = lower(args.front());
    if (isScript(name))
        return scriptKeys(args);
    const auto found = m_specs.find(name);
    if (found == m_specs.end() || found->second.movable)
        return std::nullopt;
    const CommandKeySpec &spec = found->second;
    std::vector<std::string_view> keys;
    if (spec.first <= 0 || spec.step <= 0)
        return keys;
    const long count = long(args.size());
    const long last = spec.last < 0 ? count + spec.last : spec.last;
    for (long i = spec.first; i <= std::min(last, count - 1); i += spec.step)
        keys.emplace_back(args[size_t(i)]);
    return keys;
}
