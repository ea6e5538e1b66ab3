#pragma once
// The results table: one row per server with its headline figures (medians over repeats)
// and their change against the baseline. Display text is formatted; Qt::UserRole holds the
// raw number so a QSortFilterProxyModel sorts numerically.

#include "resultsbundle.h"
#include <QAbstractTableModel>

class ResultsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ServerColumn,
        StatusColumn,
        BytesPerKeyColumn,
        BytesChangeColumn,
        UsecPerCommandColumn,
        UsecChangeColumn,
        UsecPerEventColumn,
        EventsPerSecondColumn,
        LatencyP99Column,
        RepeatsColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit ResultsTableModel(QObject *parent = nullptr);

    void setBundle(const ResultsBundle &bundle);
    void setBaseline(const QString &serverId);   // empty: the bundle's own
    const ResultsBundle &bundle() const { return m_bundle; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString id;
        QString name;
        QString status;
        QString error;
        double bytesPerKey = 0;
        double usecPerCommand = 0;
        double usecPerEvent = 0;
        double eventsPerSecond = 0;
        double latencyP99 = 0;
        QString usecChangeByRepeat;   // the change against the baseline, repeat by repeat
        int repeats = 0;
        bool baseline = false;
    };
    void rebuildRows();
    const Row *baselineRow() const;

    ResultsBundle m_bundle;
    QString m_baseline;
    std::vector<Row> m_rows;
};
