#pragma once
// Where a server binary came from, and what its allocator turned out to be: together they
// decide the bytes a memory figure reports (a Debian package links the system jemalloc, whose
// quantum is 16 bytes on amd64; an upstream build uses the jemalloc in the server's own deps/,
// configured with an 8-byte quantum). Part of every server's identity in the catalog and the
// bundle.

#include <QString>

enum class BuildKind {
    Unknown,          // an older bundle, or nothing said where it came from
    DebianPackage,    // scripts/fetch-servers unpacked Debian's package
    UpstreamBuild,    // built from an upstream release tarball or a source tree by Versus's recipe
    UserBinary,       // a binary the user pointed at (or found on PATH): origin unknown to Versus
    Endpoint,         // a server Versus does not launch
};

// "debian-package", "upstream-build", "user-binary", "endpoint", "unknown" (bundle and manifest).
QString buildKindName(BuildKind kind);
// The inverse; Unknown for any other text.
BuildKind buildKindFromName(const QString &name);

struct BuildOrigin {
    BuildKind kind = BuildKind::Unknown;
    // Debian package
    QString suite;            // "bookworm-backports", "trixie", "sid"
    QString packageVersion;   // "8.0.1+dfsg1-1~bpo12+1"
    // Upstream build
    QString source;           // what was built: "valkey-8.0.1.tar.gz", or a folder's absolute path
    QString sourceSha256;     // the tarball's sha256, or the content hash of a source tree
    QString gitSha;           // a source tree's HEAD, when it is a git checkout
    QString gitBranch;        // its branch ("unstable"), when on one
    bool dirty = false;       // the tree differs from its HEAD (the difference is in sourceSha256)
    QString makeVariables;    // "BUILD_TLS=yes", as given to make
    QString compiler;         // first line of `cc --version`

    // Built from a release tarball (recorded by its file name; a tree by its absolute path).
    bool isReleaseBuild() const { return kind == BuildKind::UpstreamBuild && !source.isEmpty() && !source.contains(QLatin1Char('/')); }
    // Built from a source tree (a folder, recorded by its absolute path): no release, whatever
    // its version.h says.
    bool isSourceTree() const { return kind == BuildKind::UpstreamBuild && source.contains(QLatin1Char('/')); }

    bool operator==(const BuildOrigin &other) const;
    bool operator!=(const BuildOrigin &other) const { return !(*this == other); }
};

// What the running server said of its allocator; read at the start of each run.
struct AllocatorFacts {
    QString memAllocator;     // INFO memory mem_allocator: "jemalloc-5.3.0", "libc"
    int quantumBytes = 0;     // MEMORY MALLOC-STATS "Quantum size"; 0: unknown
    QString quantumProblem;   // why it is unknown ("MEMORY MALLOC-STATS refused: …"); empty when known

    bool operator==(const AllocatorFacts &other) const;
    bool operator!=(const AllocatorFacts &other) const { return !(*this == other); }
};
