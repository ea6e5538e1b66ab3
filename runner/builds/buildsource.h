#pragma once
// What a source build builds: an upstream release tarball, or a source tree (a git checkout or
// any folder holding a Valkey or Redis tree). Resolved before anything is built: which product
// and version the tree is (src/version.h), its files, and a hash of their content that keys the
// build in the cache, so the same content is built once and a changed file builds again.

#include "buildorigin.h"
#include "outcome.h"
#include "sourcefile.h"

#include <QString>
#include <QStringList>
#include <map>

struct BuildSource {
    enum class Kind { Tarball, Tree };
    Kind kind = Kind::Tree;
    QString path;             // absolute path of the tarball or the folder as given
    QString treeRoot;         // the folder holding Makefile and src/ (for a tarball: once unpacked)
    QString product;          // "valkey" or "redis"
    QString version;          // "8.0.1", from src/version.h
    // What the build reads: path relative to treeRoot -> "<sha256> <x|->" (content, executable).
    std::map<QString, QString> files;
    QString contentSha256;    // over `files`
    QString tarballSha256;    // Kind::Tarball: of the file itself
    QString gitSha;           // a git checkout's HEAD
    QString gitBranch;        // its branch, empty when detached
    bool dirty = false;       // the checkout's files differ from HEAD

    // What the bundle records of it (kind, source, sha256, git); make variables and compiler
    // are the recipe's (buildrecipe.h).
    BuildOrigin origin() const;
};

// A folder: finds the tree (the folder itself, or its one subfolder holding src/version.h),
// lists its files (a git checkout's tracked and untracked files, without what .gitignore names;
// any other folder's files without build products) and hashes them. Only regular files are
// read: a FIFO, a device node or a socket is refused by its path. `stop` ends the walk between
// files and chunks ("cancelled").
Outcome<BuildSource> sourceFromTree(const QString &folder, const StopRequested &stop = {});
// The files of a git checkout at `treeRoot` that git ignores (.gitignore, info/exclude), which a
// build does not copy; empty for a folder that is not a checkout.
QStringList filesGitIgnores(const QString &treeRoot);
// A tarball (.tar.gz, .tar.xz, .tgz): hashes the file. The tree is resolved once unpacked
// (completeUnpackedSource).
Outcome<BuildSource> sourceFromTarball(const QString &file, const StopRequested &stop = {});
// A tarball's source once unpacked into `folder`: its tree, product, version and files.
Status completeUnpackedSource(BuildSource &source, const QString &folder, const StopRequested &stop = {});

// "valkey" and "8.0.1" from the text of src/version.h; an error naming `path` otherwise.
Outcome<std::pair<QString, QString>> productAndVersionOf(const QByteArray &versionHeader, const QString &path);
