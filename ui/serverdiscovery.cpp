#include "serverdiscovery.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>

ServerDiscovery discoverServers(const QStringList &userBinaries)
{
    ServerDiscovery found;
    ServerCatalog catalog;
    catalog.discover();
    found.entries = catalog.entries();
    for (const ServerSpec &spec : catalog.defaultSelection())
        found.defaultLabels << spec.label;
    for (const QString &path : userBinaries) {
        ServerCatalog single;
        Outcome<ServerSpec> added = single.addBinary(path);
        CatalogEntry entry;
        if (added) {
            entry.spec = added.value();
            entry.spec.source = ServerSource::User;
            entry.problem.clear();
        } else {
            entry.spec.binaryPath = path;
            entry.spec.label = QFileInfo(path).fileName();
            entry.problem = added.error();
        }
        found.entries.push_back(entry);
    }
    return found;
}

CacheWatcher::CacheWatcher(const QString &cacheDir, QObject *parent)
    : QObject(parent), m_cacheDir(cacheDir), m_watcher(new QFileSystemWatcher(this))
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(1000);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, &m_quiet, qOverload<>(&QTimer::start));
    connect(&m_quiet, &QTimer::timeout, this, [this] {
        // Reading the cache writes into it (its records of verified folders): only a change to
        // what the list shows is worth another reading, or each would start the next.
        const QStringList now = versionFolders();
        if (now != m_seen)
            Q_EMIT settled();
    });
}

QStringList CacheWatcher::versionFolders() const
{
    QStringList seen;
    const QDir cache(m_cacheDir);
    for (const QFileInfo &folder : cache.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QFileInfo manifest(folder.filePath() + QStringLiteral("/manifest.json"));
        seen << QStringLiteral("%1 %2 %3").arg(folder.fileName()).arg(manifest.size())
                    .arg(manifest.lastModified().toMSecsSinceEpoch());
    }
    return seen;
}

void CacheWatcher::watchFolders()
{
    m_seen = versionFolders();
    QStringList folders{m_cacheDir};
    const QDir cache(m_cacheDir);
    for (const QString &name : cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        folders << cache.filePath(name);
    const QStringList watched = m_watcher->directories();
    for (const QString &folder : folders) {
        if (!watched.contains(folder) && QFileInfo(folder).isDir())
            m_watcher->addPath(folder);
    }
}
