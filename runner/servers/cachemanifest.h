#pragma once
// manifest.json, the file that describes one folder of the server cache: which product and
// version it holds, where it came from (a Debian package that scripts/fetch-servers unpacked,
// or an upstream build Versus made), the command that starts it, and the sha256 of every file
// that command runs. This is its one reader and writer: the catalog, the trust check, the source
// builds and the benchmarks go through them, and so does scripts/fetch-servers, which has
// `versus servers --record` write a Debian package's manifest (packagerecord.h) and reads what the
// cache holds from `versus servers --tsv`. Manifests the script wrote in bash before that (no
// "origin", no "mem_allocator", command arrays on one line) read as they are.

#include "buildorigin.h"
#include "outcome.h"

#include <QString>
#include <QStringList>
#include <map>

struct CacheManifest {
    QString label;            // upstream builds: the catalog's label ("valkey-8.0.1-upstream")
    QString product;          // "valkey", "redis"
    QString version;          // "8.0.1"
    BuildOrigin origin;       // no "origin" key: a Debian package (its manifest says none)
    QString package;          // Debian packages: the package the server came from
    QString binary;           // absolute path of the server binary
    QString sha256;           // the server binary's
    QStringList command;      // program and arguments that start it (a loader, then the binary)
    QStringList cliCommand;   // valkey-cli the same way; empty when the folder has none
    AllocatorFacts allocator; // what the server said of its allocator when it was fetched or built
    std::map<QString, QString> files;   // path relative to the folder -> sha256
    QString buildKey;         // upstream builds: recipe signature and source hash
    QString versionOutput;    // what --version printed when it was fetched or built
    QString recordedAt;       // when it was fetched or built (UTC, ISO 8601)
};

// What a message about a broken cache entry ends with: how to mend it.
inline const QLatin1String kFetchServersAgain(" (run scripts/fetch-servers)");

// The manifest at `path` (a regular file of at most 4 MiB), checked: product, version, binary
// and command are present and an upstream build names itself with a valid label. Errors name
// the file and, for the JSON, its line and the key at fault.
Outcome<CacheManifest> readCacheManifest(const QString &path);
// The manifest as the file holds it (keys in a fixed order; what is not set is left out).
QByteArray cacheManifestText(const CacheManifest &manifest);
// Writes the manifest to `path` atomically (mode 0644: readable, writable only by this user).
Status writeCacheManifest(const QString &path, const CacheManifest &manifest);
