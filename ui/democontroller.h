#pragma once
// Demo mode, for showing Versus to customers on a big screen: full screen, no host names or
// paths on screen, no menu bar (its keys still work), the panels collapsed behind a large "›", text that grows with the screen (readable from 4 m on a
// 1080p screen), keys a presenter can find in the dark, and the default workload runs by itself
// once the servers are found.
//
// Keys: Esc leaves full screen, F11 toggles it, Ctrl+Tab / Ctrl+Shift+Tab and 1–4 switch
// charts, Space starts a run when one can start (it never cancels), Shift+Esc cancels, F9 shows
// or hides the panels.

#include "charttheme.h"
#include <QObject>
#include <QTimer>

class MainWindow;

// Text sizes in pixels for a window this tall; at 1080 px bar labels are 24 px, the headline
// 48 px and the call-out's number 120 px. Heights under 600 px count as 600.
struct DemoSizes {
    ChartFontSizes chart;
    int headline = 0;
    int subtitle = 0;
    int calloutNumber = 0;
    int calloutCaption = 0;
    int text = 0;   // menus, tabs and controls
    int sidebarButton = 0;   // the "›" that brings the panels back

    static DemoSizes forHeight(int height);
};

struct DemoOptions {
    bool runByItself = true;   // start the run once ready (off when --autorun does it instead)
    bool callout = false;      // the big-number call-out instead of the headline
    int cycleSeconds = 0;      // during a run, the next chart every this many seconds; 0: never
};

class DemoController : public QObject {
    Q_OBJECT
public:
    explicit DemoController(MainWindow *window);
    // Call before the window is built, so every widget sizes itself for the large text.
    static void applyLargeFonts();
    void start(const DemoOptions &options = DemoOptions());
    // Sizes the text for a window of this height (start() and every resize do).
    void applySizes(int windowHeight);
    bool cycling() const { return m_cycle.isActive(); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void installKeys();
    void cycleDuringRuns(int seconds);
    void runWhenReady();
    void setFullScreen(bool on);
    void chartChosen();

    MainWindow *m_window = nullptr;
    DemoOptions m_options;
    bool m_started = false;
    int m_sizedFor = 0;
    QTimer m_cycle;
};
