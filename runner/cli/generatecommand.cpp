#include "commands.h"

#include "eventgenerator.h"
#include "generatorlimits.h"
#include "interruption.h"
#include "outputchecks.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>

namespace {

bool parsePositive(const QCommandLineParser &parser, const QString &name, long long &value)
{
    bool ok = false;
    const long long parsed = parser.value(name).toLongLong(&ok);
    if (!ok || parsed <= 0) {
        writeTerminal(stderr, QStringLiteral("versus generate: --%1 must be a positive integer, got '%2'\n").arg(name, parser.value(name)));
        return false;
    }
    value = parsed;
    return true;
}

} // namespace

int runGenerateCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Generate a recording of e-commerce shopper events as JSON Lines (see docs/WORKLOADS.md).\n"
        "The same options always give the same bytes."));
    parser.addHelpOption();
    const GeneratorOptions defaults;
    parser.addOption({QStringLiteral("events"), QStringLiteral("Number of events to write (default %1).").arg(defaults.events), QStringLiteral("N"),
                      QString::number(defaults.events)});
    parser.addOption({QStringLiteral("shoppers"), QStringLiteral("Number of shoppers (default %1).").arg(defaults.shoppers), QStringLiteral("M"),
                      QString::number(defaults.shoppers)});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the random generator (default %1).").arg(defaults.seed), QStringLiteral("S"),
                      QString::number(defaults.seed)});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Output file (required)."), QStringLiteral("FILE")});
    if (!parser.parse(arguments)) {
        writeTerminal(stderr, QStringLiteral("versus generate: %1\n").arg(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("generate"))), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        writeTerminal(stderr, QStringLiteral("versus generate: unexpected argument '%1'\n").arg(parser.positionalArguments().first()));
        return 2;
    }
    if (!parser.isSet(QStringLiteral("out"))) {
        std::fprintf(stderr, "versus generate: --out FILE is required (see --help)\n");
        return 2;
    }
    GeneratorOptions options;
    bool seedOk = false;
    const qulonglong parsedSeed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk);
    if (!seedOk) {
        writeTerminal(stderr, QStringLiteral("versus generate: --seed must be a non-negative integer, got '%1'\n")
                                  .arg(parser.value(QStringLiteral("seed"))));
        return 2;
    }
    options.seed = parsedSeed;
    if (!parsePositive(parser, QStringLiteral("events"), options.events)
        || !parsePositive(parser, QStringLiteral("shoppers"), options.shoppers))
        return 2;
    for (const Status &bounded : {checkGeneratedEvents(options.events, QStringLiteral("--events")),
                                  checkGeneratedShoppers(options.shoppers, QStringLiteral("--shoppers"))}) {
        if (!bounded) {
            writeTerminal(stderr, QStringLiteral("versus generate: %1\n").arg(bounded.error()));
            return 2;
        }
    }
    const QString out = parser.value(QStringLiteral("out"));
    if (Status writable = checkOutputFile(QStringLiteral("--out"), out, {}); !writable) {
        writeTerminal(stderr, QStringLiteral("versus generate: %1\n").arg(writable.error()));
        return 2;
    }
    // Ctrl-C, SIGTERM or SIGHUP stop the generator; the file at --out is left as it was.
    installInterruptHandlers();
    const Outcome<EventRecording> written = writeEventRecording(options, out);
    if (!written) {
        writeTerminal(stderr, QStringLiteral("versus generate: %1\n").arg(written.error()));
        return interruptRequested() ? 130 : 2;
    }
    // The shoppers counted in what was written: a short stream has fewer than --shoppers.
    const QString asked = written->shoppers < options.shoppers ? QStringLiteral("of %1; ").arg(options.shoppers) : QString();
    writeTerminal(stderr, QStringLiteral("versus generate: wrote %1 events from %2 shoppers (%3seed %4) to %5\n")
                              .arg(written->events)
                              .arg(written->shoppers)
                              .arg(asked)
                              .arg(quint64(options.seed))
                              .arg(out));
    return 0;
}
