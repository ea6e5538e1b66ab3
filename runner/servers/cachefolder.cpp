#include "cachefolder.h"

#include "boundedfile.h"
#include "filetrust.h"
#include "jsonsupport.h"
#include "verifiedrecords.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace {

const QLatin1String kFetchAgain(" (run scripts/fetch-servers)");

// What scripts/fetch-servers (a Debian package) or the upstream build recipe wrote about one
// version.
struct Manifest {
    QString product, version, binary, sha256;
    QString label;            // upstream builds only: the catalog's label for it
    BuildOrigin origin;
    AllocatorFacts allocator; // as the server said when it was fetched or built
    QStringList command;
    std::map<QString, QString> files;   // path relative to the folder -> sha256
};

// "make_variables" as one string ("BUILD_TLS=yes MALLOC=jemalloc") or a list of them.
QString readMakeVariables(const Json &json)
{
    const auto found = json.find("make_variables");
    if (found == json.end())
        return QString();
    if (found->is_array()) {
        QStringList variables;
        readValue(*found, variables);
        return variables.join(QLatin1Char(' '));
    }
    QString variables;
    readValue(*found, variables);
    return variables;
}

// A manifest without "origin" is one scripts/fetch-servers wrote: a Debian package.
void readOrigin(const Json &json, Manifest &manifest)
{
    QString kind = buildKindName(BuildKind::DebianPackage);
    readOptional(json, "origin", kind);
    BuildOrigin &origin = manifest.origin;
    origin.kind = buildKindFromName(kind);
    if (origin.kind == BuildKind::DebianPackage) {
        readOptional(json, "suite", origin.suite);
        readOptional(json, "package_version", origin.packageVersion);
        return;
    }
    if (origin.kind != BuildKind::UpstreamBuild)
        failAtJson(json.at("origin"), "expected \"debian-package\" or \"upstream-build\"");
    readOptional(json, "label", manifest.label);
    readOptional(json, "source", origin.source);
    readOptional(json, "source_sha256", origin.sourceSha256);
    readOptional(json, "git_sha", origin.gitSha);
    readOptional(json, "git_branch", origin.gitBranch);
    readOptional(json, "dirty", origin.dirty);
    origin.makeVariables = readMakeVariables(json);
    readOptional(json, "compiler", origin.compiler);
}

void from_json(const Json &json, Manifest &manifest)
{
    readOptional(json, "product", manifest.product);
    readOptional(json, "version", manifest.version);
    readOptional(json, "binary", manifest.binary);
    readOptional(json, "sha256", manifest.sha256);
    readOptional(json, "command", manifest.command);
    readOptional(json, "files", manifest.files);
    readOptional(json, "mem_allocator", manifest.allocator.memAllocator);
    readOptional(json, "jemalloc_quantum", manifest.allocator.quantumBytes);
    readOrigin(json, manifest);
}

// An upstream build names itself ("valkey-8.0.1-upstream"): the catalog's label, so it does
// not collide with the Debian package of the same version. Empty when it is acceptable.
QString labelProblem(const Manifest &manifest)
{
    if (manifest.origin.kind != BuildKind::UpstreamBuild)
        return QString();
    static const QRegularExpression form(QStringLiteral("^[a-z0-9][a-z0-9._-]{0,63}$"));
    if (manifest.label.isEmpty())
        return QStringLiteral("missing or empty label");
    if (!form.match(manifest.label).hasMatch())
        return QStringLiteral("label '%1' is not lower-case letters, digits, '.', '_' or '-' (at most 64)").arg(manifest.label);
    return QString();
}

Outcome<Manifest> parseManifest(const QString &path)
{
    const Outcome<QByteArray> bytes = readBoundedFile(path, 4 << 20, QStringLiteral("a manifest"));
    if (!bytes)
        return Error{QStringLiteral("unreadable manifest %1%2").arg(bytes.error(), kFetchAgain)};
    const Outcome<Json> document = parseJson(bytes.value(), path);
    if (!document)
        return Error{QStringLiteral("corrupt manifest %1%2").arg(document.error(), kFetchAgain)};
    if (!document->is_object())
        return Error{QStringLiteral("corrupt manifest %1: not a JSON object%2").arg(path, kFetchAgain)};
    Manifest manifest;
    try {
        document->get_to(manifest);
    } catch (const nlohmann::json::exception &error) {
        return Error{QStringLiteral("corrupt manifest %1%2").arg(jsonErrorMessage(path, error), kFetchAgain)};
    }
    QStringList missing;
    for (const auto &[name, value] : {std::pair{"product", &manifest.product}, {"version", &manifest.version}, {"binary", &manifest.binary}}) {
        if (value->isEmpty())
            missing << QString::fromLatin1(name);
    }
    if (manifest.command.isEmpty() || manifest.command.contains(QString()))
        missing << QStringLiteral("command");
    if (!missing.isEmpty())
        return Error{QStringLiteral("corrupt manifest %1: missing or empty %2%3").arg(path, missing.join(QStringLiteral(", ")), kFetchAgain)};
    if (const QString problem = labelProblem(manifest); !problem.isEmpty())
        return Error{QStringLiteral("corrupt manifest %1: %2").arg(path, problem)};
    return manifest;
}

// The files the command runs that must have a recorded sha256: the program, and every argument
// naming a file (the server binary behind the loader).
QStringList filesTheCommandRuns(const Manifest &manifest)
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
Outcome<QStringList> listedFiles(const Manifest &manifest, const QString &folder, const QString &manifestPath)
{
    QStringList paths;
    const QDir dir(folder);
    for (const auto &[relative, sha] : manifest.files) {
        const QString path = QDir::cleanPath(dir.filePath(relative));
        if (!QFileInfo::exists(path))
            return Error{QStringLiteral("missing file %1 (listed in %2)%3").arg(path, manifestPath, kFetchAgain)};
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
        return QStringLiteral("incomplete fetch: no %1%2").arg(manifestPath, kFetchAgain);
    if (QString outside = outsideFolderReason(manifestPath, folder); !outside.isEmpty())
        return QStringLiteral("refusing %1: %2").arg(manifestPath, outside);
    if (QString reason = untrustedFileReason(manifestPath); !reason.isEmpty())
        return QStringLiteral("refusing %1: %2").arg(manifestPath, reason);
    return QString();
}

// Why the command's own files cannot be run; empty when each is inside and listed.
QString commandProblem(const Manifest &manifest, const QString &folder, const QString &manifestPath)
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
Outcome<VerifiedEntry> hashListed(const Manifest &manifest, const QStringList &paths, const QString &folder,
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

void applyManifest(ServerSpec &spec, const Manifest &manifest, const QString &folder)
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
    const QString manifestPath = QDir(folder).filePath(QStringLiteral("manifest.json"));
    if (entry.problem = folderProblem(folder, manifestPath, cacheProblem); !entry.problem.isEmpty())
        return entry;
    const Outcome<Manifest> manifest = parseManifest(manifestPath);
    if (!manifest) {
        entry.problem = manifest.error();
        return entry;
    }
    applyManifest(entry.spec, manifest.value(), folder);
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
    entry.spec.label = manifest->label.isEmpty() ? labelForServer(entry.spec.identity, entry.spec.binaryPath) : manifest->label;
    return entry;
}
