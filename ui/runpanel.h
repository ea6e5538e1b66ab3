#pragma once
// Run and Cancel, the number of repeats and the schedule (fair or concurrent).

#include "resultsbundle.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget *parent = nullptr);

    int repeats() const;
    Schedule schedule() const;
    void setSchedule(Schedule schedule);

    void setRunning(bool running);
    // Why Run is not possible right now ("Select at least one server"), or empty.
    void setBlocker(const QString &reason);
    bool canRun() const;

    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }

Q_SIGNALS:
    void runRequested();
    void cancelRequested();

private:
    void refresh();

    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QSpinBox *m_repeats = nullptr;
    QComboBox *m_schedule = nullptr;
    QLabel *m_blocker = nullptr;
    QString m_blockerText;
    bool m_running = false;
};
