#pragma once
// What a server binary says it is, read from its `--version` output.

#include "outcome.h"
#include <QString>

struct ServerIdentity {
    QString product;    // "valkey" or "redis"
    QString version;    // "8.0.1", "9.1.2", "7.0.15", "255.255.255" for dev builds
    QString allocator;  // "jemalloc-5.3.0", "libc"
    QString buildId;    // build=… field
    QString gitSha;     // sha=… field (may be 00000000)
    int bits = 64;

    // A build from a development branch: Valkey and Redis print v=255.255.255 for those.
    bool isDevelopmentBuild() const { return version == QLatin1String("255.255.255"); }
    // The git sha it was built from; empty when --version printed none (zeros).
    QString knownGitSha() const;
    // e.g. "valkey-8.0.1"; the id used in bundles, charts and on the command line. A development
    // build is no release: "valkey-dev-1a2b3c4d" by its git sha, else "valkey-dev".
    QString label() const;
    // e.g. "Valkey 8.0.1"
    QString displayName() const;
};

// Parses the one line printed by `valkey-server --version` / `redis-server --version`.
// Fails with a message quoting the text when it is not a Valkey or Redis server.
Outcome<ServerIdentity> parseServerVersionOutput(const QString &output);

// identity.label(), except that a development build without a git sha is named by the folder
// that holds `binaryPath` ("valkey-dev-unstable" for ~/unstable/src/valkey-server).
QString labelForServer(const ServerIdentity &identity, const QString &binaryPath);
