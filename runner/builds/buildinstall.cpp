#include "buildinstall.h"

#include "allocatorfacts.h"
#include "cachefolder.h"
#include "cachemanifest.h"
#include "redisconnection.h"
#include "servercatalog.h"
#include "serverprocess.h"
#include "verifiedrecords.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

namespace {

const QFileDevice::Permissions kReadable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
const QFileDevice::Permissions kRunnable = kReadable | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther;

QString builtProgram(const InstallRequest &request, const QString &name)
{
    return QDir(request.treePath).filePath(QStringLiteral("src/") + name);
}

ServerSpec specFor(const QString &binary)
{
    ServerSpec spec;
    spec.program = binary;
    spec.binaryPath = binary;
    spec.source = ServerSource::User;
    return spec;
}

CacheManifest manifestOf(const InstallRequest &request, const QString &folder, const std::map<QString, QString> &files,
                         const QString &versionOutput)
{
    const QString product = request.source.product;
    const QString server = QDir(folder).filePath(QStringLiteral("bin/") + product + QStringLiteral("-server"));
    const QString cli = QDir(folder).filePath(QStringLiteral("bin/") + product + QStringLiteral("-cli"));
    CacheManifest manifest;
    manifest.label = request.label;
    manifest.product = product;
    manifest.version = request.source.version;
    manifest.origin = request.source.origin();
    manifest.origin.makeVariables = request.recipe.makeVariables.join(QLatin1Char(' '));
    manifest.origin.compiler = request.recipe.compiler;
    manifest.buildKey = request.buildKey;
    manifest.binary = server;
    manifest.sha256 = files.at(QStringLiteral("bin/") + product + QStringLiteral("-server"));
    manifest.versionOutput = versionOutput.trimmed();
    manifest.recordedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    manifest.command = QStringList{server};
    if (files.count(QStringLiteral("bin/") + product + QStringLiteral("-cli")))
        manifest.cliCommand = QStringList{cli};
    manifest.allocator = request.allocator;
    manifest.files = files;
    return manifest;
}

// Copies the programs and the log into `staging`; their sha256 by path relative to it.
Outcome<std::map<QString, QString>> stagePrograms(const InstallRequest &request, const QString &staging)
{
    if (!QDir(staging).mkpath(QStringLiteral("bin")))
        return Error{QStringLiteral("cannot create %1/bin").arg(staging)};
    std::map<QString, QString> files;
    for (const QString &name : installedPrograms(request.source.product)) {
        const QString from = builtProgram(request, name);
        const QString relative = QStringLiteral("bin/") + name;
        const QString to = QDir(staging).filePath(relative);
        if (!QFileInfo::exists(from))
            return Error{QStringLiteral("make produced no %1").arg(from)};
        if (!QFile::copy(from, to) || !QFile::setPermissions(to, kRunnable))
            return Error{QStringLiteral("cannot copy %1 to %2").arg(from, to)};
        files[relative] = sha256OfFile(to);
    }
    const QString log = QDir(staging).filePath(QStringLiteral("build.log"));
    if (!QFile::copy(request.logPath, log) || !QFile::setPermissions(log, kReadable))
        return Error{QStringLiteral("cannot copy the build log %1").arg(request.logPath)};
    return files;
}

// Replaces `folder` by `staging`: the old one is moved aside first and removed after.
Status moveIntoPlace(const QString &staging, const QString &folder, const QString &aside)
{
    const bool hadOne = QFileInfo::exists(folder);
    if (hadOne && !QDir().rename(folder, aside))
        return Error{QStringLiteral("cannot move the earlier build %1 aside").arg(folder)};
    if (!QDir().rename(staging, folder)) {
        if (hadOne)
            QDir().rename(aside, folder);
        return Error{QStringLiteral("cannot move the build into %1").arg(folder)};
    }
    if (hadOne)
        QDir(aside).removeRecursively();
    return Status::success();
}

} // namespace

QString installedBuildKey(const QString &folder)
{
    const Outcome<CacheManifest> manifest = readCacheManifest(QDir(folder).filePath(QStringLiteral("manifest.json")));
    // Installed before the manifest recorded the allocator: installed again (make has nothing to do).
    if (!manifest || manifest->allocator.memAllocator.isEmpty())
        return QString();
    // Already built only when the catalog would run it as it is: every file it lists (the CLI
    // too) still has its sha256 and nothing in it could have been changed by someone else.
    VerifiedRecords nothingRemembered;
    if (!entryFromCacheFolder(folder, QString(), nothingRemembered).usable())
        return QString();
    return manifest->buildKey;
}

Status checkReplaceable(const QString &folder, const BuildSource &source)
{
    if (source.kind != BuildSource::Kind::Tarball || !QFileInfo::exists(folder))
        return Status::success();
    const Outcome<CacheManifest> manifest = readCacheManifest(QDir(folder).filePath(QStringLiteral("manifest.json")));
    if (!manifest || !manifest->origin.isReleaseBuild() || manifest->origin.sourceSha256 == source.tarballSha256)
        return Status::success();
    return Error{QStringLiteral("%1 holds %2 %3 built from another %4 (sha256 %5), %6 has sha256 %7; remove %1 to replace it")
                     .arg(folder, manifest->product, manifest->version, manifest->origin.source, manifest->origin.sourceSha256,
                          source.path, source.tarballSha256)};
}

Status checkBuiltServer(InstallRequest &request)
{
    const QString binary = builtProgram(request, request.source.product + QStringLiteral("-server"));
    const Outcome<ServerIdentity> identity = identifyServer(specFor(binary));
    if (!identity)
        return Error{identity.error()};
    const bool sameRelease = identity->product == request.source.product
                             && (identity->version == request.source.version || identity->isDevelopmentBuild());
    if (!sameRelease)
        return Error{QStringLiteral("%1 says it is %2 %3, its source says %4 %5")
                         .arg(binary, identity->product, identity->version, request.source.product, request.source.version)};
    const Outcome<AllocatorFacts> allocator = allocatorFactsOfStartedServer(specFor(binary));
    if (!allocator)
        return Error{allocator.error()};
    request.allocator = allocator.value();
    return Status::success();
}

Outcome<AllocatorFacts> allocatorFactsOfStartedServer(const ServerSpec &spec)
{
    ServerProcess server(spec);
    if (const Status started = server.start(); !started)
        return Error{QStringLiteral("%1 does not start: %2").arg(spec.binaryPath, started.error())};
    RedisConnection connection;
    if (const Status connected = server.connect(connection, 5000); !connected)
        return Error{QStringLiteral("%1 does not answer: %2").arg(spec.binaryPath, connected.error())};
    AllocatorFacts allocator = readAllocatorFacts(connection);
    connection.close();
    server.stop();
    return allocator;
}

Status installBuild(const InstallRequest &request, const QString &cacheDir)
{
    const QString builds = QDir(cacheDir).filePath(QStringLiteral(".builds"));
    QTemporaryDir staging(QDir(builds).filePath(QStringLiteral("install-XXXXXX")));
    if (!staging.isValid())
        return Error{QStringLiteral("cannot create a folder in %1: %2").arg(builds, staging.errorString())};
    QFile::setPermissions(staging.path(), kRunnable);
    Outcome<std::map<QString, QString>> files = stagePrograms(request, staging.path());
    if (!files)
        return Error{files.error()};
    const QString folder = QDir(cacheDir).filePath(request.label);
    const Outcome<QString> version = serverVersionOutput(specFor(builtProgram(request, request.source.product + QStringLiteral("-server"))));
    if (!version)
        return Error{version.error()};
    // The manifest names the files where they will be, once renamed into place.
    if (Status written = writeCacheManifest(QDir(staging.path()).filePath(QStringLiteral("manifest.json")),
                                            manifestOf(request, folder, files.value(), version.value()));
        !written)
        return written;
    const QString aside = QDir(builds).filePath(QStringLiteral("replaced-") + request.label);
    QDir(aside).removeRecursively();
    if (Status moved = moveIntoPlace(staging.path(), folder, aside); !moved)
        return moved;
    staging.setAutoRemove(false);
    return Status::success();
}
