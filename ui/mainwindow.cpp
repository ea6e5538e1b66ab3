#include "mainwindow.h"

#include "logview.h"
#include "presentation.h"
#include "progresslist.h"
#include "resultsview.h"
#include "runcoordinator.h"
#include "runpanel.h"
#include "serverspanel.h"
#include "sidebar.h"
#include "topologyspecs.h"
#include "uisettings.h"
#include "workloadpanel.h"
#include <QActionGroup>
#include <QCloseEvent>
#include <QDateTime>
#include <QFrame>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QHBoxLayout>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Versus"));
    resize(defaultSize());

    m_servers = new ServersPanel;
    m_workload = new WorkloadPanel;
    m_run = new RunPanel;
    m_coordinator = new RunCoordinator(this);

    buildLayout();
    statusBar()->setSizeGripEnabled(true);

    buildMenus();
    restoreRemembered();

    connect(m_run, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(m_run, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);
    connect(m_run, &RunPanel::serverSettingsChanged, this, &MainWindow::refreshRunBlocker);
    connect(m_servers, &ServersPanel::selectionChanged, this, &MainWindow::refreshRunBlocker);
    connect(m_servers, &ServersPanel::discovered, this, &MainWindow::refreshRunBlocker);
    connect(m_workload, &WorkloadPanel::workloadChanged, this, &MainWindow::refreshRunBlocker);

    connect(m_coordinator, &RunCoordinator::started, this, &MainWindow::onRunStarted);
    connect(m_coordinator, &RunCoordinator::notStarted, this, [this](const QString &reason) {
        setRunning(false);
        statusBar()->showMessage(reason);
        Q_EMIT runNotStarted(reason);
    });
    RunController *runs = m_coordinator->controller();
    connect(runs, &RunController::serverProgress, this, [this](const ServerProgress &progress) {
        m_progress->showProgress(progress);
        m_servers->showProgress(progress);
    });
    connect(runs, &RunController::serverLog, m_results->logView(), &LogView::appendLine);
    connect(runs, &RunController::resultsChanged, m_results, &ResultsView::setSnapshot);
    connect(m_coordinator, &RunCoordinator::finished, this, &MainWindow::onRunFinished);
    connect(m_coordinator, &RunCoordinator::sweepPointStarted, this, [this](const QString &label) {
        statusBar()->showMessage(tr("Sweep: running %1…").arg(label));
        m_progress->setSweepPoint(label);
    });

    refreshRunBlocker();
    m_servers->discover();
}

MainWindow::~MainWindow() = default;

// The panels on the left (collapsible), progress and results on the right.
void MainWindow::buildLayout()
{
    auto *sidebar = new Sidebar;
    sidebar->addSection(tr("Servers"), m_servers);
    sidebar->addSection(tr("Workload"), m_workload);
    sidebar->addSection(tr("Run"), m_run);
    sidebar->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(sidebar);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(360);
    scroll->setMaximumWidth(460);
    m_sidebar = scroll;

    m_progress = new ProgressList;
    m_progressFrame = new QFrame;
    m_progressFrame->setObjectName(QStringLiteral("progressFrame"));
    m_progressFrame->setFrameShape(QFrame::StyledPanel);
    auto *progressLayout = new QVBoxLayout(m_progressFrame);
    progressLayout->setContentsMargins(12, 8, 12, 8);
    progressLayout->addWidget(m_progress);
    m_progressFrame->hide();

    m_results = new ResultsView;
    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(12, 14, 16, 10);
    rightLayout->setSpacing(10);
    rightLayout->addWidget(m_progressFrame);
    rightLayout->addWidget(m_results, 1);

    // Shown while the panels are collapsed: the way back to them.
    auto *showPanels = new QToolButton;
    showPanels->setObjectName(QStringLiteral("showSidebar"));
    showPanels->setText(QStringLiteral("›"));
    showPanels->setToolTip(tr("Show the servers, workload and run panels (F9)"));
    showPanels->setAutoRaise(true);
    connect(showPanels, &QToolButton::clicked, this, [this] { setSidebarShown(true); });
    m_sidebarButton = showPanels;
    m_sidebarButton->hide();
    auto *rightRow = new QWidget;
    auto *rightRowLayout = new QHBoxLayout(rightRow);
    rightRowLayout->setContentsMargins(0, 0, 0, 0);
    rightRowLayout->setSpacing(0);
    rightRowLayout->addWidget(showPanels, 0, Qt::AlignTop);
    rightRowLayout->addWidget(right, 1);

    auto *splitter = new QSplitter;
    splitter->addWidget(scroll);
    splitter->addWidget(rightRow);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({380, 1020});
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);
}

RunController *MainWindow::controller() const
{
    return m_coordinator->controller();
}

bool MainWindow::isRunning() const
{
    return m_coordinator->isBusy();
}

bool MainWindow::isReady() const
{
    return !m_servers->isDiscovering() && m_workload->workload() && !m_workload->isPreparing();
}

bool MainWindow::isSettled() const
{
    return !m_servers->isDiscovering() && !m_workload->isPreparing();
}

// The selected servers in every topology of the Run panel, then with Self-check the first
// one again (topologyspecs.h), as versus run --topology --self-check makes them.
Outcome<std::vector<ServerSpec>> MainWindow::runSpecs() const
{
    const Outcome<std::vector<Topology>> topologies = m_run->topologies();
    if (!topologies)
        return Error{topologies.error()};
    Outcome<std::vector<ServerSpec>> specs = specsInTopologies(m_servers->selectedServers(), topologies.value());
    if (!specs)
        return Error{tr("Topology: %1").arg(specs.error())};
    if (!m_run->selfCheck())
        return specs;
    Outcome<std::vector<ServerSpec>> checked = specsWithSelfCheck(std::move(specs.value()));
    if (!checked)
        return Error{tr("Self-check: %1").arg(checked.error())};
    return checked;
}

QString MainWindow::runBlocker() const
{
    QString blocker;
    if (m_servers->isDiscovering())
        blocker = tr("Looking for servers…");
    else if (m_servers->selectedServers().empty())
        blocker = tr("Select at least one server.");
    else if (m_workload->isPreparing())
        blocker = tr("Preparing the workload…");
    else if (!m_workload->workload())
        blocker = tr("Fix the workload first: %1").arg(m_workload->error());
    else if (const Outcome<ServerSettings> settings = m_run->serverSettings(); !settings)
        blocker = settings.error();
    else if (const Outcome<std::vector<ServerSpec>> specs = runSpecs(); !specs)
        blocker = specs.error();
    return blocker;
}

void MainWindow::refreshRunBlocker()
{
    const QString blocker = runBlocker();
    m_run->setBlocker(blocker);
    m_runAction->setEnabled(m_run->canRun());
    Q_EMIT readinessChanged();
}

bool MainWindow::startRun()
{
    if (!m_run->canRun()) {
        const QString reason = isRunning() ? tr("A run is already in progress.") : runBlocker();
        statusBar()->showMessage(reason);
        Q_EMIT runNotStarted(reason);
        return false;
    }
    RunRequest request;
    request.servers = runSpecs().value();   // canRun() and runBlocker(): the topologies are valid
    m_runSpecs = request.servers;
    request.workload = m_workload->workload();
    request.repeats = m_run->repeats();
    request.schedule = m_run->schedule();
    request.serverConfig = m_run->serverSettings().value();   // canRun(): the field is valid
    request.profile = m_run->profile();
    setRunning(true);
    m_coordinator->setHideHosts(m_pathsHidden);
    m_coordinator->start(request, m_workload->sweep());
    return true;
}

void MainWindow::cancelRun()
{
    if (!isRunning())
        return;
    statusBar()->showMessage(tr("Cancelling: stopping the servers…"));
    m_coordinator->cancel();
}

void MainWindow::onRunStarted(int, const QStringList &serverIds)
{
    // Named as the results will name them (a source tree by its branch and revision), from the
    // servers asked for: a sweep's first point has not started yet.
    ResultsBundle asked;
    for (const ServerSpec &spec : m_runSpecs)
        asked.servers.push_back(placeholderRun(spec));
    QStringList names;
    for (const QString &id : serverIds) {
        const ServerRun *run = asked.server(id);
        names << (run ? serverDisplayName(asked, *run) : id);
    }
    m_progress->setServers(serverIds, names);
    m_progressFrame->show();
    m_servers->resetStates();
    m_results->logView()->clear();
    m_results->setSnapshot(controller()->snapshot());
    m_source.clear();
    // The platform appends the application's display name: "ecommerce — Versus".
    setWindowTitle(m_workload->workload()->describe().name);
    m_runStartedMs = QDateTime::currentMSecsSinceEpoch();
    statusBar()->showMessage(tr("Running %1 on %n server(s)…", nullptr, int(serverIds.size()))
                                 .arg(m_workload->workload()->describe().name));
}

void MainWindow::onRunFinished(const ResultsBundle &results)
{
    setRunning(false);
    m_results->setBundle(results);
    m_results->flushCharts();
    if (results.isSweep())
        m_results->showSweep();
    int failed = 0;
    for (const ServerRun &run : results.servers) {
        m_results->logView()->addServerTail(run.id, run.status == RunStatus::Ok ? QStringList() : run.logTail);
        failed += run.status == RunStatus::Failed ? 1 : 0;
    }
    if (!results.complete)
        m_progress->markCancelled();
    const double seconds = double(QDateTime::currentMSecsSinceEpoch() - m_runStartedMs) / 1000.0;
    QString message = results.complete ? tr("Run finished in %1 s.").arg(seconds, 0, 'f', 1)
                                       : tr("Run stopped after %1 s; results are partial.").arg(seconds, 0, 'f', 1);
    if (failed > 0)
        message += QLatin1Char(' ') + tr("%n server(s) failed; see their rows and the Logs tab.", nullptr, failed);
    statusBar()->showMessage(message);
    Q_EMIT runFinished(results);
}

void MainWindow::setRunning(bool running)
{
    m_run->setRunning(running);
    m_servers->setLocked(running);
    m_workload->setLocked(running);
    m_runAction->setEnabled(!running && m_run->canRun());
    m_cancelAction->setEnabled(running);
    if (!running)
        refreshRunBlocker();
}

void MainWindow::showResults(const ResultsBundle &bundle, const QString &source)
{
    m_results->showOpenedBundle(bundle);
    m_results->flushCharts();
    m_source = source;
    m_progressFrame->hide();
    setWindowTitle(source.isEmpty() ? QStringLiteral("Versus") : source);
}

void MainWindow::setSidebarShown(bool shown)
{
    m_sidebar->setVisible(shown);
    m_sidebarButton->setVisible(!shown);
    m_sidebarAction->setChecked(shown);
}

void MainWindow::setSidebarButtonTextPx(int textPx)
{
    if (textPx <= 0) {
        m_sidebarButton->setFont(QFont());   // the window's again
        m_sidebarButton->setMinimumSize(0, 0);
        return;
    }
    QFont font = m_sidebarButton->font();
    font.setPixelSize(textPx);
    font.setBold(true);
    m_sidebarButton->setFont(font);
    // A target a presenter hits without looking twice: as tall as a line of demo text and more.
    m_sidebarButton->setMinimumSize(int(textPx * 1.2), int(textPx * 1.8));
}

void MainWindow::setProgressShown(bool shown)
{
    m_progressFrame->setVisible(shown);
}

bool MainWindow::progressShown() const
{
    return !m_progressFrame->isHidden();
}

bool MainWindow::sidebarShown() const
{
    return !m_sidebar->isHidden();
}

void MainWindow::setPathsHidden(bool hidden)
{
    m_pathsHidden = hidden;
    m_servers->setPathsHidden(hidden);
    m_workload->setPathsHidden(hidden);
}

// The size and place, the baseline, hidden versions, sort and chart theme of the last launch.
void MainWindow::restoreRemembered()
{
    const QByteArray geometry = UiSettings::windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const ResultsViewState state = UiSettings::resultsView();
    m_results->setViewState(state);
    for (QAction *action : m_themeActions->actions())
        action->setChecked(ColorTheme(action->data().toInt()) == state.theme);
    connect(m_results, &ResultsView::viewChanged, this, [this] {
        if (m_remembersView)
            UiSettings::setResultsView(m_results->viewState());
    });
}

void MainWindow::setRemembersGeometry(bool remember)
{
    m_remembersGeometry = remember;
}

void MainWindow::startFromDefaults()
{
    m_servers->startFromDefaults();
    m_workload->startFromDefaults();
    m_run->startFromDefaults();
    // The oldest version as the baseline and every version shown: a remembered pick changes the
    // figures. The Sort and the theme change none, and stay.
    m_remembersView = false;
    ResultsViewState state = m_results->viewState();
    state.baseline.clear();
    state.hidden.clear();
    m_results->setViewState(state);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_remembersGeometry)
        UiSettings::setWindowGeometry(saveGeometry());
    // The controller's destructor stops the workers and their servers; ask it to hurry.
    if (isRunning())
        m_coordinator->cancel();
    event->accept();
}
