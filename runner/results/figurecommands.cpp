// The command tables: the workload's command groups, the commands shown as rows of their own
// and those folded into "other", and the client-side tables.

#include "figuresdata.h"

#include <set>

namespace {

const QString kGroupPrefix = QStringLiteral("group:");
const TotalLabel kAllCommands{QStringLiteral("All commands"), QStringLiteral("Commands of %1")};
const TotalLabel kAllEvents{QStringLiteral("All events"), QStringLiteral("Events of %1")};

} // namespace

QString commandGroupOf(const FigureCategory &category)
{
    return category.kind == CategoryKind::CommandGroup ? category.group : QString();
}

namespace {

// The workload's own groups; for a capture, which declares none, "writes" and "reads" from the
// compared servers' COMMAND INFO flags (ServerRun::commandKinds): a command any of them calls a
// write is a write, one that is readonly everywhere it is known a read. Commands some compared
// server does not know are left out, as from the totals.
std::vector<std::pair<QString, QStringList>> commandGroupsOf(const FiguresData &data)
{
    if (!data.bundle.workload.commandGroups.empty())
        return data.bundle.workload.commandGroups;
    const QStringList excluded = data.excludedCommands();
    std::set<QString> writes, reads;
    for (const QString &id : data.comparedIds()) {
        const ServerRun *run = data.bundle.server(id);
        for (const auto &[name, kind] : run ? run->commandKinds : std::map<QString, CommandKind>{}) {
            if (excluded.contains(name, Qt::CaseInsensitive))
                continue;
            if (kind == CommandKind::Write)
                writes.insert(name);
            else if (kind == CommandKind::Read)
                reads.insert(name);
        }
    }
    for (const QString &name : writes)
        reads.erase(name);
    std::vector<std::pair<QString, QStringList>> groups;
    if (!writes.empty())
        groups.emplace_back(QStringLiteral("writes"), QStringList(writes.begin(), writes.end()));
    if (!reads.empty())
        groups.emplace_back(QStringLiteral("reads"), QStringList(reads.begin(), reads.end()));
    return groups;
}

FigureTable commandTable(const FiguresData &data, bool fold, Measure measure = Measure::UsecPerCall)
{
    QString note;
    std::vector<FigureRule> rules;
    if (measure == Measure::UsecPerCall) {
        if (std::optional<FigureRule> total = data.timeTotal(measure, kAllCommands, 2, note))
            rules.push_back(*total);
    }
    // The workload's command groups ("writes"), each Σusec / Σcalls over its commands; a group
    // of one command names that command's own row instead ("EXPIRE (TTL refreshes)"). The
    // first group of several commands leads the table, as the studies lead with it ("per write
    // command").
    std::map<QString, QString> groupOfCommand;
    bool leading = true;
    for (const auto &[name, members] : commandGroupsOf(data)) {
        QStringList lower;
        for (const QString &command : members)
            lower << command.toLower();
        if (lower.size() == 1) {
            groupOfCommand[lower.front()] = name;
            continue;
        }
        const FigureCategory category{kGroupPrefix + name, QStringLiteral("All ") + name, false, QString(), lower,
                                      CategoryKind::CommandGroup, name};
        const FigureRule rule = data.commandRule(lower, category, measure);
        rules.insert(leading ? rules.begin() : rules.end(), rule);
        leading = false;
    }
    const QStringList commands = data.commandsByCalls();
    const int top = data.options.topCommands;
    const int first = fold && int(commands.size()) > top + 1 ? top : int(commands.size());
    // A command the workload names (its own group, or a claim of its description) is never
    // folded into "other": it keeps a row, in the order of calls.
    QStringList shown = commands.mid(0, first);
    QStringList rest;
    for (const QString &command : commands.mid(first)) {
        const bool named = groupOfCommand.count(command) || data.bundle.workload.namedCommands.contains(command, Qt::CaseInsensitive);
        (named ? shown : rest) << command;
    }
    if (rest.size() == 1)
        shown << rest.takeFirst();   // "other (1)" says less than the command's own row
    for (const QString &command : shown) {
        const auto group = groupOfCommand.find(command);
        const QString label = command.toUpper()
            + (group == groupOfCommand.end() ? QString() : QStringLiteral(" (%1)").arg(group->second));
        rules.push_back(data.commandRule({command}, {command, label, false, QString(), {}, CategoryKind::Command, QString()}, measure));
    }
    if (!rest.isEmpty()) {
        const FigureCategory other{QStringLiteral("other"), QStringLiteral("other (%1)").arg(rest.size()), false, QString(), rest,
                                   CategoryKind::Other, QString()};
        rules.push_back(data.commandRule(rest, other, measure));
    }
    return data.tableOf(measure, rules, note);
}

} // namespace

FigureTable Figures::commandTime() const
{
    return d->cachedTable(QStringLiteral("command time"), [this] { return commandTable(*d, d->options.foldOther); });
}

FigureTable Figures::allCommandTimes() const
{
    return d->cachedTable(QStringLiteral("all command times"), [this] { return commandTable(*d, false); });
}

FigureTable Figures::commandCalls() const
{
    return d->cachedTable(QStringLiteral("command calls"), [this] { return commandTable(*d, false, Measure::Calls); });
}

FigureTable Figures::perEvent() const
{
    return d->cachedTable(QStringLiteral("per event"), [this] {
        QString note;
        std::vector<FigureRule> rules;
        if (std::optional<FigureRule> total = d->timeTotal(Measure::UsecPerEvent, kAllEvents, 1, note))
            rules.push_back(*total);
        return d->tableOf(Measure::UsecPerEvent, rules, note);
    });
}

FigureTable Figures::throughput() const
{
    const bool events = throughputInEvents();
    return client(events ? Measure::EventsPerSecond : Measure::CommandsPerSecond);
}

FigureTable totalTable(const FiguresData &data, Measure measure, const std::function<QString(const ServerRun &)> &absent)
{
    static const std::map<Measure, TotalLabel> labels = {
        {Measure::EventsPerSecond, {QStringLiteral("Events"), QString()}},
        {Measure::CommandsPerSecond, {QStringLiteral("Commands"), QString()}},
        {Measure::LatencyP50Usec, {QStringLiteral("p50"), QString()}},
        {Measure::LatencyP99Usec, {QStringLiteral("p99"), QString()}},
        {Measure::UsecPerEvent, kAllEvents},
        {Measure::UsecPerCall, kAllCommands},
        {Measure::MainThreadCpuPerCall, kAllCommands},
        {Measure::EventLoopPerCall, kAllCommands},
        {Measure::MainThreadBusyPercent, kAllCommands},
    };
    QString note;
    std::vector<FigureRule> rules;
    const auto label = labels.find(measure);
    if (label != labels.end()) {
        if (std::optional<FigureRule> total = data.timeTotal(measure, label->second, 1, note)) {
            total->absent = absent;
            rules.push_back(*total);
        }
    }
    return data.tableOf(measure, rules, note);
}

FigureTable Figures::client(Measure measure) const
{
    return d->cachedTable(QStringLiteral("client %1").arg(int(measure)), [this, measure] { return totalTable(*d, measure); });
}
