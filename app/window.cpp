// `versus` without a subcommand: the window.
#include "commands.h"

#include "autorun.h"
#include "democontroller.h"
#include "mainwindow.h"
#include "workloadpanel.h"
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstring>

namespace {

struct WindowOptions {
    QCommandLineOption autorun{QStringLiteral("autorun"), QStringLiteral("Run as soon as the window is ready.")};
    QCommandLineOption workload{QStringLiteral("workload"),
                                QStringLiteral("Workload to select: ecommerce, hash-ttl or a file."),
                                QStringLiteral("NAME")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("With --autorun: save a picture of the window when the run ends."),
                                  QStringLiteral("FILE")};
    QCommandLineOption quit{QStringLiteral("quit"), QStringLiteral("With --autorun: quit when the run ends.")};
    QCommandLineOption demo{QStringLiteral("demo"),
                            QStringLiteral("Demo mode: full screen, large fonts, no paths or host names, "
                                           "runs the default workload.")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(QStringLiteral(
            "Compares Valkey versions side by side: replays one workload into each, charts memory per stored "
            "attribute and server time per command.\nSubcommands: versus run | export | servers | generate."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({autorun, workload, screenshot, quit, demo});
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

} // namespace

int runWindow(int &argc, char **argv)
{
    const WindowOptions options;
    // Answered before a QApplication exists: without a display it aborts instead of helping.
    if (asksForHelp(argc, argv) || !hasDisplay(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("versus"));
        QCoreApplication::setApplicationVersion(QStringLiteral(VERSUS_VERSION));
        QCommandLineParser parser;
        options.addTo(parser);
        if (asksForHelp(argc, argv))
            parser.showHelp(0);
        std::fprintf(stderr,
                     "versus: no display to open the window on (DISPLAY is not set).\n"
                     "  Without a display: versus run [options]   (versus run --help lists them)\n"
                     "  or render off-screen: QT_QPA_PLATFORM=offscreen versus --autorun --screenshot FILE --quit\n");
        return 2;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("versus"));
    QApplication::setOrganizationName(QStringLiteral("versus"));
    QApplication::setApplicationDisplayName(QStringLiteral("Versus"));
    QApplication::setApplicationVersion(QStringLiteral(VERSUS_VERSION));

    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);
    const QCommandLineOption &autorun = options.autorun;
    const QCommandLineOption &workload = options.workload;
    const QCommandLineOption &screenshot = options.screenshot;
    const QCommandLineOption &quit = options.quit;
    const QCommandLineOption &demo = options.demo;

    if ((parser.isSet(screenshot) || parser.isSet(quit)) && !parser.isSet(autorun)) {
        std::fprintf(stderr, "versus: --screenshot and --quit need --autorun\n");
        return 2;
    }

    if (parser.isSet(demo))
        DemoController::applyLargeFonts();
    MainWindow window;
    if (parser.isSet(workload))
        window.workloadPanel()->choose(parser.value(workload));
    else if (parser.isSet(demo))
        window.workloadPanel()->choose(QStringLiteral("ecommerce"));   // the default workload

    int exitCode = 0;
    if (parser.isSet(demo)) {
        auto *controller = new DemoController(&window);
        controller->start(!parser.isSet(autorun));
    } else {
        window.show();
    }
    if (parser.isSet(autorun)) {
        auto *runner = new AutoRun(&window, parser.value(screenshot), parser.isSet(quit));
        QObject::connect(runner, &AutoRun::finished, &window, [&exitCode](int code) { exitCode = code; });
        runner->start();
    }
    const int loopCode = app.exec();
    return loopCode != 0 ? loopCode : exitCode;
}
