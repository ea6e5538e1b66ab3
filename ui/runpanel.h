#pragma once
// Run and Cancel, the number of repeats, the schedule (fair or concurrent), the topologies each
// launched server runs in (--topology), the settings applied to every launched server
// (--server-config in the command line) and the self-check (--self-check).

#include "resultsbundle.h"
#include "serverconfig.h"
#include "topology.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget *parent = nullptr);

    int repeats() const;
    Schedule schedule() const;
    void setSchedule(Schedule schedule);
    // "hash-max-listpack-entries=64 io-threads=2": name=value pairs separated by spaces; the
    // settings, or an error naming the one that is not a setting (Run is then disabled).
    Outcome<ServerSettings> serverSettings() const;
    // "standalone,cluster:3": the topologies, or an error naming the entry at fault (Run is
    // then disabled).
    Outcome<std::vector<Topology>> topologies() const;
    // Fills the Topology field (versus --topology), as typing it would.
    void setTopology(const QString &text);
    // Whether the run adds the A/A series of --self-check: the first server's build a second
    // time on a server of its own, whose difference from the first is this machine's noise.
    bool selfCheck() const;
    // Whether the run ends with an untimed pass per launched server under perf (--profile).
    bool profile() const;
    // Demo mode and --autorun: one repeat, the fair schedule, standalone, no server settings
    // no self-check and no profile instead of what an earlier session left, and nothing chosen from now on is
    // remembered.
    void startFromDefaults();

    void setRunning(bool running);
    // Why Run is not possible right now ("Select at least one server"), or empty.
    void setBlocker(const QString &reason);
    bool canRun() const;

    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }

Q_SIGNALS:
    void runRequested();
    void cancelRequested();
    void serverSettingsChanged();

private:
    // Self-check and Profile (perf), each remembered.
    void createOptionBoxes();
    // Run (the panel's default button) and Cancel.
    void createRunButtons();
    void refresh();
    // Writes a choice to the settings, unless this session starts from the defaults.
    void remember(const QString &key, const QVariant &value);

    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QSpinBox *m_repeats = nullptr;
    QComboBox *m_schedule = nullptr;
    QLineEdit *m_serverConfig = nullptr;
    QLineEdit *m_topology = nullptr;
    QCheckBox *m_selfCheck = nullptr;
    QCheckBox *m_profile = nullptr;
    QLabel *m_blocker = nullptr;
    QString m_blockerText;
    bool m_running = false;
    bool m_remembers = true;
};
