#pragma once
// What the server list shows, as one reading finds it: the server cache, PATH and the binaries
// the user added. Starts every binary with --version: call it off the GUI thread. The cache
// watcher says when to read again: a build added to the cache while the window is open.

#include "servercatalog.h"
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <vector>

class QFileSystemWatcher;

struct ServerDiscovery {
    std::vector<CatalogEntry> entries;   // the catalog's, then the binaries the user added
    QStringList defaultLabels;           // the catalog's default selection
};

ServerDiscovery discoverServers(const QStringList &userBinaries);

// Watches the cache folder and each version folder in it (a version folder is written file by
// file) and says `settled` once a second passes without a change, when a version folder or its
// manifest is new or different since the last reading.
class CacheWatcher : public QObject {
    Q_OBJECT
public:
    explicit CacheWatcher(const QString &cacheDir, QObject *parent = nullptr);
    // Watches the folders there are now, as a reading is about to see them; call it then.
    void watchFolders();

Q_SIGNALS:
    void settled();

private:
    // Each version folder with its manifest's size and time: what a reading would find.
    QStringList versionFolders() const;

    QString m_cacheDir;
    QStringList m_seen;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer m_quiet;
};
