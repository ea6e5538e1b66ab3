#pragma once
// Demo mode, for showing Versus to customers on a big screen: full screen, large fonts,
// no host names or paths on screen, and the default workload runs by itself once the
// servers are found.

#include <QObject>

class MainWindow;

class DemoController : public QObject {
    Q_OBJECT
public:
    explicit DemoController(MainWindow *window);
    // Call before the window is built, so every widget sizes itself for the large fonts.
    static void applyLargeFonts();
    // runByItself: start the run once ready (off when --autorun does it instead).
    void start(bool runByItself = true);

private:
    void runWhenReady();

    MainWindow *m_window = nullptr;
    bool m_started = false;
};
