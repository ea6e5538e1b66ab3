#include "liveprobe.h"

#include "commandtally.h"
#include "nodesessions.h"

bool recordUnknownCommands(const PassResult &pass, bool byCommand, TypeMemory *memory, RepeatResult &result)
{
    if (pass.unknownCommands.empty())
        return false;
    long long unknown = 0;
    for (const auto &[command, count] : pass.unknownCommands)
        unknown += count;
    if (byCommand && unknown < pass.commands) {
        // Every pass replays the same commands: the counts of one pass are the repeat's.
        for (const auto &[command, count] : pass.unknownCommands)
            result.unsupportedCommands[command] = std::max(result.unsupportedCommands[command], count);
        return false;
    }
    if (memory) {
        memory->status = TypeStatus::Unsupported;
        memory->error = pass.firstUnknownCommandError;
    }
    return memory != nullptr;
}

QStringList liveProbeCommands()
{
    return {QStringLiteral("INFO"), QStringLiteral("CLIENT"), QStringLiteral("DBSIZE")};
}

namespace {

Outcome<RepeatResult> readNow(NodeSessions &sessions, const RepeatResult &finished, const LivePass &pass, const PassResult &soFar)
{
    const CommandTally own = sessions.ownCommands();   // before the INFO, which does not count itself
    Outcome<std::map<QString, CommandStat>> stats = pass.timed ? sessions.commandStats()
                                                               : Outcome<std::map<QString, CommandStat>>(std::map<QString, CommandStat>());
    if (!stats)
        return Error{stats.error()};
    Outcome<std::vector<long long>> usedByNode = sessions.usedMemory();
    if (!usedByNode)
        return Error{usedByNode.error()};
    Outcome<std::vector<long long>> keysByNode = sessions.dbSizes();
    if (!keysByNode)
        return Error{keysByNode.error()};
    const long long usedBytes = sumOf(usedByNode.value());
    const long long keyCount = sumOf(keysByNode.value());
    PassTiming timing;
    if (pass.timed)
        timing.byCommand = reconcileCommandStats(stats.value(), sentTally(soFar), own).workload;
    timing.events = soFar.eventsSent;
    timing.commands = soFar.commands;
    timing.seconds = soFar.activeSeconds;

    RepeatResult partial = finished;
    partial.status = RepeatStatus::Incomplete;
    const long long delta = usedBytes - pass.baselineBytes;
    if (pass.type.isEmpty()) {
        partial.timing = timing;
        partial.keys = keyCount;
        partial.usedMemoryDelta = delta;
        partial.unfinishedTimedPass = true;
        recordUnknownCommands(soFar, pass.unsupportedByCommand, nullptr, partial);
        return partial;
    }
    TypeMemory memory;
    memory.keys = keyCount;
    memory.usedMemoryDelta = delta;
    if (pass.timed)
        memory.timing = timing;
    recordUnknownCommands(soFar, pass.unsupportedByCommand, &memory, partial);
    partial.byType[pass.type] = memory;
    partial.unfinishedType = pass.type;
    return partial;
}

} // namespace

Outcome<RepeatResult> readLiveFigures(NodeSessions &sessions, const RepeatResult &finished, const LivePass &pass,
                                      const PassResult &soFar)
{
    if (!pass.timed)
        return readNow(sessions, finished, pass, soFar);
    // A timed pass's server time is the change of the server's clock over the pass
    // (passrunner.cpp): what this probe costs the server is read around it and taken off there.
    // What stays in is the closing read's own event loop cycle, which the server counts after
    // answering it: one INFO stats cpu per probe.
    Outcome<ServerClock> before = sessions.serverClock();
    if (!before)
        return Error{before.error()};
    Outcome<RepeatResult> figures = readNow(sessions, finished, pass, soFar);
    Outcome<ServerClock> after = sessions.serverClock();
    if (!after)
        return Error{after.error()};
    sessions.addOwnReadTime(after->since(before.value()));
    return figures;
}
