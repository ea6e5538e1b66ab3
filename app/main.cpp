#include "commands.h"
#include "entrypoints.h"

#include "orphancleanup.h"
#include "secretvariables.h"
#include "standardstreams.h"

#include <QApplication>
#include <QCoreApplication>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

namespace {

QtMessageHandler defaultMessageHandler = nullptr;

// Headless runs as root have no XDG_RUNTIME_DIR; Qt copes, but its warning on every start
// reads like a fault in CI logs.
void quietMessageHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    defaultMessageHandler(type, context, message);
}

QStringList argumentsOf(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

} // namespace

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("versus"));
    QCoreApplication::setOrganizationName(QStringLiteral("versus"));
    QCoreApplication::setApplicationVersion(QStringLiteral(VERSUS_VERSION));
}

int main(int argc, char **argv)
{
    openMissingStandardStreams();
    // hiredis 0.14 writes without MSG_NOSIGNAL: a server dying mid-write must not kill us.
    std::signal(SIGPIPE, SIG_IGN);
    defaultMessageHandler = qInstallMessageHandler(quietMessageHandler);

    // Before anything can start a child: the password variables are kept and unset, so no
    // server, probe or build Versus starts inherits them.
    takeSecretVariables();

    const char *subcommand = argc > 1 ? argv[1] : "";
    // Answered before any QApplication exists: the window's would abort without a display.
    if (std::strcmp(subcommand, "--version") == 0 || std::strcmp(subcommand, "-v") == 0) {
        std::printf("versus %s\n", VERSUS_VERSION);
        return 0;
    }
    // Server temp dirs left by a Versus that was killed (its servers died with it) go at every start.
    cleanStaleServerDirs();

    using Handler = int (*)(const QStringList &);
    struct Entry { const char *name; Handler handler; };
    static const Entry headless[] = {
        {"servers", runServersCommand},
        {"generate", runGenerateCommand},
        {"export", runExportCommand},
        {"run", runRunCommand},
        {"build", runBuildCommand},
    };
    for (const Entry &entry : headless) {
        if (std::strcmp(subcommand, entry.name) == 0) {
            // Chart rendering (export, and run which exports) needs a GUI application; QtCharts
            // items are graphics widgets. Without a display, render off-screen.
            const bool renders = std::strcmp(entry.name, "export") == 0 || std::strcmp(entry.name, "run") == 0;
            if (renders && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
                && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            std::unique_ptr<QCoreApplication> app(renders ? new QApplication(argc, argv)
                                                          : new QCoreApplication(argc, argv));
            nameApplication();
            // Drop "versus <subcommand>" so each command parses its own options.
            QStringList arguments = argumentsOf(argc, argv);
            arguments.removeAt(1);
            return entry.handler(arguments);
        }
    }
    return runWindow(argc, argv);
}
