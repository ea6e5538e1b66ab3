#pragma once
// The results table: one row per server with its headline figures and their change against
// the baseline, as the figures layer gives them. Display text is formatted; Qt::UserRole holds
// the raw number so a QSortFilterProxyModel sorts numerically.

#include "figures.h"
#include "resultsbundle.h"
#include <QAbstractTableModel>
#include <optional>
#include <utility>
#include <vector>

class ResultsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ServerColumn,
        StatusColumn,
        BytesPerKeyColumn,
        BytesChangeColumn,
        ReferenceRatioColumn,   // hash-ttl: hsetex's bytes per key as a multiple of set-ex's
        UsecPerCommandColumn,
        UsecChangeColumn,
        ServerCpuPerCommandColumn,   // the server's main-thread CPU per command, in all
        UsecPerEventColumn,
        EventsPerSecondColumn,
        LatencyP99Column,
        ServerP99Column,   // the server-side p99 of the slowest command (LATENCY HISTOGRAM)
        RepeatsColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit ResultsTableModel(QObject *parent = nullptr);

    // One row per shown server, against the figures' baseline; shares their bundle.
    void setFigures(const Figures &figures);
    // The figure behind a cell; nullptr for the columns that show none.
    const Figure *figureAt(int row, Column column) const;
    // Whether ReferenceRatioColumn has figures: the workload is measured against a reference type.
    bool hasReferenceRatio() const { return !m_ratioCategory.isEmpty(); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString id;
        ServerSummary summary;
        bool baseline = false;
        Figure bytesPerKey;
        Figure referenceRatio;
        Figure usecPerCommand;
        Figure usecPerEvent;
        Figure serverCpuPerCommand;
        Figure eventsPerSecond;
        Figure latencyP99;
        Figure serverP99;
        QString serverP99Command;   // "SET", the command it is of
        QString serverTails;        // every command's server-side p50, p99 and p99.9, one per line
        // A cluster's spread over its primaries, by category ("all", or each type measured alone).
        std::vector<std::pair<QString, NodeSpread>> nodeSpreads;
    };
    void rebuildRows(const Figures &figures);
    QVariant displayOf(const Row &row, Column column) const;
    QVariant sortKeyOf(const Row &row, Column column) const;
    QVariant toolTipOf(const Row &row, Column column) const;
    static QString nodeSpreadText(const std::vector<std::pair<QString, NodeSpread>> &spreads);

    BundleSnapshot m_bundle = std::make_shared<const ResultsBundle>();
    std::vector<Row> m_rows;
    std::map<Column, QString> m_scopes;   // the totals' scopes, for the header tooltips
    QString m_memoryCategory;   // the memory column's category when it is not a total ("set-ex")
    QString m_ratioCategory;    // the type ReferenceRatioColumn gives as a multiple of the reference ("hsetex")
    QString m_referenceType;
    QString m_timeCategory;   // the time column's category when it is a group ("All writes"), else empty
};
