#include "commandtally.h"

#include <algorithm>

namespace {

QString lowered(const std::string &text)
{
    return QString::fromStdString(text).toLower();
}

QString topOf(const QString &row)
{
    const qsizetype bar = row.indexOf(QLatin1Char('|'));
    return bar < 0 ? row : row.left(bar);
}

long long lookUp(const std::map<QString, long long> &counts, const QString &key)
{
    const auto found = counts.find(key);
    return found == counts.end() ? 0 : found->second;
}

} // namespace

void CommandTally::add(const std::vector<std::string> &args)
{
    if (args.empty())
        return;
    const QString name = lowered(args.front());
    ++m_commands[name];
    if (args.size() > 1)
        ++m_subcommands[name + QLatin1Char('|') + lowered(args[1])];
}

void CommandTally::addName(const std::string &name, long long count)
{
    if (count > 0)
        m_commands[lowered(name)] += count;
}

void CommandTally::merge(const CommandTally &other)
{
    for (const auto &[name, count] : other.m_commands)
        m_commands[name] += count;
    for (const auto &[name, count] : other.m_subcommands)
        m_subcommands[name] += count;
}

void CommandTally::clear()
{
    m_commands.clear();
    m_subcommands.clear();
}

long long CommandTally::ofRow(const QString &row) const
{
    return row.contains(QLatin1Char('|')) ? lookUp(m_subcommands, row) : lookUp(m_commands, row);
}

long long CommandTally::ofCommand(const QString &name) const
{
    return lookUp(m_commands, name);
}

QString commandLabel(const QString &row)
{
    return row.toUpper().replace(QLatin1Char('|'), QLatin1Char(' '));
}

ReconciledStats reconcileCommandStats(const std::map<QString, CommandStat> &counted, const CommandTally &workloadSent,
                                      const CommandTally &versusOwn)
{
    ReconciledStats result;
    std::map<QString, long long> countedByCommand;   // the workload's commands, every row of each summed
    for (const auto &[row, stat] : counted) {
        const long long calls = std::max(0LL, stat.calls - versusOwn.ofRow(row));
        const QString command = topOf(row);
        if (workloadSent.ofCommand(command) == 0) {
            if (calls > 0)
                result.countedNotSent[commandLabel(row)] += calls;
            continue;
        }
        countedByCommand[command] += calls;
        if (calls > 0)
            result.workload[row] = CommandStat{calls, stat.usec};
    }
    for (const auto &[command, calls] : countedByCommand) {
        const long long beyond = calls - workloadSent.ofCommand(command);
        if (beyond > 0)
            result.countedNotSent[commandLabel(command)] += beyond;
    }
    return result;
}
