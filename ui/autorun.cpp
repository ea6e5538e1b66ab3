#include "autorun.h"

#include "bundlefiles.h"
#include "mainwindow.h"
#include "resultsview.h"
#include <QCoreApplication>
#include <QImageWriter>
#include <QPixmap>
#include <QTimer>
#include <cstdio>

AutoRun::AutoRun(MainWindow *window, QString screenshotPath, bool quitWhenDone, QString resultsPath)
    : QObject(window), m_window(window), m_screenshot(std::move(screenshotPath)), m_results(std::move(resultsPath)),
      m_quit(quitWhenDone)
{
}

void AutoRun::start()
{
    connect(m_window, &MainWindow::readinessChanged, this, &AutoRun::runWhenReady);
    connect(m_window, &MainWindow::runNotStarted, this, [this](const QString &reason) {
        std::fprintf(stderr, "versus: the run did not start: %s\n", qPrintable(reason));
        finish(1);
    });
    connect(m_window, &MainWindow::runFinished, this, [this](const ResultsBundle &results) {
        if (!m_results.isEmpty()) {
            if (const Status saved = saveBundleFile(results, m_results); !saved) {
                std::fprintf(stderr, "versus: %s\n", qPrintable(saved.error()));
                finish(1);
                return;
            }
        }
        m_window->resultsView()->flushCharts();
        // One turn of the event loop so the final bars and labels are laid out and painted.
        QTimer::singleShot(300, this, [this] {
            int code = 0;
            if (!m_screenshot.isEmpty()) {
                const QPixmap picture = m_window->grab();
                QImageWriter writer(m_screenshot);
                if (!writer.write(picture.toImage())) {
                    std::fprintf(stderr, "versus: cannot write %s: %s\n", qPrintable(m_screenshot),
                                 qPrintable(writer.errorString()));
                    code = 1;
                }
            }
            finish(code);
        });
    });
    runWhenReady();
}

void AutoRun::runWhenReady()
{
    if (m_started || !m_window->isSettled())
        return;
    // Settled but not ready (no server selected, a workload error): startRun() says why.
    m_started = true;
    m_window->startRun();
}

void AutoRun::finish(int exitCode)
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT finished(exitCode);
    if (m_quit)
        QCoreApplication::exit(exitCode);
}
