// The window's menus and keyboard shortcuts, and the bundle file actions behind them.
#include "mainwindow.h"

#include "bundlefiles.h"
#include "charttheme.h"
#include "comparewindow.h"
#include "exportdialog.h"
#include "helpmenu.h"
#include "resultsview.h"
#include "uisettings.h"
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <functional>

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open results…"), this, [this] {
        const QString path = chooseBundleToOpen(this);
        if (!path.isEmpty())
            openBundleFile(path);
    });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentFiles"));
    // Rebuilt each time it opens, so a file deleted meanwhile is gone from it.
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    QAction *save = file->addAction(tr("&Save results…"), this, [this] {
        if (!m_results->hasResults()) {
            statusBar()->showMessage(tr("Nothing to save yet: run or open results first."));
            return;
        }
        ResultsBundle bundle = m_results->bundle();
        bundle.baseline = m_results->baseline();
        const QString path = chooseBundleToSave(this, bundle);
        if (path.isEmpty())
            return;
        Status saved = saveBundleFile(bundle, path);
        statusBar()->showMessage(saved ? tr("Saved %1").arg(path) : saved.error());
        if (saved)
            UiSettings::addRecentFile(path);
        if (!saved)
            QMessageBox::warning(this, tr("Cannot save results"), saved.error());
    });
    save->setShortcut(QKeySequence::Save);
    file->addAction(tr("&Compare two results…"), this, [this] {
        CompareWindow *window = CompareWindow::openFromFiles(this);
        if (window)
            window->show();
    });
    file->addSeparator();
    QAction *exportAction = file->addAction(tr("&Export chart…"), this, &MainWindow::showExportDialog);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(tr("&Run"), this, &MainWindow::startRun);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancelAction = run->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setEnabled(false);

    buildViewMenu();

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    HelpDocs::addEntries(help, QCoreApplication::applicationDirPath(), &m_pathsHidden);
    help->addAction(tr("&Keyboard shortcuts…"), this, [this] {
        auto *dialog = new ShortcutsDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    help->addSeparator();
    help->addAction(tr("&About Versus"), this, [this] {
        QMessageBox::about(this, tr("About Versus"),
                           tr("<h3>Versus %1</h3><p>Replays one workload into several Valkey versions and "
                              "compares memory per stored attribute and server time per command.</p>")
                               .arg(QStringLiteral(VERSUS_VERSION)));
    });
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_themeActions = new QActionGroup(this);
    for (ColorTheme theme : {ColorTheme::Light, ColorTheme::Dark}) {
        QAction *action = view->addAction(theme == ColorTheme::Light ? tr("&Light charts") : tr("&Dark charts"), this,
                                          [this, theme] { m_results->setTheme(theme); });
        action->setCheckable(true);
        action->setChecked(theme == m_results->theme());
        action->setData(int(theme));
        m_themeActions->addAction(action);
    }
    view->addSeparator();
    m_sidebarAction = view->addAction(tr("&Panels"), this, [this](bool shown) { setSidebarShown(shown); });
    m_sidebarAction->setCheckable(true);
    m_sidebarAction->setChecked(true);
    m_sidebarAction->setShortcut(QKeySequence(Qt::Key_F9));
    m_sidebarAction->setToolTip(tr("The servers, workload and run panels"));
    view->addSeparator();
    QAction *copyMarkdown = view->addAction(tr("Copy table as &Markdown"), m_results, &ResultsView::copyMarkdown);
    copyMarkdown->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    view->addAction(tr("Copy data as &CSV"), m_results, &ResultsView::copyCsv);
}

bool MainWindow::openBundleFile(const QString &path)
{
    Outcome<ResultsBundle> loaded = loadBundleFile(path);
    if (!loaded) {
        statusBar()->showMessage(loaded.error());
        QMessageBox::warning(this, tr("Cannot open results"), loaded.error());
        return false;
    }
    showResults(loaded.value(), QFileInfo(path).fileName());
    UiSettings::addRecentFile(path);
    statusBar()->showMessage(tr("Opened %1").arg(pathsHidden() ? QFileInfo(path).fileName() : path));
    return true;
}

// Newest first, numbered for the keyboard; the full path shows as the tip (not in demo mode).
void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = UiSettings::recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction *action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()),
                                                  this, [this, path] { openBundleFile(path); });
        action->setData(path);
        action->setStatusTip(pathsHidden() ? QString() : path);
        action->setToolTip(pathsHidden() ? QFileInfo(path).fileName() : path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear the list"), this, [] { UiSettings::clearRecentFiles(); });
}

void MainWindow::showExportDialog()
{
    if (!m_results->hasResults()) {
        statusBar()->showMessage(tr("Nothing to export yet: run or open results first."));
        return;
    }
    ExportDialog dialog(m_results->figures(), m_results->currentChartKind(), this);
    dialog.setViewTheme(m_results->theme());
    dialog.exec();
}

void MainWindow::setMenuBarShown(bool shown)
{
    // A hidden menu bar takes its menus' shortcuts with it; the window keeps them instead.
    std::function<void(QMenu *)> keep = [this, &keep](QMenu *menu) {
        for (QAction *action : menu->actions()) {
            if (action->menu())
                keep(action->menu());
            else if (!action->isSeparator())
                addAction(action);
        }
    };
    if (!shown) {
        for (QAction *top : menuBar()->actions()) {
            if (top->menu())
                keep(top->menu());
        }
    }
    menuBar()->setVisible(shown);
}
