#pragma once
// The last steps of a source build: checking that what make produced is the server the source
// says (--version, then a start that answers PING), and installing it into the cache with the
// manifest the catalog reads (cachefolder.h). The folder is assembled beside the cache's
// folders and renamed into place, so no reader sees half of it.

#include "buildrecipe.h"
#include "buildorigin.h"
#include "buildsource.h"
#include "outcome.h"
#include "serverspec.h"

struct InstallRequest {
    QString label;
    QString buildKey;
    BuildSource source;
    BuildRecipe recipe;
    QString treePath;   // where make ran
    QString logPath;    // its output
    AllocatorFacts allocator;   // what the built server said when it was checked
};

// The build key recorded in `folder`'s manifest when the catalog would use the folder as it
// is (every listed file, the CLI too, has its recorded sha256; the folder and its files are this
// user's and writable by no one else); empty otherwise (not built, changed or taken over since,
// or installed before manifests recorded the allocator).
QString installedBuildKey(const QString &folder);
// An error when `folder` holds a release build from another tarball of the same name (another
// sha256) than `source`: building would silently replace it.
Status checkReplaceable(const QString &folder, const BuildSource &source);
// The built server answers --version as the product and version of its source, and PING;
// what it says of its allocator (mem_allocator, jemalloc quantum) is kept for the manifest.
Status checkBuiltServer(InstallRequest &request);
// Starts the server `spec` names on a free loopback port, waits until it answers, asks what it
// says of its allocator (mem_allocator, jemalloc quantum) and stops it. Errors name the binary.
Outcome<AllocatorFacts> allocatorFactsOfStartedServer(const ServerSpec &spec);
// Installs the built programs, the log and the manifest as <cacheDir>/<label>, replacing an
// earlier build of the same label.
Status installBuild(const InstallRequest &request, const QString &cacheDir);
