#include "democontroller.h"

#include "figureviews.h"
#include "headlinecallout.h"
#include "logview.h"
#include "mainwindow.h"
#include "resultsview.h"
#include "runcoordinator.h"
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QEvent>
#include <QScreen>
#include <QShortcut>
#include <QStyle>
#include <QSysInfo>
#include <algorithm>
#include <cmath>

DemoSizes DemoSizes::forHeight(int height)
{
    const double scale = std::max(height, 600) / 1080.0;
    auto px = [scale](double at1080) { return int(std::lround(at1080 * scale)); };
    DemoSizes sizes;
    sizes.chart.title = px(48);
    sizes.chart.subtitle = px(28);
    sizes.chart.axis = px(27);         // tick labels are 0.92 of it: 24.8 px
    sizes.chart.axisTitle = px(24);
    sizes.chart.legend = px(27);
    sizes.chart.label = px(24);
    sizes.chart.footnote = px(22);
    sizes.chart.margin = px(36);
    sizes.headline = px(48);
    sizes.subtitle = px(24);
    sizes.calloutNumber = px(120);
    sizes.calloutCaption = px(32);
    sizes.text = px(20);
    sizes.sidebarButton = px(72);   // "›" is only as tall as an x
    return sizes;
}

DemoController::DemoController(MainWindow *window) : QObject(window), m_window(window)
{
    connect(&m_cycle, &QTimer::timeout, this, [this] { m_window->resultsView()->showNextChart(); });
}

void DemoController::applyLargeFonts()
{
    const QScreen *screen = QGuiApplication::primaryScreen();
    const int height = screen ? screen->geometry().height() : 1080;
    const double dpi = screen ? screen->logicalDotsPerInchY() : 96.0;
    QFont font = QApplication::font();
    // In points, not pixels: widgets scale the application's font by its point size.
    font.setPointSizeF(DemoSizes::forHeight(height).text * 72.0 / dpi);
    QApplication::setFont(font);
}

void DemoController::start(const DemoOptions &options)
{
    m_options = options;
    m_window->setPathsHidden(true);
    m_window->setRemembersGeometry(false);   // full screen is no size to come back to
    m_window->resultsView()->logView()->setHiddenText({QDir::homePath(), QSysInfo::machineHostName()});
    m_window->setSidebarShown(false);
    m_window->setMenuBarShown(false);
    m_window->resultsView()->setCalloutShown(options.callout);
    installKeys();
    m_window->installEventFilter(this);
    // A run that went well needs its progress rows no more: the chart takes their room.
    connect(m_window, &MainWindow::runFinished, this, [this](const ResultsBundle &results) {
        const bool allOk = std::all_of(results.servers.begin(), results.servers.end(),
                                       [](const ServerRun &run) { return run.status == RunStatus::Ok; });
        if (results.complete && allOk)
            m_window->setProgressShown(false);
    });
    if (options.cycleSeconds > 0)
        cycleDuringRuns(options.cycleSeconds);
    // Without a window manager (a bare X server on a projector PC) full screen is only a
    // request; the geometry makes it true anyway.
    if (QScreen *screen = m_window->screen())
        m_window->setGeometry(screen->geometry());
    m_window->showFullScreen();
    applySizes(m_window->height());
    if (!options.runByItself)
        return;
    connect(m_window, &MainWindow::readinessChanged, this, &DemoController::runWhenReady);
    runWhenReady();
}

void DemoController::cycleDuringRuns(int seconds)
{
    m_cycle.setInterval(seconds * 1000);
    connect(m_window->coordinator(), &RunCoordinator::started, &m_cycle, qOverload<>(&QTimer::start));
    connect(m_window, &MainWindow::runNotStarted, &m_cycle, &QTimer::stop);
    connect(m_window, &MainWindow::runFinished, this, [this] {
        m_cycle.stop();
        // The run's answer is the first chart's headline.
        m_window->resultsView()->showChart(everyBundleChartKinds().front());
    });
}

void DemoController::applySizes(int windowHeight)
{
    if (windowHeight == m_sizedFor)
        return;
    m_sizedFor = windowHeight;
    const DemoSizes sizes = DemoSizes::forHeight(windowHeight);
    ResultsView *results = m_window->resultsView();
    results->setChartFontSizes(sizes.chart);
    results->setHeadlinePixelSizes(sizes.headline, sizes.subtitle);
    results->callout()->setPixelSizes(sizes.calloutNumber, sizes.calloutCaption);
    m_window->setSidebarButtonTextPx(sizes.sidebarButton);
}

bool DemoController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Resize)
        applySizes(m_window->height());
    return QObject::eventFilter(watched, event);
}

void DemoController::installKeys()
{
    // Esc leaves full screen here; cancelling moves to a key of its own.
    m_window->cancelAction()->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
    // Named by their What's This text, for Help ▸ Keyboard shortcuts.
    auto add = [this](const QKeySequence &keys, const QString &meaning, auto slot) {
        auto *shortcut = new QShortcut(keys, m_window);
        shortcut->setWhatsThis(meaning);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    add(QKeySequence(Qt::Key_Escape), tr("Leave full screen"), [this] { setFullScreen(false); });
    add(QKeySequence(Qt::Key_F11), tr("Full screen on or off"), [this] { setFullScreen(!m_window->isFullScreen()); });
    add(QKeySequence(Qt::CTRL | Qt::Key_Tab), tr("Next chart"), [this] {
        m_window->resultsView()->showNextChart(1);
        chartChosen();
    });
    add(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab), tr("Previous chart"), [this] {
        m_window->resultsView()->showNextChart(-1);
        chartChosen();
    });
    const std::vector<ChartKind> kinds = everyBundleChartKinds();
    for (size_t i = 0; i < kinds.size() && i < 9; ++i) {
        const QString meaning = tr("Chart: %1").arg(figureView(kinds[i]).title);
        add(QKeySequence(Qt::Key(Qt::Key_1 + int(i))), meaning, [this, kind = kinds[i]] {
            m_window->resultsView()->showChart(kind);
            chartChosen();
        });
    }
    add(QKeySequence(Qt::Key_Space), tr("Run"), [this] {
        if (!m_window->isRunning() && m_window->isReady())
            m_window->startRun();
    });
}

// A chart the presenter picked stays for a whole interval before the cycle moves on.
void DemoController::chartChosen()
{
    if (m_cycle.isActive())
        m_cycle.start();
}

void DemoController::setFullScreen(bool on)
{
    if (on == m_window->isFullScreen())
        return;
    if (on) {
        m_window->showFullScreen();
        return;
    }
    m_window->showNormal();
    // Without a window manager the normal size is still the screen's: come back to a window,
    // one that visibly is not the whole screen.
    const QScreen *screen = m_window->screen();
    if (screen && m_window->geometry() == screen->geometry()) {
        const QRect available = screen->availableGeometry();
        const QSize size = MainWindow::defaultSize().boundedTo(available.size() * 0.9);
        m_window->setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, available));
    }
}

void DemoController::runWhenReady()
{
    if (m_started || !m_window->isReady())
        return;
    m_started = true;
    m_window->startRun();
}
