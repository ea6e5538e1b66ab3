#pragma once
// The Versus window: servers, workload and run controls on the left; progress and the
// results (charts, table, encodings, logs) on the right. It only assembles the panels
// and routes the run's signals to them; each panel does its own job.

#include "outcome.h"
#include "resultsbundle.h"
#include "serverspec.h"
#include <QMainWindow>
#include <vector>

class ProgressList;
class QAction;
class QActionGroup;
class QFrame;
class QMenu;
class ResultsView;
class RunCoordinator;
class RunController;
class RunPanel;
class ServersPanel;
class WorkloadPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    ServersPanel *serversPanel() const { return m_servers; }
    WorkloadPanel *workloadPanel() const { return m_workload; }
    RunPanel *runPanel() const { return m_run; }
    ProgressList *progressList() const { return m_progress; }
    ResultsView *resultsView() const { return m_results; }
    RunCoordinator *coordinator() const { return m_coordinator; }
    RunController *controller() const;

    // Starts a run with what the panels show; false (with the reason in the status bar and
    // runNotStarted) when it cannot start now.
    bool startRun();
    void cancelRun();
    bool isRunning() const;
    // Ready to run: servers discovered and the workload prepared.
    bool isReady() const;
    // Nothing is being looked up or prepared any more: either ready, or it never will be
    // without the user (no server selected, a workload error).
    bool isSettled() const;
    // Why Run is disabled, or empty.
    QString runBlocker() const;

    // Results opened from a file: shown with their own baseline and every version.
    void showResults(const ResultsBundle &bundle, const QString &source);
    // File ▸ Open and Open recent: loads, shows and adds to the recent files; errors are shown.
    bool openBundleFile(const QString &path);
    QMenu *recentFilesMenu() const { return m_recentMenu; }
    // Off (demo mode, screenshots): the window keeps the size it is given and does not
    // remember it at close.
    void setRemembersGeometry(bool remember);
    static QSize defaultSize() { return {1400, 900}; }
    // Demo mode and --autorun: the workload and run panels, the baseline and the hidden versions
    // start from their defaults, not from what an earlier session left, and nothing is
    // remembered (the server selection, the Sort and the theme stay; an endpoint starts
    // unticked: launched servers run unless the presenter ticks it).
    void startFromDefaults();
    void setPathsHidden(bool hidden);
    bool pathsHidden() const { return m_pathsHidden; }
    void showExportDialog();
    // The servers, workload and run panels on the left; collapsed, a narrow button (and
    // View ▸ Panels, F9) brings them back.
    void setSidebarShown(bool shown);
    bool sidebarShown() const;
    QAction *cancelAction() const { return m_cancelAction; }
    // Hidden (demo mode), the menu bar's actions stay the window's, so their keys still work.
    void setMenuBarShown(bool shown);
    // The narrow button that brings the collapsed panels back; `textPx` 0 = the style's size.
    void setSidebarButtonTextPx(int textPx);
    // The per-server progress rows above the results (shown from a run's start).
    void setProgressShown(bool shown);
    bool progressShown() const;

Q_SIGNALS:
    void readinessChanged();
    void runNotStarted(const QString &reason);
    void runFinished(const ResultsBundle &results);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildLayout();
    void buildMenus();
    void buildViewMenu();
    void rebuildRecentMenu();
    void restoreRemembered();
    void refreshRunBlocker();
    Outcome<std::vector<ServerSpec>> runSpecs() const;
    void onRunStarted(int runId, const QStringList &serverIds);
    void onRunFinished(const ResultsBundle &results);
    void setRunning(bool running);

    ServersPanel *m_servers = nullptr;
    WorkloadPanel *m_workload = nullptr;
    RunPanel *m_run = nullptr;
    ProgressList *m_progress = nullptr;
    QFrame *m_progressFrame = nullptr;
    QWidget *m_sidebar = nullptr;
    QWidget *m_sidebarButton = nullptr;
    QAction *m_sidebarAction = nullptr;
    ResultsView *m_results = nullptr;
    RunCoordinator *m_coordinator = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QActionGroup *m_themeActions = nullptr;
    bool m_remembersGeometry = true;
    bool m_remembersView = true;   // the baseline, hidden versions, sort and theme
    QString m_source;
    bool m_pathsHidden = false;
    qint64 m_runStartedMs = 0;
    std::vector<ServerSpec> m_runSpecs;   // the run's servers, each in its topology
};
