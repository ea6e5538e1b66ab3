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

    // e.g. "valkey-8.0.1"; the id used in bundles, charts and on the command line.
    QString label() const { return product + QLatin1Char('-') + version; }
    // e.g. "Valkey 8.0.1"
    QString displayName() const;
};

// Parses the one line printed by `valkey-server --version` / `redis-server --version`.
// Fails with a message quoting the text when it is not a Valkey or Redis server.
Outcome<ServerIdentity> parseServerVersionOutput(const QString &output);
