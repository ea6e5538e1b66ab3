#include "resultstablemodel.h"

#include "summaryfigures.h"

#include "figuremarks.h"
#include "palette.h"
#include "presentation.h"
#include "provenance.h"
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <cmath>

namespace {

// `format` writes the value: formatFigure(), or formatMultiple() for a ratio ("3.07×").
QString cellText(const Figure &figure, QString (*format)(double) = formatFigure)
{
    switch (figure.state) {
    case FigureState::Unsupported: return QObject::tr("unsupported");
    case FigureState::NotRun: return figure.note;
    case FigureState::Failed: return QObject::tr("failed");
    case FigureState::Absent: return QStringLiteral("–");
    case FigureState::Pending: return QObject::tr("pending");
    case FigureState::Incomplete: return withFigureMark(format(figure.value), figure.state);
    // The window's table marks a provisional figure by whether it still grows, not with "*".
    case FigureState::Provisional: return format(figure.value) + (figure.growing ? QStringLiteral(" …") : QString());
    case FigureState::Measured: break;
    }
    return withBottleneckMark(format(figure.value), figure);
}

// What the server's time column measures, and over which work when not all of it.
QString serverCpuHeaderTip(const QString &scope)
{
    const QString what = QObject::tr("The server's main-thread CPU (INFO cpu) over the timed work, per command: the commands "
                                     "and the event loop around them (reading, parsing, replies), which commandstats leaves out.");
    return scope.isEmpty() ? what : what + QLatin1Char('\n') + scope;
}

} // namespace

ResultsTableModel::ResultsTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void ResultsTableModel::setFigures(const Figures &figures)
{
    // Live updates keep the same rows: change values in place so views keep their selection.
    const QStringList ids = figures.serverIds();
    const bool sameServers = [&] {
        if (size_t(ids.size()) != m_rows.size())
            return false;
        for (size_t i = 0; i < m_rows.size(); ++i)
            if (!ids.contains(m_rows[i].id))
                return false;
        return true;
    }();
    m_bundle = figures.snapshot();
    if (sameServers && !m_rows.empty()) {
        rebuildRows(figures);
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    rebuildRows(figures);
    endResetModel();
}

void ResultsTableModel::rebuildRows(const Figures &figures)
{
    // Which category each column reads is the figures layer's (summaryfigures.h).
    const SummaryFigures summary = summaryFigures(figures);
    m_referenceType = summary.referenceType;
    m_memoryCategory = summary.memoryLabel;
    m_ratioCategory = summary.ratioLabel;
    m_timeCategory = summary.timeLabel;
    m_scopes = {{BytesPerKeyColumn, summary.memoryScope},
                {ReferenceRatioColumn, m_ratioCategory.isEmpty() ? QString()
                                                                  : tr("%1's bytes per key as a multiple of %2's on the same server")
                                                                        .arg(m_ratioCategory, m_referenceType)},
                {UsecPerCommandColumn, summary.timeScope},
                {UsecPerEventColumn, summary.perEventScope},
                {ServerCpuPerCommandColumn, serverCpuHeaderTip(summary.serverCpuScope)},
                {EventsPerSecondColumn, summary.eventsScope},
                {LatencyP99Column, summary.latencyScope},
                {ServerP99Column, tr("The server's own p99 of its slowest command, from its LATENCY HISTOGRAM: the upper "
                                     "bound of the bucket it falls in (buckets double: 1, 2, 4, 8, 16, 33 µs …). Not the "
                                     "client's round trip.")}};
    m_rows.clear();
    for (const QString &id : figures.serverIds()) {
        Row row;
        row.id = id;
        row.summary = figures.summary(id);
        row.baseline = id == figures.baselineId();
        row.bytesPerKey = summary.memory(id);
        row.referenceRatio = summary.ratio(id);
        row.usecPerCommand = summary.usecPerCommand(id);
        row.usecPerEvent = summary.usecPerEvent(id);
        row.serverCpuPerCommand = summary.serverCpuPerCommand(id);
        row.eventsPerSecond = summary.eventsPerSecond(id);
        row.latencyP99 = summary.latencyP99(id);
        row.serverP99 = summary.serverP99(id);
        row.serverP99Command = summary.serverP99Command(id);
        row.serverTails = summary.serverTailsText(id);
        if (const std::optional<NodeSpread> all = figures.nodeSpread(id, QString()))
            row.nodeSpreads.push_back({tr("all"), *all});
        else
            for (const QString &type : figures.types())
                if (const std::optional<NodeSpread> spread = figures.nodeSpread(id, type))
                    row.nodeSpreads.push_back({type, *spread});
        m_rows.push_back(row);
    }
}

const Figure *ResultsTableModel::figureAt(int row, Column column) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return nullptr;
    const Row &r = m_rows[size_t(row)];
    switch (column) {
    case BytesPerKeyColumn:
    case BytesChangeColumn: return &r.bytesPerKey;
    case ReferenceRatioColumn: return &r.referenceRatio;
    case UsecPerCommandColumn:
    case UsecChangeColumn: return &r.usecPerCommand;
    case UsecPerEventColumn: return &r.usecPerEvent;
    case ServerCpuPerCommandColumn: return &r.serverCpuPerCommand;
    case EventsPerSecondColumn: return &r.eventsPerSecond;
    case LatencyP99Column: return &r.latencyP99;
    case ServerP99Column: return &r.serverP99;
    default: return nullptr;
    }
}

int ResultsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsTableModel::displayOf(const Row &row, Column column) const
{
    switch (column) {
    case ServerColumn: return row.summary.name;
    case StatusColumn: return row.summary.statusText();
    case RepeatsColumn: return row.summary.countedRepeats;
    case BytesChangeColumn:
    case UsecChangeColumn: {
        if (row.baseline)
            return tr("baseline");
        const Figure &figure = column == BytesChangeColumn ? row.bytesPerKey : row.usecPerCommand;
        return figure.change ? QVariant(withUnresolvedMark(formatPercentChange(*figure.change), figure)) : QVariant();
    }
    default: break;
    }
    const Figure *figure = figureAt(int(&row - m_rows.data()), column);
    if (column == ServerP99Column && row.serverP99.hasValue())
        return tr("%1 (%2)").arg(Figures::serverTailText(row.serverP99), row.serverP99Command);
    if (column == ReferenceRatioColumn && !hasReferenceRatio())
        return QVariant();
    return figure ? QVariant(cellText(*figure, column == ReferenceRatioColumn ? formatMultiple : formatFigure)) : QVariant();
}

QVariant ResultsTableModel::sortKeyOf(const Row &row, Column column) const
{
    switch (column) {
    case ServerColumn: return int(&row - m_rows.data());
    case StatusColumn: return row.summary.statusText();
    case RepeatsColumn: return row.summary.countedRepeats;
    case BytesChangeColumn: return row.bytesPerKey.change.value_or(0);
    case UsecChangeColumn: return row.usecPerCommand.change.value_or(0);
    default: break;
    }
    const Figure *figure = figureAt(int(&row - m_rows.data()), column);
    return figure && figure->hasValue() ? figure->value : 0.0;
}

QVariant ResultsTableModel::toolTipOf(const Row &row, Column column) const
{
    if (column == StatusColumn && !row.summary.firstError.isEmpty())
        return tr("First error: %1").arg(row.summary.firstError);
    if (column == StatusColumn && !row.summary.error.isEmpty())
        return row.summary.error;
    if (column == UsecChangeColumn && !row.baseline && row.usecPerCommand.pairedRatio.n >= 2) {
        const Spread &ratio = row.usecPerCommand.pairedRatio;
        QString baseName;
        for (const Row &other : m_rows)
            if (other.baseline)
                baseName = other.summary.name;
        const QString range = (ratio.hasInterval() ? tr("Against %1, repeat by repeat: %2 (95% interval over %n repeats)", nullptr, ratio.n)
                                                   : tr("Against %1, repeat by repeat: %2 (lowest to highest of %n repeats)", nullptr, ratio.n))
                                  .arg(baseName, formatChangeRange(ratio, true));
        return row.usecPerCommand.unresolved.isEmpty() ? range : range + QLatin1Char('\n') + row.usecPerCommand.unresolved;
    }
    if (column == UsecChangeColumn && !row.baseline && !row.usecPerCommand.unresolved.isEmpty())
        return row.usecPerCommand.unresolved;
    // Where the server came from and what its allocator said: the build decides the bytes.
    if (column == ServerColumn) {
        const ServerRun *run = m_bundle->server(row.id);
        const QString build = run ? buildProvenance(*run) : QString();
        return build.isEmpty() ? QVariant() : QVariant(build);
    }
    const Figure *figure = figureAt(int(&row - m_rows.data()), column);
    QStringList lines;
    if (figure && !figure->note.isEmpty())
        lines << figure->note;
    if (column == ServerP99Column && !row.serverTails.isEmpty())
        lines << row.serverTails;
    if (figure && !figure->bottleneck.isEmpty())
        lines << bottleneckMark() + QLatin1Char(' ') + figure->bottleneck;
    if (column == BytesPerKeyColumn && !row.nodeSpreads.empty())
        lines << nodeSpreadText(row.nodeSpreads);
    return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
}

// "Summed over 3 primaries; per primary: all: 10,342–10,560 keys, 172.0–181.3 bytes per key".
QString ResultsTableModel::nodeSpreadText(const std::vector<std::pair<QString, NodeSpread>> &spreads)
{
    const QLocale english(QLocale::English);
    QStringList parts;
    for (const auto &[category, spread] : spreads)
        parts << tr("%1: %2–%3 keys, %4–%5 bytes per key")
                     .arg(category, english.toString(spread.fewestKeys), english.toString(spread.mostKeys),
                          formatFigure(spread.lowestBytesPerKey), formatFigure(spread.highestBytesPerKey));
    const int nodes = spreads.front().second.nodes;
    return (nodes == 1 ? tr("Summed over 1 primary; per primary: ") : tr("Summed over %1 primaries; per primary: ").arg(nodes))
        + parts.join(QStringLiteral("; "));
}

QVariant ResultsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    const Column column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole: return displayOf(row, column);
    case SortRole: return sortKeyOf(row, column);
    case Qt::ToolTipRole: return toolTipOf(row, column);
    case Qt::TextAlignmentRole:
        return column <= StatusColumn ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.baseline) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default: break;
    }
    if (role == Qt::ForegroundRole) {
        if (column == StatusColumn && row.summary.verdict != ServerVerdict::Completed && row.summary.verdict != ServerVerdict::Running)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        const Figure &figure = column == BytesChangeColumn ? row.bytesPerKey : row.usecPerCommand;
        const ChangeMeaning meaning =
            changeMeaning(column == BytesChangeColumn ? Measure::BytesPerKey : Measure::UsecPerCall, figure);
        if ((column == BytesChangeColumn || column == UsecChangeColumn) && !row.baseline && meaning != ChangeMeaning::Neutral)
            return QBrush(meaning == ChangeMeaning::Better ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    }
    if (role == Qt::DecorationRole && column == ServerColumn) {
        const std::map<QString, QColor> colors = serverColors(*m_bundle);
        auto it = colors.find(row.id);
        if (it != colors.end())
            return it->second;
    }
    return {};
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        const auto scope = m_scopes.find(Column(section));
        return scope != m_scopes.end() && !scope->second.isEmpty() ? QVariant(scope->second) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case ServerColumn: return tr("Server");
    case StatusColumn: return tr("Status");
    case BytesPerKeyColumn: return m_memoryCategory.isEmpty() ? tr("Bytes per key") : tr("Bytes per key, %1").arg(m_memoryCategory);
    case ReferenceRatioColumn: return m_ratioCategory.isEmpty() ? tr("× reference") : tr("%1 ÷ %2").arg(m_ratioCategory, m_referenceType);
    case BytesChangeColumn: return tr("Δ memory");
    case UsecPerCommandColumn:
        return m_timeCategory.isEmpty() ? tr("µs per command inside the commands (commandstats)")
                                        : tr("µs inside the commands (commandstats), %1").arg(m_timeCategory);
    case UsecChangeColumn: return tr("Δ µs");
    case UsecPerEventColumn: return tr("µs per event inside the commands (commandstats)");
    case ServerCpuPerCommandColumn: return tr("Server CPU µs per command in all (main thread)");
    case EventsPerSecondColumn: return tr("Events/s");
    case LatencyP99Column: return tr("p99 µs (client round trip)");
    case ServerP99Column: return tr("Server-side p99, slowest command");
    case RepeatsColumn: return tr("Repeats");
    case ColumnCount: break;
    }
    return {};
}
