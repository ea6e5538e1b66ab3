#pragma once
// Versus's recipe for an upstream build: the server's own Makefile, as upstream builds a
// release — bundled deps/ (jemalloc with its 8-byte quantum included), upstream's default
// flags, no distribution patches — with TLS on. What decides the bytes is in the signature, so
// a build made another way is never taken for this one.

#include "buildsource.h"

#include <QString>
#include <QStringList>

struct BuildRecipe {
    QStringList makeVariables;   // {"BUILD_TLS=yes"}
    QString compiler;            // first line of `cc --version`

    // The recipe as it is on this machine; an error when no C compiler answers.
    static Outcome<BuildRecipe> onThisMachine();
    // Everything that changes the binary besides the source: the recipe's version, the make
    // variables and the compiler.
    QString signature() const;
    // What keys a build in the cache: the signature and the source's hash.
    QString buildKey(const BuildSource &source) const;
};

// The cache label of a build of `source`: "valkey-8.0.1-upstream" for a release tarball,
// "valkey-unstable-3c1a7d5b" (with "-dirty" for a changed checkout) for a git checkout by its
// branch and short sha, "valkey-8.0.1-src-1a2b3c4d" for another folder by its content hash.
QString buildLabel(const BuildSource &source);
// The programs a build installs into the cache: the server, and the CLI the benchmarks use.
QStringList installedPrograms(const QString &product);
