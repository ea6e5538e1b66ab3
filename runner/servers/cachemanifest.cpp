#include "cachemanifest.h"

#include "atomicfile.h"
#include "boundedfile.h"
#include "jsonsupport.h"

#include <QFile>
#include <QRegularExpression>

namespace {

const qint64 kManifestLimit = 4 << 20;

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
void readOrigin(const Json &json, CacheManifest &manifest)
{
    QString kind = buildKindName(BuildKind::DebianPackage);
    readOptional(json, "origin", kind);
    BuildOrigin &origin = manifest.origin;
    origin.kind = buildKindFromName(kind);
    if (origin.kind == BuildKind::DebianPackage) {
        readOptional(json, "suite", origin.suite);
        readOptional(json, "package", manifest.package);
        readOptional(json, "package_version", origin.packageVersion);
        readOptional(json, "fetched_at", manifest.recordedAt);
        return;
    }
    if (origin.kind != BuildKind::UpstreamBuild)
        failAtJson(json.at("origin"), "expected \"debian-package\" or \"upstream-build\"");
    readOptional(json, "source", origin.source);
    readOptional(json, "source_sha256", origin.sourceSha256);
    readOptional(json, "git_sha", origin.gitSha);
    readOptional(json, "git_branch", origin.gitBranch);
    readOptional(json, "dirty", origin.dirty);
    origin.makeVariables = readMakeVariables(json);
    readOptional(json, "compiler", origin.compiler);
    readOptional(json, "build_key", manifest.buildKey);
    readOptional(json, "built_at", manifest.recordedAt);
}

void readFields(const Json &json, CacheManifest &manifest)
{
    readOptional(json, "label", manifest.label);
    readOptional(json, "product", manifest.product);
    readOptional(json, "version", manifest.version);
    readOptional(json, "binary", manifest.binary);
    readOptional(json, "sha256", manifest.sha256);
    readOptional(json, "command", manifest.command);
    readOptional(json, "cli_command", manifest.cliCommand);
    readOptional(json, "files", manifest.files);
    readOptional(json, "mem_allocator", manifest.allocator.memAllocator);
    readOptional(json, "jemalloc_quantum", manifest.allocator.quantumBytes);
    readOptional(json, "version_output", manifest.versionOutput);
    readOrigin(json, manifest);
}

// An upstream build names itself ("valkey-8.0.1-upstream"): the catalog's label, so it does
// not collide with the Debian package of the same version. Empty when it is acceptable.
QString labelProblem(const CacheManifest &manifest)
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

QString missingFields(const CacheManifest &manifest)
{
    QStringList missing;
    for (const auto &[name, value] : {std::pair{"product", &manifest.product}, {"version", &manifest.version}, {"binary", &manifest.binary}}) {
        if (value->isEmpty())
            missing << QString::fromLatin1(name);
    }
    if (manifest.command.isEmpty() || manifest.command.contains(QString()))
        missing << QStringLiteral("command");
    return missing.join(QStringLiteral(", "));
}

void writeOrigin(Json &json, const CacheManifest &manifest)
{
    const BuildOrigin &origin = manifest.origin;
    if (origin.kind == BuildKind::DebianPackage) {
        json["suite"] = origin.suite;
        json["package"] = manifest.package;
        json["package_version"] = origin.packageVersion;
        return;
    }
    json["origin"] = buildKindName(origin.kind);
    json["source"] = origin.source;
    json["source_sha256"] = origin.sourceSha256;
    json["git_sha"] = origin.gitSha;
    json["git_branch"] = origin.gitBranch;
    json["dirty"] = origin.dirty;
    json["make_variables"] = origin.makeVariables;
    json["compiler"] = origin.compiler;
    json["build_key"] = manifest.buildKey;
}

} // namespace

Outcome<CacheManifest> readCacheManifest(const QString &path)
{
    const Outcome<QByteArray> bytes = readBoundedFile(path, kManifestLimit, QStringLiteral("a manifest"));
    if (!bytes)
        return Error{QStringLiteral("unreadable manifest %1%2").arg(bytes.error(), kFetchServersAgain)};
    const Outcome<Json> document = parseJson(bytes.value(), path);
    if (!document)
        return Error{QStringLiteral("corrupt manifest %1%2").arg(document.error(), kFetchServersAgain)};
    if (!document->is_object())
        return Error{QStringLiteral("corrupt manifest %1: not a JSON object%2").arg(path, kFetchServersAgain)};
    CacheManifest manifest;
    try {
        readFields(document.value(), manifest);
    } catch (const nlohmann::json::exception &error) {
        return Error{QStringLiteral("corrupt manifest %1%2").arg(jsonErrorMessage(path, error), kFetchServersAgain)};
    }
    if (const QString missing = missingFields(manifest); !missing.isEmpty())
        return Error{QStringLiteral("corrupt manifest %1: missing or empty %2%3").arg(path, missing, kFetchServersAgain)};
    if (const QString problem = labelProblem(manifest); !problem.isEmpty())
        return Error{QStringLiteral("corrupt manifest %1: %2").arg(path, problem)};
    return manifest;
}

QByteArray cacheManifestText(const CacheManifest &manifest)
{
    Json json = Json::object();
    if (!manifest.label.isEmpty())
        json["label"] = manifest.label;
    json["product"] = manifest.product;
    json["version"] = manifest.version;
    writeOrigin(json, manifest);
    json["binary"] = manifest.binary;
    json["sha256"] = manifest.sha256;
    json["version_output"] = manifest.versionOutput;
    json[manifest.origin.kind == BuildKind::DebianPackage ? "fetched_at" : "built_at"] = manifest.recordedAt;
    json["command"] = std::vector<QString>(manifest.command.begin(), manifest.command.end());
    if (!manifest.cliCommand.isEmpty())
        json["cli_command"] = std::vector<QString>(manifest.cliCommand.begin(), manifest.cliCommand.end());
    if (!manifest.allocator.memAllocator.isEmpty())
        json["mem_allocator"] = manifest.allocator.memAllocator;
    if (manifest.allocator.quantumBytes > 0)
        json["jemalloc_quantum"] = manifest.allocator.quantumBytes;
    json["files"] = toJsonObject(manifest.files);
    return QByteArray::fromStdString(json.dump(2)) + '\n';
}

Status writeCacheManifest(const QString &path, const CacheManifest &manifest)
{
    if (Status written = writeFileAtomically(path, cacheManifestText(manifest), PathOrigin::NamedByVersus); !written)
        return written;
    const QFileDevice::Permissions readable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    if (!QFile::setPermissions(path, readable))
        return Error{QStringLiteral("cannot set the mode of %1").arg(path)};
    return Status::success();
}
