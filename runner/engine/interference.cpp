#include "interference.h"

#include <QLocale>
#include <QStringList>

namespace {

QString topOf(const QString &row)
{
    const qsizetype bar = row.indexOf(QLatin1Char('|'));
    return bar < 0 ? row : row.left(bar);
}

bool isFlush(const QString &command)
{
    return command == QLatin1String("flushall") || command == QLatin1String("flushdb") || command == QLatin1String("swapdb");
}

// Calls the server counted of a transaction's commands depend on whether EXEC ran them; QUIT
// is not a counted command on every version.
bool countsAreUncertain(const CommandTally &sent)
{
    return sent.ofCommand(QStringLiteral("multi")) > 0 || sent.ofCommand(QStringLiteral("exec")) > 0
        || sent.ofCommand(QStringLiteral("quit")) > 0;
}

// `calls`: per commandstats row, what the server counted that Versus's control and replay
// connections did not send (negative when it counted fewer of Versus's own than were sent).
Interference judge(const std::map<QString, long long> &calls, const CommandTally &sent, const CommandTally &errors)
{
    Interference found;
    std::map<QString, long long> byCommand;
    for (const auto &[row, count] : calls) {
        const QString command = topOf(row);
        byCommand[command] += count;
        if (row == QLatin1String("config|resetstat") && count > 0 && sent.ofRow(row) == 0)
            found.statsReset = true;
    }
    for (const auto &[command, count] : byCommand) {
        if (isFlush(command) && count > sent.ofCommand(command))
            found.flushes[commandLabel(command)] = count - sent.ofCommand(command);
    }
    if (countsAreUncertain(sent))
        return found;
    for (const auto &[command, count] : sent.byCommand()) {
        const long long answered = count - errors.ofCommand(command);
        const auto counted = byCommand.find(command);
        const long long seen = counted == byCommand.end() ? 0 : counted->second;
        if (seen < answered)
            found.fewerCalls[commandLabel(command)] = Interference::Fewer{seen, answered};
    }
    return found;
}

} // namespace

Interference interferenceSinceReset(const std::map<QString, CommandStat> &counted, const CommandTally &versusOwn,
                                    const CommandTally &sent, const CommandTally &errors)
{
    std::map<QString, long long> calls;
    for (const auto &[row, stat] : counted)
        calls[row] = stat.calls - versusOwn.ofRow(row);
    Interference found = judge(calls, sent, errors);
    // Versus's own FLUSHALL came after its CONFIG RESETSTAT: a row that lost it was reset since.
    const QString flushall = QStringLiteral("flushall");
    const auto row = counted.find(flushall);
    if ((row == counted.end() ? 0 : row->second.calls) < versusOwn.ofRow(flushall))
        found.statsReset = true;
    return found;
}

Interference interferenceBetween(const std::map<QString, CommandStat> &before, const std::map<QString, CommandStat> &after,
                                 const CommandTally &ownBefore, const CommandTally &ownAfter, const CommandTally &sent,
                                 const CommandTally &errors)
{
    bool wentBack = false;
    for (const auto &[row, stat] : before) {
        const auto now = after.find(row);
        if (now == after.end() || now->second.calls < stat.calls)
            wentBack = true;
    }
    std::map<QString, long long> calls;
    for (const auto &[row, stat] : after) {
        const auto then = before.find(row);
        const long long earlier = then == before.end() ? 0 : then->second.calls;
        calls[row] = stat.calls - earlier - (ownAfter.ofRow(row) - ownBefore.ofRow(row));
    }
    Interference found = judge(calls, sent, errors);
    found.statsReset = found.statsReset || wentBack;
    return found;
}

QString Interference::describe(const QString &pass, long long keysAfter) const
{
    const QLocale c = QLocale::c();
    QStringList seen;
    for (const auto &[command, count] : flushes)
        seen << QStringLiteral("%1 %2 sent by another client: keys deleted").arg(command, c.toString(count));
    if (statsReset)
        seen << QStringLiteral("statistics reset by another client (CONFIG RESETSTAT)");
    if (!fewerCalls.empty()) {
        QStringList fewer;
        for (const auto &[command, counts] : fewerCalls)
            fewer << QStringLiteral("%1 %2 of %3").arg(command, c.toString(counts.counted), c.toString(counts.sent));
        seen << QStringLiteral("calls fewer than sent: %1").arg(fewer.join(QStringLiteral(", ")));
    }
    return QStringLiteral("another client interfered with the pass %1 (%2); %3 keys after it. Its memory and µs are not "
                          "the workload's alone: run one Versus at a time on an endpoint, with no other client flushing "
                          "it or resetting its statistics")
        .arg(pass, seen.join(QStringLiteral("; ")), c.toString(keysAfter));
}
