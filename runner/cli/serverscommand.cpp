#include "commands.h"

#include "buildoriginjson.h"
#include "endpointpassword.h"
#include "jsonsupport.h"
#include "provenance.h"
#include "servercatalog.h"
#include "tlsoptions.h"
#include "messagetext.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

namespace {

Json toJson(const CatalogEntry &entry)
{
    const ServerSpec &spec = entry.spec;
    std::vector<QString> command;
    if (!spec.program.isEmpty()) {
        command.push_back(spec.program);
        command.insert(command.end(), spec.prefixArguments.begin(), spec.prefixArguments.end());
    }
    return {
        {"label", spec.label},
        {"product", spec.identity.product},
        {"version", spec.identity.version},
        {"allocator", spec.identity.allocator},
        {"build_id", spec.identity.buildId},
        {"source", serverSourceName(spec.source)},
        {"origin", buildKindName(spec.origin.kind)},
        {"build", buildOriginToJson(spec.origin)},
        {"jemalloc_quantum", spec.recordedAllocator.quantumBytes > 0 ? Json(spec.recordedAllocator.quantumBytes) : Json()},
        {"binary", spec.binaryPath},
        {"sha256", spec.binarySha256},
        {"command", command},
        {"cli_command", entry.cliCommand.isEmpty() ? Json() : Json(std::vector<QString>(entry.cliCommand.begin(), entry.cliCommand.end()))},
        {"folder", entry.folder.isEmpty() ? Json() : Json(entry.folder)},
        {"usable", entry.usable()},
        {"status", entry.usable() ? QStringLiteral("ok") : entry.problem},
    };
}

void printTable(QTextStream &out, const std::vector<CatalogEntry> &entries)
{
    const QStringList header{QStringLiteral("LABEL"), QStringLiteral("PRODUCT"), QStringLiteral("VERSION"),
                             QStringLiteral("ORIGIN"), QStringLiteral("ALLOCATOR"), QStringLiteral("QUANTUM"),
                             QStringLiteral("BINARY"), QStringLiteral("STATUS")};
    std::vector<QStringList> rows{header};
    for (const CatalogEntry &entry : entries) {
        const ServerSpec &spec = entry.spec;
        const int quantum = spec.recordedAllocator.quantumBytes;
        rows.push_back({spec.label, spec.identity.product, spec.identity.version, buildOriginSummary(spec.origin),
                        spec.identity.allocator, quantum > 0 ? QStringLiteral("%1 B").arg(quantum) : QString(), spec.binaryPath,
                        entry.usable() ? QStringLiteral("ok") : entry.problem});
    }
    std::vector<int> widths(header.size(), 0);
    // A cell shows what a binary's --version or a manifest said as text, on its row.
    for (QStringList &row : rows) {
        for (QString &cell : row)
            cell = terminalText(cell, LineBreaks::Shown);
    }
    for (const QStringList &row : rows) {
        for (int column = 0; column < row.size(); ++column)
            widths[column] = std::max(widths[column], int(row[column].size()));
    }
    for (const QStringList &row : rows) {
        QString line;
        for (int column = 0; column < row.size(); ++column) {
            const QString cell = row[column].isEmpty() ? QStringLiteral("-") : row[column];
            line += column + 1 < row.size() ? cell.leftJustified(widths[column] + 2) : cell;
        }
        out << line << '\n';
    }
}

// One line per entry, its cells tab-separated and never empty ("-"), for scripts (fetch-servers
// reads it with `read`, which would run two tabs together).
void printTabSeparated(QTextStream &out, const std::vector<CatalogEntry> &entries)
{
    for (const CatalogEntry &entry : entries) {
        const ServerSpec &spec = entry.spec;
        const int quantum = spec.recordedAllocator.quantumBytes;
        const QStringList cells{spec.label, spec.identity.product, spec.identity.version, buildKindName(spec.origin.kind),
                                spec.origin.suite, spec.origin.packageVersion, entry.folder, spec.binaryPath, spec.binarySha256,
                                quantum > 0 ? QString::number(quantum) : QString(),
                                entry.usable() ? QStringLiteral("ok") : entry.problem};
        QStringList shown;
        for (const QString &cell : cells)
            shown << (cell.isEmpty() ? QStringLiteral("-") : terminalText(cell, LineBreaks::Shown).replace(QLatin1Char('\t'), QStringLiteral("\\t")));
        out << shown.join(QLatin1Char('\t')) << '\n';
    }
}

int printCatalog(const QCommandLineParser &parser)
{
    ServerCatalog catalog;
    catalog.discover();
    QTextStream out(stdout);
    if (parser.isSet(QStringLiteral("json"))) {
        Json servers = Json::array();
        for (const CatalogEntry &entry : catalog.entries())
            servers.push_back(toJson(entry));
        const Json document = {{"cache", ServerCatalog::defaultCacheDir()}, {"servers", servers}};
        out << QString::fromStdString(document.dump(4)) << '\n';
        return 0;
    }
    if (parser.isSet(QStringLiteral("tsv"))) {
        printTabSeparated(out, catalog.entries());
        return 0;
    }
    if (catalog.entries().empty()) {
        out << "No servers found in " << ServerCatalog::defaultCacheDir()
            << " or on PATH. Run scripts/fetch-servers, or pass a binary with --servers.\n";
        return 0;
    }
    printTable(out, catalog.entries());
    // --version's allocator is the same for a Debian package and an upstream build; the
    // quantum that tells them apart comes from the running server.
    out << "\nALLOCATOR is what --version says, alike for a Debian package and an upstream build. QUANTUM is the\n"
           "jemalloc quantum the server reported when it was fetched or built (- when not recorded); every run\n"
           "reads it again and its bundle records it.\n";
    return 0;
}

} // namespace

int runServersCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists the server binaries Versus can launch: those scripts/fetch-servers put in the cache\n(%1),\n"
        "and valkey-server / redis-server on PATH. Each is identified by running it with --version.")
                                         .arg(ServerCatalog::defaultCacheDir()));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the catalog as JSON.")});
    parser.addOption({QStringLiteral("tsv"),
                      QStringLiteral("Print the catalog for scripts: one line per server, its fields tab-separated, '-' when "
                                     "empty: label, product, version, origin, suite, package version, cache folder, binary, "
                                     "sha256, jemalloc quantum, status ('ok' or why it cannot be used).")});
    parser.addOption({QStringLiteral("endpoint"),
                      QStringLiteral("Instead of the catalog: what a run of Versus that was killed left on this server (or on "
                                     "every primary of its cluster): its versus-replay- ACL users and the settings it changed. "
                                     "Changes nothing without --put-back."),
                      QStringLiteral("host:port")});
    parser.addOption({QStringLiteral("put-back"),
                      QStringLiteral("With --endpoint: delete those users and put the settings back to the owner's values.")});
    addRecordPackageOptions(parser);
    addPasswordOptions(parser);
    addTlsOptions(parser);
    if (!parser.parse(arguments)) {
        writeTerminal(stderr, QStringLiteral("versus servers: %1\n").arg(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("servers"))), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        writeTerminal(stderr, QStringLiteral("versus servers: unexpected argument '%1'\n").arg(parser.positionalArguments().first()));
        return 2;
    }

    if (parser.isSet(QStringLiteral("endpoint")))
        return runEndpointLeftovers(parser);
    if (parser.isSet(QStringLiteral("put-back"))) {
        std::fprintf(stderr, "versus servers: --put-back needs --endpoint host:port\n");
        return 2;
    }
    if (isRecordPackage(parser))
        return runRecordPackage(parser);
    if (const QString option = recordOptionWithoutFolder(parser); !option.isEmpty()) {
        writeTerminal(stderr, QStringLiteral("versus servers: --%1 needs --record FOLDER\n").arg(option));
        return 2;
    }
    return printCatalog(parser);
}
