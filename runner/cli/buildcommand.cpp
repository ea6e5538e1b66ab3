#include "commands.h"

#include "buildconsole.h"
#include "interruption.h"
#include "servercatalog.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <cstdio>

int runBuildCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Builds a Valkey or Redis server from its upstream source, as upstream's own Makefile builds a release\n"
        "(bundled deps/ and jemalloc, upstream's flags, no distribution patches, BUILD_TLS=yes), into the\n"
        "server cache (%1), where `versus servers` lists it and --servers takes it by its label.\n"
        "SOURCE is a release tarball (valkey-8.0.1.tar.gz: labelled valkey-8.0.1-upstream) or a source tree\n"
        "(a git checkout: labelled by its branch and short sha, '-dirty' when it has changes). The same\n"
        "source is built once; a changed file builds again, reusing what did not change.\n\n"
        "Examples:\n"
        "  versus build ~/Downloads/valkey-9.1.2.tar.gz\n"
        "  versus build ~/src/valkey\n"
        "  versus run --servers valkey-9.1.2-upstream,src:~/src/valkey")
                                         .arg(ServerCatalog::defaultCacheDir()));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("SOURCE"), QStringLiteral("A release tarball or a source tree."));
    if (!parser.parse(arguments)) {
        writeTerminal(stderr, QStringLiteral("versus build: %1\n").arg(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("build"))), stdout);
        return 0;
    }
    const QStringList sources = parser.positionalArguments();
    if (sources.size() != 1) {
        std::fprintf(stderr, "versus build: expected one SOURCE (a tarball or a source tree), got %d (try --help)\n",
                     int(sources.size()));
        return 2;
    }
    const Outcome<BuiltServer> built = buildWithConsoleProgress(sources.front(), stderr);
    if (!built) {
        writeTerminal(stderr, QStringLiteral("versus build: %1: %2\n").arg(sources.front(), built.error()));
        return interruptRequested() ? 130 : 2;
    }
    // The label holds the tree's folder name: written as text.
    writeTerminal(stdout, QStringLiteral("%1\t%2\t%3\n")
                              .arg(built->label, built->folder,
                                   built->reused            ? QStringLiteral("already built")
                                   : built->fromNothing     ? QStringLiteral("built")
                                                            : QStringLiteral("built again, reusing what did not change")));
    return 0;
}
