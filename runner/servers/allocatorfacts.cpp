#include "allocatorfacts.h"

#include "infoparser.h"
#include "redisconnection.h"

#include <QRegularExpression>
#include <QStringList>

AllocatorFacts parseAllocatorFacts(const QString &infoMemory, const QString &mallocStats, const QString &refusal)
{
    AllocatorFacts facts;
    const std::map<QString, QString> fields = parseInfoFields(infoMemory);
    if (const auto found = fields.find(QStringLiteral("mem_allocator")); found != fields.end())
        facts.memAllocator = found->second;
    if (!refusal.isEmpty()) {
        facts.quantumProblem = QStringLiteral("MEMORY MALLOC-STATS refused: %1").arg(refusal.simplified().left(200));
        return facts;
    }
    static const QRegularExpression quantumLine(QStringLiteral("^Quantum size: (\\d{1,6})\\s*$"),
                                                QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = quantumLine.match(mallocStats);
    if (match.hasMatch() && match.captured(1).toInt() > 0) {
        facts.quantumBytes = match.captured(1).toInt();
        return facts;
    }
    // libc's malloc prints "Stats not supported for the current allocator": no quantum at all.
    if (!facts.memAllocator.isEmpty() && !facts.memAllocator.startsWith(QLatin1String("jemalloc")))
        facts.quantumProblem = QStringLiteral("allocator %1 has no quantum").arg(facts.memAllocator);
    else
        facts.quantumProblem = QStringLiteral("MEMORY MALLOC-STATS printed no \"Quantum size\" line");
    return facts;
}

AllocatorFacts readAllocatorFacts(RedisConnection &connection)
{
    const Outcome<QString> memory = connection.info(QStringLiteral("memory"));
    if (!memory) {
        AllocatorFacts facts;
        facts.quantumProblem = QStringLiteral("INFO memory failed: %1").arg(memory.error());
        return facts;
    }
    const Outcome<Reply> stats = connection.command({"MEMORY", "MALLOC-STATS"});
    if (!stats) {
        AllocatorFacts facts = parseAllocatorFacts(memory.value(), QString(), QString());
        facts.quantumProblem = QStringLiteral("MEMORY MALLOC-STATS failed: %1").arg(stats.error());
        return facts;
    }
    if (stats->kind == Reply::Kind::Error)
        return parseAllocatorFacts(memory.value(), QString(), QString::fromStdString(stats->text));
    if (stats->kind != Reply::Kind::String && stats->kind != Reply::Kind::Status) {
        AllocatorFacts facts = parseAllocatorFacts(memory.value(), QString(), QString());
        facts.quantumProblem = QStringLiteral("MEMORY MALLOC-STATS answered no text");
        return facts;
    }
    return parseAllocatorFacts(memory.value(), QString::fromStdString(stats->text), QString());
}

AllocatorFacts combinedAllocatorFacts(const std::vector<std::pair<QString, AllocatorFacts>> &primaries)
{
    if (primaries.empty())
        return AllocatorFacts();
    const AllocatorFacts &first = primaries.front().second;
    bool agree = true;
    for (const auto &[name, facts] : primaries)
        agree = agree && facts.memAllocator == first.memAllocator && facts.quantumBytes == first.quantumBytes;
    if (agree)
        return first;
    AllocatorFacts combined;
    combined.memAllocator = first.memAllocator;
    QStringList each;
    for (const auto &[name, facts] : primaries) {
        const QString quantum = facts.quantumBytes > 0 ? QStringLiteral("quantum %1 B").arg(facts.quantumBytes)
                                                       : QStringLiteral("quantum unknown");
        each << QStringLiteral("%1 %2, %3").arg(name, facts.memAllocator.isEmpty() ? QStringLiteral("?") : facts.memAllocator, quantum);
    }
    combined.quantumProblem = QStringLiteral("the primaries differ: %1").arg(each.join(QStringLiteral("; ")));
    return combined;
}
