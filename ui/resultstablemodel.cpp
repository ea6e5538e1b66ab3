#include "resultstablemodel.h"

#include "palette.h"
#include "presentation.h"
#include "resultsstats.h"
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>
#include <cmath>

namespace {

bool isOk(const RepeatResult &repeat) { return repeat.status == QLatin1String("ok"); }

double medianOf(const ServerRun &run, const std::function<double(const RepeatResult &)> &figure)
{
    ServerRun okOnly = run;
    okOnly.repeats.clear();
    for (const RepeatResult &repeat : run.repeats)
        if (isOk(repeat) || run.status == QLatin1String("incomplete"))
            okOnly.repeats.push_back(repeat);
    if (okOnly.repeats.empty())
        return 0;
    return spreadOver(okOnly, figure).median;
}

} // namespace

ResultsTableModel::ResultsTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void ResultsTableModel::setBundle(const ResultsBundle &bundle)
{
    // Live updates keep the same rows: change values in place so views keep their selection.
    const bool sameServers = [&] {
        if (bundle.servers.size() != m_rows.size())
            return false;
        for (size_t i = 0; i < m_rows.size(); ++i)
            if (!bundle.server(m_rows[i].id))
                return false;
        return true;
    }();
    m_bundle = bundle;
    if (sameServers && !m_rows.empty()) {
        rebuildRows();
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    rebuildRows();
    endResetModel();
}

void ResultsTableModel::setBaseline(const QString &serverId)
{
    m_baseline = serverId;
    rebuildRows();
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ResultsTableModel::rebuildRows()
{
    ResultsBundle picked = m_bundle;
    if (!m_baseline.isEmpty() && picked.server(m_baseline))
        picked.baseline = m_baseline;
    const QString baseline = baselineId(picked);
    m_rows.clear();
    for (const QString &id : orderedServerIds(m_bundle)) {
        const ServerRun *run = m_bundle.server(id);
        Row row;
        row.id = id;
        row.name = serverDisplayName(*run);
        row.status = run->status;
        row.error = run->error;
        row.baseline = id == baseline;
        for (const RepeatResult &repeat : run->repeats)
            row.repeats += isOk(repeat) ? 1 : 0;
        row.bytesPerKey = medianOf(*run, [](const RepeatResult &r) { return r.bytesPerKey; });
        row.usecPerCommand = medianOf(*run, [](const RepeatResult &r) { return r.usecPerCall(); });
        row.usecPerEvent = medianOf(*run, [](const RepeatResult &r) { return r.usecPerEvent(); });
        row.eventsPerSecond = medianOf(*run, [](const RepeatResult &r) { return r.eventsPerSecond; });
        row.latencyP99 = medianOf(*run, [](const RepeatResult &r) { return r.latencyP99Usec; });
        // The median's change carries the machine's drift between repeats; this does not.
        if (const ServerRun *base = m_bundle.server(baseline); base && !row.baseline) {
            const Spread ratio = pairedRatioSpread(*run, *base);
            if (ratio.n >= 2)
                row.usecChangeByRepeat =
                    (ratio.hasInterval() ? tr("Against %1, repeat by repeat: %2 (95% interval over %n repeats)", nullptr, ratio.n)
                                         : tr("Against %1, repeat by repeat: %2 (lowest to highest of %n repeats)", nullptr, ratio.n))
                        .arg(serverDisplayName(*base), formatChangeRange(ratio, true));
        }
        m_rows.push_back(row);
    }
}

const ResultsTableModel::Row *ResultsTableModel::baselineRow() const
{
    for (const Row &row : m_rows)
        if (row.baseline)
            return &row;
    return nullptr;
}

int ResultsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    const Row *base = baselineRow();
    auto change = [&](double value, double reference) -> QVariant {
        if (role == SortRole)
            return changePercent(value, reference);
        if (row.baseline)
            return tr("baseline");
        return base && reference != 0 ? QVariant(formatChange(value, reference)) : QVariant();
    };
    auto figure = [&](double value) -> QVariant {
        if (role == SortRole)
            return value;
        return value != 0 ? QVariant(formatFigure(value)) : QVariant(QStringLiteral("–"));
    };

    if (role == Qt::DisplayRole || role == SortRole) {
        switch (Column(index.column())) {
        case ServerColumn:
            return role == SortRole ? QVariant(index.row()) : QVariant(row.name);
        case StatusColumn:
            return row.status;
        case BytesPerKeyColumn:
            return figure(row.bytesPerKey);
        case BytesChangeColumn:
            return change(row.bytesPerKey, base ? base->bytesPerKey : 0);
        case UsecPerCommandColumn:
            return figure(row.usecPerCommand);
        case UsecChangeColumn:
            return change(row.usecPerCommand, base ? base->usecPerCommand : 0);
        case UsecPerEventColumn:
            return figure(row.usecPerEvent);
        case EventsPerSecondColumn:
            return figure(row.eventsPerSecond);
        case LatencyP99Column:
            return figure(row.latencyP99);
        case RepeatsColumn:
            return row.repeats;
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() <= StatusColumn ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == StatusColumn && !row.error.isEmpty())
        return row.error;
    if (role == Qt::ToolTipRole && index.column() == UsecChangeColumn && !row.usecChangeByRepeat.isEmpty())
        return row.usecChangeByRepeat;
    if (role == Qt::ForegroundRole) {
        if (index.column() == StatusColumn && row.status != QLatin1String("ok"))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if ((index.column() == BytesChangeColumn || index.column() == UsecChangeColumn) && base && !row.baseline) {
            const double value = index.column() == BytesChangeColumn ? row.bytesPerKey : row.usecPerCommand;
            const double reference = index.column() == BytesChangeColumn ? base->bytesPerKey : base->usecPerCommand;
            if (reference != 0 && std::fabs(changePercent(value, reference)) >= 0.05)
                return QBrush(value < reference ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
        }
    }
    if (role == Qt::DecorationRole && index.column() == ServerColumn) {
        const std::map<QString, QColor> colors = serverColors(m_bundle);
        auto it = colors.find(row.id);
        if (it != colors.end())
            return it->second;
    }
    if (role == Qt::FontRole && row.baseline) {
        QFont font;
        font.setBold(true);
        return font;
    }
    return {};
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case ServerColumn: return tr("Server");
    case StatusColumn: return tr("Status");
    case BytesPerKeyColumn: return tr("Bytes per key");
    case BytesChangeColumn: return tr("Δ memory");
    case UsecPerCommandColumn: return tr("µs per command");
    case UsecChangeColumn: return tr("Δ µs");
    case UsecPerEventColumn: return tr("µs per event");
    case EventsPerSecondColumn: return tr("Events/s");
    case LatencyP99Column: return tr("p99 µs");
    case RepeatsColumn: return tr("Repeats");
    case ColumnCount: break;
    }
    return {};
}
