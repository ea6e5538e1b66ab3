#pragma once
// Helpers for tests that need real servers: the ones scripts/fetch-servers put in the cache.
//
//   VERSUS_REQUIRE_SERVERS();                        // every version the project supports
//   VERSUS_REQUIRE_SERVER(spec, "valkey-9.1.");      // ServerSpec spec, first label with that prefix
//
// Both FAIL when the environment variable CI is set and a server is missing, and SKIP otherwise.

#include "redisconnection.h"
#include "servercatalog.h"
#include "serverprocess.h"
#include "serversession.h"
#include "serverspec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <QTest>
#include <algorithm>
#include <optional>
#include <vector>

namespace ServerTestHelpers {

// How long a test waits for a healthy local server to connect or answer: long enough for a
// machine running a second suite beside this one, where a server was seen silent for over 2 s
// (load 13 on two cores). A test of a timeout itself sets its own, short one.
constexpr int kHealthyReplyMs = 10000;

// $VERSUS_SERVER_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/versus/servers.
inline QString serverCacheDir()
{
    return ServerCatalog::defaultCacheDir();
}

// The usable servers scripts/fetch-servers put in the cache (Debian's packages), as the catalog
// finds them, sorted by label. The release builds beside them are builtServers(): a test that
// runs "every fetched version" runs each version once, however many builds the cache holds.
inline std::vector<ServerSpec> cachedServers(bool releaseBuilds)
{
    ServerCatalog catalog;
    catalog.discover();
    std::vector<ServerSpec> specs;
    for (const CatalogEntry &entry : catalog.entries()) {
        const bool wanted = releaseBuilds ? entry.spec.origin.isReleaseBuild() : entry.spec.origin.kind != BuildKind::UpstreamBuild;
        if (entry.usable() && entry.spec.source == ServerSource::Cache && wanted)
            specs.push_back(entry.spec);
    }
    std::sort(specs.begin(), specs.end(),
              [](const ServerSpec &a, const ServerSpec &b) { return a.label < b.label; });
    return specs;
}

inline std::vector<ServerSpec> fetchedServers() { return cachedServers(false); }
// Release tarballs Versus built into the cache (scripts/fetch-servers --upstream, versus build).
// Builds of a source tree ("-src-<hash>") are left out: tst_sourcebuild and tst_windowtrees
// make and remove them while other tests run, so a row listed from one could name a folder gone when the row runs.
inline std::vector<ServerSpec> builtServers() { return cachedServers(true); }

// The Valkey 8.0.1 release tarball scripts/fetch-servers --upstream keeps in the cache's
// .sources; empty when it is not there.
inline QString releaseTarball801()
{
    const QDir sources(ServerCatalog::defaultCacheDir() + QStringLiteral("/.sources"));
    const QStringList found = sources.entryList({QStringLiteral("valkey-8.0.1.tar.*")}, QDir::Files);
    return found.isEmpty() ? QString() : sources.filePath(found.front());
}

inline std::optional<ServerSpec> findBuiltServer(const QString &label)
{
    for (const ServerSpec &spec : builtServers()) {
        if (spec.label == label)
            return spec;
    }
    return std::nullopt;
}

// A real copy (cp -a) of the cache folder that holds the fetched `server`, made as `folder` in a
// fresh `cache` of mode 0700. The folder copied; empty when it could not be copied.
inline QString copyFetchedFolder(const ServerSpec &server, const QString &cache, const QString &folder)
{
    QDir(cache).removeRecursively();
    if (!QDir().mkpath(cache))
        return QString();
    QFile::setPermissions(cache, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString original = QFileInfo(server.binaryPath).absolutePath().section(QLatin1Char('/'), 0, -2);
    if (QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), original, folder}) != 0)
        return QString();
    return original;
}

// Label prefixes of the versions every test run must have.
inline QStringList requiredServerPrefixes()
{
    return {QStringLiteral("valkey-8.0.1"), QStringLiteral("valkey-8.1.1"), QStringLiteral("valkey-9.1."),
            QStringLiteral("redis-7.0."), QStringLiteral("redis-8.0.")};
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
    const std::vector<ServerSpec> servers = fetchedServers();
    QStringList missing;
    for (const QString &prefix : prefixes) {
        const bool found = std::any_of(servers.begin(), servers.end(),
                                       [&](const ServerSpec &spec) { return spec.label.startsWith(prefix); });
        if (!found)
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

// Sends `pipeline` (complete RESP commands) on a connection of its own to `server` and reads
// its `replies` replies; a transport failure is the Error.
inline Status sendPipeline(ServerProcess &server, const std::string &pipeline, int replies)
{
    RedisConnection connection;
    if (Status connected = server.connect(connection, ServerTestHelpers::kHealthyReplyMs); !connected)
        return connected;
    return connection.exchange(pipeline, size_t(replies));
}

// Starts `server` and connects `session` to it as Versus measures.
inline Status startWithSession(ServerProcess &server, ServerSession &session, const ServerSpec &spec)
{
    if (Status started = server.start(); !started)
        return started;
    return session.connect(QStringLiteral("127.0.0.1"), server.port(), server.controlCredentials(), kHealthyReplyMs, spec.label);
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
