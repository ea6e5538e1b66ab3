#pragma once
// `versus --autorun [--workload NAME] [--screenshot FILE] [--quit]`: runs once the window is
// ready, saves a picture of the whole window when the run ends and optionally quits with
// the outcome (0 when the run happened, 1 when it could not start or the picture could not
// be written).

#include <QObject>
#include <QString>

class MainWindow;

class AutoRun : public QObject {
    Q_OBJECT
public:
    // `resultsPath`, when not empty, receives the run's bundle: a screenshot can then be
    // published with the measurements it shows.
    AutoRun(MainWindow *window, QString screenshotPath, bool quitWhenDone, QString resultsPath = QString());
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void runWhenReady();
    void finish(int exitCode);

    MainWindow *m_window = nullptr;
    QString m_screenshot;
    QString m_results;
    bool m_quit = false;
    bool m_started = false;
    bool m_finished = false;
};
