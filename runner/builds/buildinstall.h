#pragma once
// The last steps of a source build: checking that what make produced is the server the source
// says (--version, then a start that answers PING), and installing it into the cache with the
// manifest the catalog reads (cachefolder.h). The folder is assembled beside the cache's
// folders and renamed into place, so no reader sees half of it.

#include "buildrecipe.h"
#include "buildorigin.h"
#include "buildsource.h"
#include "outcome.h"

struct InstallRequest {
    QString label;
    QString buildKey;
    BuildSource source;
    BuildRecipe recipe;
    QString treePath;   // where make ran
    QString logPath;    // its output
    AllocatorFacts allocator;   // what the built server said when it was checked
};

// The build key recorded in `folder`'s manifest when its server binary still has the sha256
// recorded there; empty otherwise (not built, another recipe, changed since, or installed before
// manifests recorded the allocator).
QString installedBuildKey(const QString &folder);
// The built server answers --version as the product and version of its source, and PING;
// what it says of its allocator (mem_allocator, jemalloc quantum) is kept for the manifest.
Status checkBuiltServer(InstallRequest &request);
// Installs the built programs, the log and the manifest as <cacheDir>/<label>, replacing an
// earlier build of the same label.
Status installBuild(const InstallRequest &request, const QString &cacheDir);
