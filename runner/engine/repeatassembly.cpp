#include "repeatassembly.h"

#include "liveprobe.h"

namespace {

// A timed pass's errors. The server's "unknown command" replies are not among them (the pass
// keeps them apart): they say a type is unsupported, which the type's own figures record.
void addErrors(RepeatResult &result, const PassResult &pass)
{
    for (const auto &[key, count] : pass.errors)
        result.errors[key] += count;
    if (result.firstError.isEmpty())
        result.firstError = pass.firstError;
}

// "EVAL 1, MIGRATE 1"
QString countsText(const std::map<QString, long long> &counts)
{
    QStringList parts;
    for (const auto &[name, count] : counts)
        parts << QStringLiteral("%1 %2").arg(name).arg(count);
    return parts.join(QStringLiteral(", "));
}

PassTiming timingOf(const PassMeasurement &measured)
{
    PassTiming timing;
    timing.byCommand = measured.stats;
    timing.serverTime = measured.serverTime;
    timing.load = measured.load;
    timing.tails = measured.tails;
    timing.events = measured.pass.eventsSent;
    timing.commands = measured.pass.commands;
    timing.seconds = measured.pass.activeSeconds;
    timing.latencyP50Usec = measured.pass.percentileUsec(0.50);
    timing.latencyP99Usec = measured.pass.percentileUsec(0.99);
    return timing;
}

} // namespace

RepeatAssembly::RepeatAssembly(const WorkloadInfo &workload, Hooks hooks) : m_workload(workload), m_hooks(std::move(hooks)) {}

std::vector<PassPlan> RepeatAssembly::plansOf(const WorkloadInfo &workload)
{
    std::vector<PassPlan> plans;
    if (!workload.typesTimedAlone)
        plans.push_back({QString(), true, QStringLiteral("timed pass")});
    for (const QString &type : workload.types)
        plans.push_back({type, workload.typesTimedAlone,
                         (workload.typesTimedAlone ? QStringLiteral("timed: %1") : QStringLiteral("memory: %1")).arg(type)});
    return plans;
}

void RepeatAssembly::add(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const
{
    result.redirects += Redirects{measured.pass.moved, measured.pass.asked, measured.pass.retried};
    if (plan.type.isEmpty())
        recordCombined(plan, measured, result);
    else
        recordType(plan, measured, result);
}

void RepeatAssembly::recordCombined(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const
{
    result.keys = measured.keys;
    result.usedMemoryDelta = measured.usedMemoryDelta;
    result.nodes = measured.nodes;
    result.accounting = measured.accounting;
    result.loss = measured.loss;
    result.timing = timingOf(measured);
    addErrors(result, measured.pass);
    recordUnknownCommands(measured.pass, m_workload.unsupportedByCommand, nullptr, result);
    recordRefusals(plan.label, measured, result);
}

void RepeatAssembly::recordType(const PassPlan &plan, const PassMeasurement &measured, RepeatResult &result) const
{
    const QString &type = plan.type;
    TypeMemory &memory = result.byType[type];
    memory.loss = measured.loss;
    if (plan.timed) {
        memory.timing = timingOf(measured);
        addErrors(result, measured.pass);
        recordRefusals(plan.label, measured, result);
    }
    if (recordUnknownCommands(measured.pass, m_workload.unsupportedByCommand, &memory, result)) {
        m_hooks.log(QStringLiteral("%1 unsupported: %2").arg(type, memory.error));
        m_hooks.progressMessage(QStringLiteral("%1 unsupported").arg(type));
        return;
    }
    if (!measured.pass.unknownCommands.empty()) {
        m_hooks.log(QStringLiteral("%1: unknown to this server, left out of the comparison: %2")
                        .arg(type, countsText(measured.pass.unknownCommands)));
        m_hooks.progressMessage(QStringLiteral("%1 unsupported").arg(measured.pass.unknownCommands.begin()->first));
    }
    memory.keys = measured.keys;
    memory.usedMemoryDelta = measured.usedMemoryDelta;
    memory.nodes = measured.nodes;
    memory.memoryUsageBytesPerKey =
        measured.survey.keys > 0 ? double(measured.survey.memoryUsageBytes) / double(measured.survey.keys) : 0.0;
    memory.encodings = measured.survey.encodings;
    memory.accounting = measured.accounting;
}

// A timed pass's refusals and the commands the server counted that Versus did not send: in
// the repeat's result and in the log, never silent.
void RepeatAssembly::recordRefusals(const QString &label, const PassMeasurement &measured, RepeatResult &result) const
{
    for (const auto &[command, count] : measured.pass.refused)
        result.refused[command] += count;
    for (const auto &[command, count] : measured.countedNotSent)
        result.countedNotSent[command] += count;
    if (!measured.pass.refused.empty())
        m_hooks.log(QStringLiteral("%1: refused, not run: %2").arg(label, countsText(measured.pass.refused)));
    if (!measured.countedNotSent.empty())
        m_hooks.log(QStringLiteral("%1: the server counted commands Versus did not send: %2")
                        .arg(label, countsText(measured.countedNotSent)));
}
