#pragma once
// The workload to replay: the built-in e-commerce stream, hash-ttl or a file (events JSONL
// or a capture). The workload is built and described (which may scan a whole file) off the
// GUI thread; the panel then shows events, commands and commands per event.

#include "sweepcontroller.h"
#include "workload.h"
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class BackgroundTasks;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTimer;

class WorkloadPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadPanel(QWidget *parent = nullptr);
    ~WorkloadPanel() override;

    // "ecommerce", "hash-ttl" or "file"
    QString choice() const;
    // Selects a built-in by name, or a file when `nameOrFile` is neither.
    void choose(const QString &nameOrFile);

    // The prepared workload, or null while it is being prepared or when it is invalid.
    std::shared_ptr<const Workload> workload() const { return m_workload; }
    // With a sweep given (hash-ttl's Sweep field): its points, each with its workload; workload()
    // is then the first point's.
    const std::optional<SweepRequest> &sweep() const { return m_sweep; }
    // Sets the Sweep field ("value-size=16,64,256"; empty: one run) and prepares again.
    void setSweep(const QString &text);
    bool isPreparing() const { return m_preparing || m_pendingRebuild; }
    QString error() const { return m_error; }
    QString summaryText() const;
    void setLocked(bool locked);
    void setPathsHidden(bool hidden);
    // Demo mode and --autorun: every field takes the workload's own default (hash-ttl's keys,
    // value size and TTL, no sweep, the built-in recording and attributes, the default hash
    // tags) instead of what an earlier session left, and nothing chosen from now on is
    // remembered: a remembered 2,000 keys changed the answer a presenter showed.
    void startFromDefaults();

Q_SIGNALS:
    // The workload became ready, invalid, or is being rebuilt (workload() is null meanwhile).
    void workloadChanged();

private:
    QWidget *ecommercePage();
    QComboBox *hashTagBox(const QString &name, const std::vector<std::pair<QString, QString>> &choices, const QString &toolTip);
    QWidget *hashTtlPage();
    QWidget *filePage();
    void scheduleRebuild();
    void rebuild();
    void browse(QLineEdit *target, const QString &title, const QString &filter);
    void showSummary();
    // Writes a choice to the settings, unless this session starts from the defaults.
    void remember(const QString &key, const QVariant &value);

    QComboBox *m_kind = nullptr;
    QStackedWidget *m_pages = nullptr;
    QSpinBox *m_events = nullptr;
    QLineEdit *m_attributes = nullptr;
    QSpinBox *m_keys = nullptr;
    QSpinBox *m_valueSize = nullptr;
    QSpinBox *m_ttl = nullptr;
    QComboBox *m_shopperTag = nullptr;   // ecommerce's hash-tag: shopper or none
    QComboBox *m_userTag = nullptr;      // hash-ttl's hash-tag: none or user
    QLineEdit *m_file = nullptr;
    QLineEdit *m_sweepText = nullptr;
    QLabel *m_summary = nullptr;
    QTimer *m_debounce = nullptr;
    BackgroundTasks *m_tasks = nullptr;

    std::shared_ptr<const Workload> m_workload;
    std::optional<SweepRequest> m_sweep;
    WorkloadInfo m_description;
    QString m_error;
    int m_generation = 0;
    bool m_preparing = false;
    bool m_pendingRebuild = false;
    bool m_pathsHidden = false;
    bool m_remembers = true;
};
