#pragma once
// Records a Debian package that scripts/fetch-servers unpacked into a cache folder: the
// folder holds bin/<product>-server (and bin/<product>-cli when the package brought one) and
// lib/ with every library they load, the dynamic loader among them, which starts them. The
// server must answer --version as the product it is said to be, then start and answer; its
// allocator facts, the sha256 of every file in bin/ and lib/ and the command lines go into the
// folder's manifest.json (cachemanifest.h), written last, so a half-made folder never looks good.

#include "cachemanifest.h"
#include "outcome.h"

struct PackageRecordRequest {
    QString folder;           // <cache>/<product>-<version>, absolute
    QString product;          // "valkey", "redis"
    QString loader;           // the dynamic loader inside lib/ ("lib/ld-linux-x86-64.so.2"), absolute
    QString suite;            // "bookworm-backports"
    QString package;          // "valkey-tools"
    QString packageVersion;   // "8.0.1+dfsg1-1~bpo12+1"
};

// The manifest as written to <folder>/manifest.json; errors name the folder and what is at fault.
Outcome<CacheManifest> recordDebianPackage(const PackageRecordRequest &request);
