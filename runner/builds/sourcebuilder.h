#pragma once
// Builds a Valkey or Redis server from an upstream tarball or a source tree with Versus's
// recipe (buildrecipe.h) and installs it into the server cache as <cache>/<label>/: bin/ with
// the server and its CLI, the build's log, and a manifest the catalog checks like any other
// (cachefolder.h). A build whose key (recipe signature and source hash) is already in the
// cache builds nothing.
//
// Nothing half-written reaches the cache: the result is assembled in <cache>/.builds/ and
// renamed into place once the server answered --version and PING. A failed build names its
// step and keeps its log; a cancelled one stops make's whole process group. Runs in the
// caller's thread (a worker's), reporting progress through a callback; one build of a
// product's version at a time (a lock in <cache>/.builds/).

#include "buildrecipe.h"
#include "buildsource.h"
#include "outcome.h"

#include <QString>
#include <functional>

struct BuildProgress {
    QString step;        // "source", "wait" (for another build), "unpack", "prepare", "make", "link", "check", "install"
    int percent = -1;    // of the whole build, -1 when unknown
    QString detail;      // "compiling server.c (57 of 231)"
};

struct BuiltServer {
    QString label;       // "valkey-8.0.1-upstream"
    QString folder;      // <cache>/<label>
    bool reused = false; // already in the cache: nothing was built
    bool fromNothing = false;   // every file compiled (no earlier build of this version to build on)
    QString logPath;     // the build's output (in the folder)
};

class SourceBuilder {
public:
    using Progress = std::function<void(const BuildProgress &)>;
    using Cancelled = std::function<bool()>;

    explicit SourceBuilder(QString cacheDir);

    void setProgress(Progress progress) { m_progress = std::move(progress); }
    void setCancelled(Cancelled cancelled) { m_cancelled = std::move(cancelled); }
    // make -C src -j<jobs>; default: every CPU.
    void setJobs(int jobs) { m_jobs = jobs; }

    // `path`: a tarball or a folder. The error names the step that failed and, for make, its
    // first error ("make -C src -j2 BUILD_TLS=yes valkey-server valkey-cli (exit 2), first error: /bin/sh: 1: ./configure: not
    // found; log: …/build.log"), and says so when that error names a file of the checkout that
    // git ignores (not copied into the build); or "cancelled".
    Outcome<BuiltServer> build(const QString &path);

private:
    void report(const QString &step, int percent, const QString &detail = QString()) const;
    Outcome<BuiltServer> buildHoldingTheLock(BuildSource source, const BuildRecipe &recipe, const QString &builds);
    bool cancelled() const { return m_cancelled && m_cancelled(); }

    QString m_cacheDir;
    Progress m_progress;
    Cancelled m_cancelled;
    int m_jobs = 0;
};
