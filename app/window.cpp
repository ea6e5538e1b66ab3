// `versus` without a subcommand: the window.
#include "commands.h"
#include "entrypoints.h"

#include "autorun.h"
#include "democontroller.h"
#include "mainwindow.h"
#include "messagetext.h"
#include "runpanel.h"
#include "terminalwrite.h"
#include "workloadpanel.h"
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstring>

namespace {

struct WindowOptions {
    QCommandLineOption autorun{QStringLiteral("autorun"),
                               QStringLiteral("Run as soon as the window is ready, from the workload's and the run's "
                                              "defaults.")};
    QCommandLineOption workload{QStringLiteral("workload"),
                                QStringLiteral("Workload to select: ecommerce, hash-ttl or a file."),
                                QStringLiteral("NAME")};
    QCommandLineOption sweep{QStringLiteral("sweep"),
                             QStringLiteral("With --workload hash-ttl: run at each of these values of one parameter, "
                                            "e.g. value-size=16,64,256 (the Sweep field)."),
                             QStringLiteral("NAME=V1,V2,...")};
    QCommandLineOption topology{QStringLiteral("topology"),
                                QStringLiteral("standalone, cluster[:N] or both, e.g. standalone,cluster:3 (the Topology "
                                               "field)."),
                                QStringLiteral("LIST")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("With --autorun: save a picture of the window when the run ends."),
                                  QStringLiteral("FILE")};
    QCommandLineOption quit{QStringLiteral("quit"), QStringLiteral("With --autorun: quit when the run ends.")};
    QCommandLineOption out{QStringLiteral("out"),
                           QStringLiteral("With --autorun: save the results bundle (JSON) here when the run ends."),
                           QStringLiteral("FILE")};
    QCommandLineOption demo{QStringLiteral("demo"),
                            QStringLiteral("Demo mode: full screen, text sized for the screen, panels collapsed, "
                                           "no paths or host names, runs the default workload.")};
    QCommandLineOption callout{QStringLiteral("callout"),
                               QStringLiteral("With --demo: show the headline change as a big number.")};
    QCommandLineOption cycleCharts{QStringLiteral("cycle-charts"),
                                   QStringLiteral("With --demo: during a run, show the next chart every SECONDS."),
                                   QStringLiteral("SECONDS")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(QStringLiteral(
            "Compares Valkey versions side by side: replays one workload into each, charts memory per stored "
            "attribute and server time per command.\nSubcommands: versus run | export | servers | generate | build."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({autorun, workload, sweep, topology, screenshot, quit, out, demo, callout, cycleCharts});
    }
};

bool hasDisplay(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-platform") == 0)
            return true;
    }
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

bool asksForHelp(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char *help : {"-h", "--help", "-?", "--help-all"}) {
            if (std::strcmp(argv[i], help) == 0)
                return true;
        }
    }
    return false;
}

// --callout and --cycle-charts; false (with the reason printed) when they are wrong.
bool readDemoOptions(const QCommandLineParser &parser, const WindowOptions &options, DemoOptions &demo)
{
    if (parser.isSet(options.cycleCharts)) {
        bool number = false;
        demo.cycleSeconds = parser.value(options.cycleCharts).toInt(&number);
        if (!number || demo.cycleSeconds < 1) {
            writeTerminal(stderr, QStringLiteral("versus: --cycle-charts needs a whole number of seconds (1 or more), not %1\n")
                                      .arg(quotedForMessage(parser.value(options.cycleCharts))));
            return false;
        }
    }
    demo.callout = parser.isSet(options.callout);
    demo.runByItself = !parser.isSet(options.autorun);
    if ((demo.callout || demo.cycleSeconds > 0) && !parser.isSet(options.demo)) {
        std::fprintf(stderr, "versus: --callout and --cycle-charts need --demo\n");
        return false;
    }
    return true;
}

} // namespace

int runWindow(int &argc, char **argv)
{
    const WindowOptions options;
    const bool help = asksForHelp(argc, argv);
    // Answered before a QApplication exists: without a display it aborts instead of helping.
    if (help || !hasDisplay(argc, argv)) {
        QCoreApplication core(argc, argv);
        nameApplication();
        QCommandLineParser parser;
        options.addTo(parser);
        if (help)
            parser.showHelp(0);
        std::fprintf(stderr,
                     "versus: no display to open the window on (DISPLAY is not set).\n"
                     "  Without a display: versus run [options]   (versus run --help lists them)\n"
                     "  or render off-screen: QT_QPA_PLATFORM=offscreen versus --autorun --screenshot FILE --quit\n");
        return 2;
    }

    QApplication app(argc, argv);
    nameApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("Versus"));

    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);

    if ((parser.isSet(options.screenshot) || parser.isSet(options.quit) || parser.isSet(options.out)) &&
        !parser.isSet(options.autorun)) {
        std::fprintf(stderr, "versus: --screenshot, --out and --quit need --autorun\n");
        return 2;
    }

    DemoOptions demo;
    if (!readDemoOptions(parser, options, demo))
        return 2;
    if (parser.isSet(options.demo))
        DemoController::applyLargeFonts();
    MainWindow window;
    if (parser.isSet(options.screenshot)) {
        // Pictures of the same size whatever size the window had last time.
        window.setRemembersGeometry(false);
        window.resize(MainWindow::defaultSize());
    }
    // A presenter's or a script's run shows what the workload gives, not what an earlier
    // session of the window left in the settings.
    const bool fromDefaults = parser.isSet(options.demo) || parser.isSet(options.autorun);
    if (fromDefaults)
        window.startFromDefaults();
    if (parser.isSet(options.workload))
        window.workloadPanel()->choose(parser.value(options.workload));
    else if (fromDefaults)
        window.workloadPanel()->choose(QStringLiteral("ecommerce"));   // the default workload
    if (parser.isSet(options.sweep))
        window.workloadPanel()->setSweep(parser.value(options.sweep));
    if (parser.isSet(options.topology))
        window.runPanel()->setTopology(parser.value(options.topology));

    int exitCode = 0;
    if (parser.isSet(options.demo)) {
        auto *controller = new DemoController(&window);
        controller->start(demo);
    } else {
        window.show();
    }
    if (parser.isSet(options.autorun)) {
        auto *runner = new AutoRun(&window, parser.value(options.screenshot), parser.isSet(options.quit),
                                   parser.value(options.out));
        QObject::connect(runner, &AutoRun::finished, &window, [&exitCode](int code) { exitCode = code; });
        runner->start();
    }
    const int loopCode = app.exec();
    return loopCode != 0 ? loopCode : exitCode;
}
