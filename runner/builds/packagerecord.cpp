#include "packagerecord.h"

#include "buildinstall.h"
#include "filetrust.h"
#include "servercatalog.h"
#include "serveridentity.h"
#include "verifiedrecords.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace {

// The first field the request lacks or gets wrong, named as the command line names it; empty
// when every one is there.
QString packageRequestProblem(const PackageRecordRequest &request)
{
    const std::pair<const char *, const QString *> fields[] = {
        {"--product", &request.product},  {"--loader", &request.loader},   {"--suite", &request.suite},
        {"--package", &request.package},  {"--package-version", &request.packageVersion}};
    for (const auto &[option, value] : fields) {
        if (value->trimmed().isEmpty())
            return QStringLiteral("no %1 given").arg(QLatin1String(option));
    }
    if (request.product != QLatin1String("valkey") && request.product != QLatin1String("redis"))
        return QStringLiteral("--product '%1' is neither valkey nor redis").arg(request.product);
    if (!QFileInfo(request.folder).isDir())
        return QStringLiteral("not a folder");
    if (QString outside = outsideFolderReason(request.loader, request.folder); !outside.isEmpty())
        return QStringLiteral("--loader: %1").arg(outside);
    if (!QFileInfo(request.loader).isExecutable())
        return QStringLiteral("--loader %1 is not executable").arg(request.loader);
    return QString();
}

// The sha256 of every file of bin/ and lib/ by its path relative to the folder. A link is
// hashed as the file it names, which must lie inside the folder.
Outcome<std::map<QString, QString>> packageFileHashes(const QString &folder)
{
    std::map<QString, QString> files;
    for (const QString &subfolder : {QStringLiteral("bin"), QStringLiteral("lib")}) {
        const QDir dir(QDir(folder).filePath(subfolder));
        // QDir::System lists a link to nothing, which is then refused rather than left out.
        for (const QString &name : dir.entryList(QDir::Files | QDir::System, QDir::Name)) {
            const QString path = dir.filePath(name);
            if (QString outside = outsideFolderReason(path, folder); !outside.isEmpty())
                return Error{outside};
            const QString sha = sha256OfFile(path);
            if (sha.isEmpty())
                return Error{QStringLiteral("cannot read %1").arg(path)};
            files[subfolder + QLatin1Char('/') + name] = sha;
        }
    }
    return files;
}

// A program of the package, started through the package's own loader and libraries.
QStringList loaderCommand(const PackageRecordRequest &request, const QString &program)
{
    return {request.loader, QStringLiteral("--library-path"), QDir(request.folder).filePath(QStringLiteral("lib")),
            QStringLiteral("--argv0"), QFileInfo(program).fileName(), program};
}

ServerSpec specOf(const QStringList &command, const QString &binary)
{
    ServerSpec spec;
    spec.source = ServerSource::Cache;
    spec.program = command.front();
    spec.prefixArguments = command.mid(1);
    spec.binaryPath = binary;
    return spec;
}

// What the server says it is, when that is the product the request names.
Outcome<ServerIdentity> identifiedAs(const ServerSpec &spec, const QString &product, QString &versionOutput)
{
    const Outcome<QString> output = serverVersionOutput(spec);
    if (!output)
        return Error{output.error()};
    versionOutput = output->trimmed();
    Outcome<ServerIdentity> identity = parseServerVersionOutput(versionOutput);
    if (!identity)
        return Error{QStringLiteral("%1: %2").arg(spec.binaryPath, identity.error())};
    if (identity->product != product)
        return Error{QStringLiteral("%1 says it is %2, not --product %3").arg(spec.binaryPath, identity->product, product)};
    return identity;
}

Outcome<CacheManifest> packageManifest(const PackageRecordRequest &request)
{
    const QDir folder(request.folder);
    const QString serverName = request.product + QStringLiteral("-server");
    const QString cliName = request.product + QStringLiteral("-cli");
    const Outcome<std::map<QString, QString>> files = packageFileHashes(request.folder);
    if (!files)
        return Error{files.error()};
    if (!files->count(QStringLiteral("bin/") + serverName))
        return Error{QStringLiteral("no bin/%1").arg(serverName)};
    CacheManifest manifest;
    manifest.product = request.product;
    manifest.package = request.package;
    manifest.origin.kind = BuildKind::DebianPackage;
    manifest.origin.suite = request.suite;
    manifest.origin.packageVersion = request.packageVersion;
    manifest.binary = folder.filePath(QStringLiteral("bin/") + serverName);
    manifest.sha256 = files->at(QStringLiteral("bin/") + serverName);
    manifest.command = loaderCommand(request, manifest.binary);
    if (files->count(QStringLiteral("bin/") + cliName))
        manifest.cliCommand = loaderCommand(request, folder.filePath(QStringLiteral("bin/") + cliName));
    manifest.files = files.value();

    const ServerSpec spec = specOf(manifest.command, manifest.binary);
    const Outcome<ServerIdentity> identity = identifiedAs(spec, request.product, manifest.versionOutput);
    if (!identity)
        return Error{identity.error()};
    manifest.version = identity->version;
    manifest.label = request.product + QLatin1Char('-') + identity->version;
    const Outcome<AllocatorFacts> allocator = allocatorFactsOfStartedServer(spec);
    if (!allocator)
        return Error{allocator.error()};
    manifest.allocator = allocator.value();
    manifest.recordedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    return manifest;
}

} // namespace

Outcome<CacheManifest> recordDebianPackage(const PackageRecordRequest &request)
{
    if (QString problem = packageRequestProblem(request); !problem.isEmpty())
        return Error{QStringLiteral("%1: %2").arg(request.folder, problem)};
    const Outcome<CacheManifest> manifest = packageManifest(request);
    if (!manifest)
        return Error{QStringLiteral("%1: %2").arg(request.folder, manifest.error())};
    const QString path = QDir(request.folder).filePath(QStringLiteral("manifest.json"));
    if (Status written = writeCacheManifest(path, manifest.value()); !written)
        return Error{written.error()};
    return manifest;
}
