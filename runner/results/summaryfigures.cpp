#include "summaryfigures.h"

namespace {

// The row of `table` a server's summary reads: its total or leading group ("All writes"), else
// the reference type's own row (`referenceRow`, by id); -1 for none.
int summaryRow(const FigureTable &table, const QString &referenceRow)
{
    if (table.leadsWithHeadlineCategory())
        return 0;
    return referenceRow.isEmpty() ? -1 : table.categoryIndex(referenceRow);
}

// The time table's row of the reference type: the one command only it sends ("set" of set-ex).
QString referenceCommand(const Figures &figures, const QString &referenceType)
{
    const QStringList commands = referenceType.isEmpty() ? QStringList() : figures.commandsOnlyOf(referenceType);
    return commands.size() == 1 ? commands.front() : QString();
}

// The label a row is named by when it is not a total.
QString rowLabel(const FigureTable &table, int row)
{
    return row < 0 || table.categories[size_t(row)].total ? QString() : table.categories[size_t(row)].label;
}

QString rowScope(const FigureTable &table, int row)
{
    if (row < 0)
        return table.note;
    return table.categories[size_t(row)].scope;
}

void take(std::map<QString, Figure> &into, const FigureTable &table, int row, const QStringList &ids)
{
    if (row < 0)
        return;
    for (const QString &id : ids)
        into[id] = table.at(row, id);
}

} // namespace

const Figure &SummaryFigures::at(const ByServer &figures, const QString &id)
{
    static const Figure none;
    const auto found = figures.find(id);
    return found == figures.end() ? none : found->second;
}

SummaryFigures summaryFigures(const Figures &figures)
{
    SummaryFigures summary;
    const QStringList ids = figures.serverIds();
    summary.referenceType = figures.referenceType();
    const FigureTable memory = figures.memory();
    const int memoryRow = summaryRow(memory, summary.referenceType);
    summary.memoryLabel = rowLabel(memory, memoryRow);
    summary.memoryScope = rowScope(memory, memoryRow);
    take(summary.m_memory, memory, memoryRow, ids);

    const FigureTable ratios = figures.referenceRatios();
    if (!ratios.categories.empty()) {
        summary.ratioLabel = ratios.categories.front().label;
        take(summary.m_ratio, ratios, 0, ids);
    }

    const FigureTable times = figures.commandTime();
    const int timeRow = summaryRow(times, referenceCommand(figures, summary.referenceType));
    summary.timeLabel = rowLabel(times, timeRow);
    summary.timeScope = rowScope(times, timeRow);
    take(summary.m_usecPerCommand, times, timeRow, ids);

    // One category each: the comparable work.
    const std::pair<FigureTable, std::pair<std::map<QString, Figure> *, QString *>> single[] = {
        {figures.perEvent(), {&summary.m_usecPerEvent, &summary.perEventScope}},
        {figures.serverTime(Measure::MainThreadCpuPerCall), {&summary.m_serverCpuPerCommand, &summary.serverCpuScope}},
        {figures.client(Measure::EventsPerSecond), {&summary.m_eventsPerSecond, &summary.eventsScope}},
        {figures.client(Measure::LatencyP99Usec), {&summary.m_latencyP99, &summary.latencyScope}},
    };
    for (const auto &[table, into] : single) {
        const int row = table.leadsWithHeadlineCategory() ? 0 : -1;
        *into.second = rowScope(table, row);
        take(*into.first, table, row, ids);
    }
    summariseTails(figures, ids, summary.m_serverP99, summary.m_serverP99Command, summary.m_serverTailsText);
    return summary;
}

QString SummaryFigures::serverP99Command(const QString &id) const
{
    const auto found = m_serverP99Command.find(id);
    return found == m_serverP99Command.end() ? QString() : found->second;
}

QString SummaryFigures::serverTailsText(const QString &id) const
{
    const auto found = m_serverTailsText.find(id);
    return found == m_serverTailsText.end() ? QString() : found->second;
}
