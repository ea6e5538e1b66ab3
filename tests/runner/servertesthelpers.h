#pragma once
// Helpers for tests that need real servers. Header-only, and independent of ServerCatalog on
// purpose: it reads the manifests scripts/fetch-servers writes and nothing else.
//
//   VERSUS_REQUIRE_SERVERS();                        // every version the project supports
//   VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");      // ServerSpec spec, first label with that prefix
//
// Both FAIL when the environment variable CI is set and a server is missing, and SKIP otherwise.

#include "serverspec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>
#include <algorithm>
#include <optional>
#include <vector>

namespace ServerTestHelpers {

// $VERSUS_SERVER_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/versus/servers.
inline QString serverCacheDir()
{
    const QString explicitDir = qEnvironmentVariable("VERSUS_SERVER_CACHE");
    if (!explicitDir.isEmpty())
        return explicitDir;
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty())
        cache = QDir::homePath() + QStringLiteral("/.cache");
    return cache + QStringLiteral("/versus/servers");
}

// One ServerSpec per <cache>/<label>/manifest.json with a usable "command", sorted by label.
inline std::vector<ServerSpec> fetchedServers()
{
    std::vector<ServerSpec> specs;
    const QDir cache(serverCacheDir());
    for (const QString &label : cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QFile file(cache.filePath(label + QStringLiteral("/manifest.json")));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
        QStringList command;
        for (const QJsonValue &part : manifest.value(QLatin1String("command")).toArray())
            command << part.toString();
        if (command.isEmpty() || !QFileInfo(command.first()).isExecutable())
            continue;
        ServerSpec spec;
        spec.label = manifest.value(QLatin1String("label")).toString(label);
        spec.identity.product = manifest.value(QLatin1String("product")).toString();
        spec.identity.version = manifest.value(QLatin1String("version")).toString();
        spec.binaryPath = manifest.value(QLatin1String("binary")).toString();
        spec.binarySha256 = manifest.value(QLatin1String("sha256")).toString();
        spec.suite = manifest.value(QLatin1String("suite")).toString();
        spec.packageVersion = manifest.value(QLatin1String("package_version")).toString();
        spec.source = QStringLiteral("cache");
        spec.program = command.takeFirst();
        spec.prefixArguments = command;
        specs.push_back(spec);
    }
    return specs;
}

// Label prefixes of the versions every test run must have.
inline QStringList requiredServerPrefixes()
{
    return {QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-8.1.1"), QStringLiteral("valkey-9.1."),
            QStringLiteral("redis-7.0.")};
}

inline std::optional<ServerSpec> findFetchedServer(const QString &labelPrefix)
{
    for (const ServerSpec &spec : fetchedServers()) {
        if (spec.label.startsWith(labelPrefix))
            return spec;
    }
    return std::nullopt;
}

// Empty when every required version is there; otherwise says which are missing and where we looked.
inline QString missingServersMessage(const QStringList &prefixes = requiredServerPrefixes())
{
    QStringList missing;
    for (const QString &prefix : prefixes) {
        if (!findFetchedServer(prefix))
            missing << prefix + QLatin1Char('*');
    }
    if (missing.isEmpty())
        return QString();
    return QStringLiteral("servers missing from %1: %2 (run scripts/fetch-servers)")
        .arg(serverCacheDir(), missing.join(QStringLiteral(", ")));
}

inline bool runningInCi()
{
    return qEnvironmentVariableIsSet("CI");
}

// Pids of live processes whose command line mentions `text` (e.g. a server's temp dir).
inline std::vector<qint64> pidsMentioning(const QString &text)
{
    std::vector<qint64> pids;
    const QByteArray needle = text.toLocal8Bit();
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile cmdline(proc.filePath(entry + QStringLiteral("/cmdline")));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        QByteArray arguments = cmdline.readAll();
        arguments.replace('\0', ' ');
        if (arguments.contains(needle))
            pids.push_back(pid);
    }
    return pids;
}

// True while /proc/<pid> exists and is not a zombie.
inline bool processAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    // "pid (comm) S ..."; comm may hold spaces and parentheses, so look after the last ')'.
    const int close = text.lastIndexOf(')');
    return close >= 0 && close + 2 < text.size() && text.at(close + 2) != 'Z';
}

} // namespace ServerTestHelpers

// FAIL in CI, SKIP elsewhere.
#define VERSUS_SERVER_MISSING(message)                                   \
    do {                                                                 \
        if (ServerTestHelpers::runningInCi())                            \
            QFAIL(qPrintable(message));                                  \
        QSKIP(qPrintable(message));                                      \
    } while (false)

#define VERSUS_REQUIRE_SERVERS()                                                          \
    do {                                                                                  \
        const QString versusMissing_ = ServerTestHelpers::missingServersMessage();        \
        if (!versusMissing_.isEmpty())                                                    \
            VERSUS_SERVER_MISSING(versusMissing_);                                        \
    } while (false)

// Declares `ServerSpec var` holding the first fetched server whose label starts with prefix.
#define VERSUS_REQUIRE_SERVER(var, prefix)                                                        \
    const std::optional<ServerSpec> var##Found_ = ServerTestHelpers::findFetchedServer(prefix);   \
    if (!var##Found_)                                                                             \
        VERSUS_SERVER_MISSING(ServerTestHelpers::missingServersMessage({QStringLiteral(prefix)})); \
    const ServerSpec var = *var##Found_
