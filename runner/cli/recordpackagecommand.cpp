// versus servers --record FOLDER: scripts/fetch-servers records a Debian package it unpacked
// into the cache through this, so that one C++ writer (cachemanifest.h) writes every manifest.

#include "commands.h"

#include "packagerecord.h"
#include "terminalwrite.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace {

const QString kRecordOption = QStringLiteral("record");
const QStringList kRecordFieldOptions{QStringLiteral("product"), QStringLiteral("loader"), QStringLiteral("suite"),
                                      QStringLiteral("package"), QStringLiteral("package-version")};

QString absoluteCleanPath(const QString &path)
{
    return path.isEmpty() ? path : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

} // namespace

void addRecordPackageOptions(QCommandLineParser &parser)
{
    parser.addOption({kRecordOption,
                      QStringLiteral("Instead of the catalog: record a Debian package scripts/fetch-servers unpacked into this cache "
                                     "folder (bin/<product>-server, lib/ with its libraries and the loader that starts it). "
                                     "Checks that the server says it is --product and answers, then writes the folder's "
                                     "manifest.json with the sha256 of every file in bin/ and lib/. Prints its label."),
                      QStringLiteral("folder")});
    parser.addOption({QStringLiteral("product"), QStringLiteral("With --record: valkey or redis."), QStringLiteral("name")});
    parser.addOption({QStringLiteral("loader"), QStringLiteral("With --record: the dynamic loader in the folder's lib/ that starts its programs."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("suite"), QStringLiteral("With --record: the Debian suite the package came from."), QStringLiteral("suite")});
    parser.addOption({QStringLiteral("package"), QStringLiteral("With --record: the Debian package's name."), QStringLiteral("name")});
    parser.addOption({QStringLiteral("package-version"), QStringLiteral("With --record: the Debian package's version."),
                      QStringLiteral("version")});
}

bool isRecordPackage(const QCommandLineParser &parser)
{
    return parser.isSet(kRecordOption);
}

QString recordOptionWithoutFolder(const QCommandLineParser &parser)
{
    if (parser.isSet(kRecordOption))
        return QString();
    for (const QString &option : kRecordFieldOptions) {
        if (parser.isSet(option))
            return option;
    }
    return QString();
}

int runRecordPackage(const QCommandLineParser &parser)
{
    if (parser.value(kRecordOption).isEmpty()) {
        std::fprintf(stderr, "versus servers --record: no folder given\n");
        return 2;
    }
    PackageRecordRequest request;
    request.folder = absoluteCleanPath(parser.value(kRecordOption));
    request.product = parser.value(QStringLiteral("product"));
    request.loader = absoluteCleanPath(parser.value(QStringLiteral("loader")));
    request.suite = parser.value(QStringLiteral("suite"));
    request.package = parser.value(QStringLiteral("package"));
    request.packageVersion = parser.value(QStringLiteral("package-version"));
    const Outcome<CacheManifest> recorded = recordDebianPackage(request);
    if (!recorded) {
        writeTerminal(stderr, QStringLiteral("versus servers --record: %1\n").arg(recorded.error()));
        return 1;
    }
    writeTerminal(stdout, recorded->label + QLatin1Char('\n'));
    return 0;
}
