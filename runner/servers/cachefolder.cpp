#include "cachefolder.h"

#include "cachemanifest.h"
#include "filetrust.h"
#include "verifiedrecords.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {


// The files the command runs that must have a recorded sha256: the program, and every argument
// naming a file (the server binary behind the loader).
QStringList filesTheCommandRuns(const CacheManifest &manifest)
{
    QStringList files{manifest.command.front(), manifest.binary};
    for (const QString &argument : manifest.command.mid(1)) {
        if (argument.startsWith(QLatin1Char('/')) && QFileInfo(argument).isFile() && !files.contains(argument))
            files << argument;
    }
    return files;
}

// Every file the manifest lists, as absolute paths; a problem naming the first one that is
// missing, lies outside the folder or could be changed by someone else.
Outcome<QStringList> listedFiles(const CacheManifest &manifest, const QString &folder, const QString &manifestPath)
{
    QStringList paths;
    const QDir dir(folder);
    for (const auto &[relative, sha] : manifest.files) {
        const QString path = QDir::cleanPath(dir.filePath(relative));
        if (!QFileInfo::exists(path))
            return Error{QStringLiteral("missing file %1 (listed in %2)%3").arg(path, manifestPath, kFetchServersAgain)};
        if (QString outside = outsideFolderReason(path, folder); !outside.isEmpty())
            return Error{QStringLiteral("refusing %1: %2").arg(manifestPath, outside)};
        const QString real = QFileInfo(path).canonicalFilePath();
        for (const QString &judged : {real, QFileInfo(real).path()}) {
            if (QString reason = untrustedFileReason(judged); !reason.isEmpty())
                return Error{QStringLiteral("refusing to run %1: %2").arg(path, reason)};
        }
        paths << path;
    }
    return paths;
}

// The manifest's and the folder's own problem, before anything in it is read or run.
QString folderProblem(const QString &folder, const QString &manifestPath, const QString &cacheProblem)
{
    if (!cacheProblem.isEmpty())
        return QStringLiteral("refusing the server cache: %1").arg(cacheProblem);
    if (QString reason = untrustedFileReason(folder); !reason.isEmpty())
        return QStringLiteral("refusing %1: %2").arg(folder, reason);
    if (!QFileInfo::exists(manifestPath))
        return QStringLiteral("incomplete fetch: no %1%2").arg(manifestPath, kFetchServersAgain);
    if (QString outside = outsideFolderReason(manifestPath, folder); !outside.isEmpty())
        return QStringLiteral("refusing %1: %2").arg(manifestPath, outside);
    if (QString reason = untrustedFileReason(manifestPath); !reason.isEmpty())
        return QStringLiteral("refusing %1: %2").arg(manifestPath, reason);
    return QString();
}

// Why the command's own files cannot be run; empty when each is inside and listed.
QString commandProblem(const CacheManifest &manifest, const QString &folder, const QString &manifestPath)
{
    const QString program = manifest.command.front();
    if (!QFileInfo::exists(manifest.binary))
        return QStringLiteral("missing binary %1 (listed in %2%3)").arg(manifest.binary, manifestPath, QStringLiteral("; run scripts/fetch-servers"));
    if (!QFileInfo(program).isExecutable())
        return QStringLiteral("missing or not executable %1 (listed in %2; run scripts/fetch-servers)").arg(program, manifestPath);
    const QDir dir(folder);
    for (const QString &file : filesTheCommandRuns(manifest)) {
        if (QString outside = outsideFolderReason(file, folder); !outside.isEmpty())
            return QStringLiteral("refusing %1: its command runs %2").arg(manifestPath, outside);
        const QString relative = dir.relativeFilePath(file);
        if (!manifest.files.count(relative))
            return QStringLiteral("%1 records no sha256 for %2, which its command runs (written by an older "
                                  "scripts/fetch-servers; run it again)")
                .arg(manifestPath, file);
    }
    return QString();
}

// Hashes every listed file; a problem naming the first that changed since the fetch.
Outcome<VerifiedEntry> hashListed(const CacheManifest &manifest, const QStringList &paths, const QString &folder,
                                  const QString &manifestPath)
{
    VerifiedEntry verified;
    const QDir dir(folder);
    for (const QString &path : paths) {
        const std::optional<FileFingerprint> before = FileFingerprint::of(path);
        const QString sha = sha256OfFile(path);
        const QString expected = manifest.files.at(dir.relativeFilePath(path));
        const bool isBinary = path == manifest.binary;
        if (sha != expected || (isBinary && !manifest.sha256.isEmpty() && sha != manifest.sha256))
            return Error{QStringLiteral("%1 %2 changed since it was fetched (sha256 differs from %3; run scripts/fetch-servers)")
                             .arg(isBinary ? QStringLiteral("binary") : QStringLiteral("file"), path, manifestPath)};
        // Changed while it was hashed: not verified.
        if (!before || FileFingerprint::of(path) != before)
            return Error{QStringLiteral("%1 changed while it was checked; list the servers again").arg(path)};
        verified.fingerprints[path] = *before;
        verified.sha256[path] = sha;
    }
    return verified;
}

void applyManifest(ServerSpec &spec, const CacheManifest &manifest, const QString &folder)
{
    spec.identity.product = manifest.product;
    spec.identity.version = manifest.version;
    spec.binaryPath = manifest.binary;
    spec.origin = manifest.origin;
    spec.recordedAllocator = manifest.allocator;
    const auto listed = manifest.files.find(QDir(folder).relativeFilePath(manifest.binary));
    spec.binarySha256 = listed != manifest.files.end() ? listed->second : manifest.sha256;
    QStringList commandLine = manifest.command;
    spec.program = commandLine.takeFirst();
    spec.prefixArguments = commandLine;
}

} // namespace

CatalogEntry entryFromCacheFolder(const QString &folder, const QString &cacheProblem, VerifiedRecords &records)
{
    CatalogEntry entry;
    entry.spec.source = ServerSource::Cache;
    entry.spec.label = QFileInfo(folder).fileName();
    entry.folder = QFileInfo(folder).absoluteFilePath();
    const QString manifestPath = QDir(folder).filePath(QStringLiteral("manifest.json"));
    if (entry.problem = folderProblem(folder, manifestPath, cacheProblem); !entry.problem.isEmpty())
        return entry;
    const Outcome<CacheManifest> manifest = readCacheManifest(manifestPath);
    if (!manifest) {
        entry.problem = manifest.error();
        return entry;
    }
    applyManifest(entry.spec, manifest.value(), folder);
    entry.cliCommand = manifest->cliCommand;
    if (entry.problem = commandProblem(manifest.value(), folder, manifestPath); !entry.problem.isEmpty())
        return entry;
    Outcome<QStringList> paths = listedFiles(manifest.value(), folder, manifestPath);
    if (!paths) {
        entry.problem = paths.error();
        return entry;
    }
    const QString key = QFileInfo(folder).absoluteFilePath();
    QStringList fingerprinted = paths.value();
    fingerprinted << manifestPath;

    QString versionOutput;
    if (const VerifiedEntry *known = records.unchanged(key, fingerprinted)) {
        versionOutput = known->versionOutput;   // verified before, nothing changed: run nothing
    } else {
        records.forget(key);
        Outcome<VerifiedEntry> verified = hashListed(manifest.value(), paths.value(), folder, manifestPath);
        if (!verified) {
            entry.problem = verified.error();
            return entry;
        }
        Outcome<QString> output = serverVersionOutput(entry.spec);
        if (!output) {
            entry.problem = output.error();
            return entry;
        }
        versionOutput = output.value();
        verified->versionOutput = versionOutput;
        if (const std::optional<FileFingerprint> print = FileFingerprint::of(manifestPath))
            verified->fingerprints[manifestPath] = *print;
        records.remember(key, std::move(verified.value()));
    }
    Outcome<ServerIdentity> identity = parseServerVersionOutput(versionOutput);
    if (!identity) {
        entry.problem = QStringLiteral("%1: %2").arg(entry.spec.binaryPath, identity.error());
        records.forget(key);
        return entry;
    }
    entry.spec.identity = identity.value();
    // An upstream build names itself; a Debian package is labelled by what --version said.
    const bool named = manifest->origin.kind == BuildKind::UpstreamBuild;
    entry.spec.label = named ? manifest->label : labelForServer(entry.spec.identity, entry.spec.binaryPath);
    return entry;
}
