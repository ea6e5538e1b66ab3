#include "democontroller.h"

#include "logview.h"
#include "mainwindow.h"
#include "resultsview.h"
#include <QApplication>
#include <QDir>
#include <QScreen>
#include <QSysInfo>

DemoController::DemoController(MainWindow *window) : QObject(window), m_window(window) {}

void DemoController::applyLargeFonts()
{
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    QApplication::setFont(font);
}

void DemoController::start(bool runByItself)
{
    m_window->setPathsHidden(true);
    m_window->setRemembersGeometry(false);   // full screen is no size to come back to
    m_window->resultsView()->logView()->setHiddenText({QDir::homePath(), QSysInfo::machineHostName()});
    // Without a window manager (a bare X server on a projector PC) full screen is only a
    // request; the geometry makes it true anyway.
    if (QScreen *screen = m_window->screen())
        m_window->setGeometry(screen->geometry());
    m_window->showFullScreen();
    if (!runByItself)
        return;
    connect(m_window, &MainWindow::readinessChanged, this, &DemoController::runWhenReady);
    runWhenReady();
}

void DemoController::runWhenReady()
{
    if (m_started || !m_window->isReady())
        return;
    m_started = true;
    m_window->startRun();
}
