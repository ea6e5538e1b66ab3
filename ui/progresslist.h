#pragma once
// One compact row per server during a run: name, progress bar, rate and ETA, and the last
// error or note ("hash-ttl: HSETEX unsupported") in the row itself.

#include "runrequest.h"
#include <QWidget>
#include <map>

class QGridLayout;
class QLabel;
class QProgressBar;

class ProgressList : public QWidget {
    Q_OBJECT
public:
    explicit ProgressList(QWidget *parent = nullptr);

    // ids in display order with their display names ("Valkey 8.1.1").
    void setServers(const QStringList &ids, const QStringList &names);
    void showProgress(const ServerProgress &progress);
    void markCancelled();
    // "value-size=64 (2 of 3)": the sweep point being run, shown above the rows until the
    // next setServers().
    void setSweepPoint(const QString &label);
    QString sweepPoint() const;

    int percent(const QString &id) const;    // -1 when the server has no row
    ProgressState state(const QString &id) const;
    QString message(const QString &id) const;
    QString rate(const QString &id) const;   // "12,345 events/s · ETA 3s", "20,000 events × 12 passes"
    static QString doneText(const ServerProgress &progress);

private:
    struct Row {
        QLabel *name = nullptr;
        QProgressBar *bar = nullptr;
        QLabel *rate = nullptr;
        QLabel *message = nullptr;
        ProgressState state = ProgressState::Starting;
        QStringList notes;
    };
    QGridLayout *m_grid = nullptr;
    QLabel *m_point = nullptr;
    std::map<QString, Row> m_rows;
};
