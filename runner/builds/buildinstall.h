#pragma once
// The last steps of a source build: checking that what make produced is the server the source
// says (--version, then a start that answers PING), and installing it into the cache with the
// manifest the catalog reads (cachefolder.h). The folder is assembled beside the cache's
// folders and renamed into place, so no reader sees half of it.

#include "buildrecipe.h"
#include "buildsource.h"
#include "outcome.h"

struct InstallRequest {
    QString label;
    QString buildKey;
    BuildSource source;
    BuildRecipe recipe;
    QString treePath;   // where make ran
    QString logPath;    // its output
};

// The build key recorded in `folder`'s manifest when its server binary still has the sha256
// recorded there; empty otherwise (not built, another recipe, or changed since).
QString installedBuildKey(const QString &folder);
// The built server answers --version as the product and version of its source, and PING.
Status checkBuiltServer(const InstallRequest &request);
// Installs the built programs, the log and the manifest as <cacheDir>/<label>, replacing an
// earlier build of the same label.
Status installBuild(const InstallRequest &request, const QString &cacheDir);
