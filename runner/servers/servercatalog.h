#pragma once
// Finds server binaries: the per-user cache filled by scripts/fetch-servers, PATH
// (valkey-server, redis-server) and binaries the user adds. Each is identified by
// running it with --version.

#include "outcome.h"
#include "serverspec.h"
#include <QString>
#include <QStringList>
#include <vector>

struct CatalogEntry {
    ServerSpec spec;
    QString problem;   // why it cannot be used ("missing binary …", "corrupt manifest …"); empty when usable
    QStringList cliCommand;   // a cache folder's valkey-cli, as its manifest gives it; empty when none
    QString folder;           // a cache entry's folder (absolute); empty for the others
    bool usable() const { return problem.isEmpty(); }
    // A usable entry for a server outside the cache (a binary or an endpoint the user added).
    static CatalogEntry forSpec(ServerSpec spec)
    {
        CatalogEntry entry;
        entry.spec = std::move(spec);
        return entry;
    }
};

class ServerCatalog {
public:
    // ${XDG_CACHE_HOME:-$HOME/.cache}/versus/servers, or $VERSUS_SERVER_CACHE when set.
    static QString defaultCacheDir();

    explicit ServerCatalog(QString cacheDir = defaultCacheDir());

    // Scans the cache and PATH. Never fails as a whole: broken entries carry their status.
    void discover();
    // Identifies a binary the user points at. Fails with a message naming the path when it
    // does not exist, is not executable or is not a Valkey/Redis server.
    Outcome<ServerSpec> addBinary(const QString &path);
    // host:port, a server Versus does not launch.
    static Outcome<ServerSpec> parseEndpoint(const QString &hostPort);

    const std::vector<CatalogEntry> &entries() const { return m_entries; }
    const CatalogEntry *find(const QString &label) const;
    // One usable build of each Valkey version, oldest version first, all of one kind: the
    // upstream release builds when every version has one, else the Debian packages (or binaries
    // on PATH), leaving out a version that only has an upstream build.
    std::vector<ServerSpec> defaultSelection() const;

private:
    int indexOf(const QString &label) const;
    // Appends, giving the entry a label no earlier entry has.
    void addEntry(CatalogEntry entry);

    QString m_cacheDir;
    std::vector<CatalogEntry> m_entries;
};

// What `<spec.program> <prefixArguments> --version` prints, bounded by timeoutMs. It runs in a
// process group of its own that is ended as a whole, whether it finishes, hangs or Versus dies.
Outcome<QString> serverVersionOutput(const ServerSpec &spec, int timeoutMs = 5000);
// serverVersionOutput, parsed.
Outcome<ServerIdentity> identifyServer(const ServerSpec &spec, int timeoutMs = 5000);
