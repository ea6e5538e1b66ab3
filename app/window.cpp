// `versus` without a subcommand: the window.
#include "commands.h"

#include "autorun.h"
#include "democontroller.h"
#include "mainwindow.h"
#include "workloadpanel.h"
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

int runWindow(int &argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("versus"));
    QApplication::setOrganizationName(QStringLiteral("versus"));
    QApplication::setApplicationDisplayName(QStringLiteral("Versus"));
    QApplication::setApplicationVersion(QStringLiteral(VERSUS_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares Valkey versions side by side: replays one workload into each, charts memory per stored "
        "attribute and server time per command.\nSubcommands: versus run | export | servers | generate."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption autorun(QStringLiteral("autorun"), QStringLiteral("Run as soon as the window is ready."));
    const QCommandLineOption workload(QStringLiteral("workload"),
                                      QStringLiteral("Workload to select: ecommerce, hash-ttl or a file."),
                                      QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("With --autorun: save a picture of the window when the run ends."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption quit(QStringLiteral("quit"), QStringLiteral("With --autorun: quit when the run ends."));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Demo mode: full screen, large fonts, no paths or host names, "
                                                 "runs the default workload."));
    parser.addOptions({autorun, workload, screenshot, quit, demo});
    parser.process(app);

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
