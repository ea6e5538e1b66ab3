#pragma once
// A source tree of this test's own: the Valkey 8.0.1 release tarball unpacked, with a change no
// other tree has, so that its build is a new cache folder ("valkey-8.0.1-src-<hash>") that no
// earlier or concurrent run made, and the folders it builds into the cache leave it when the
// test ends, failed or passed. A run killed before that (a timeout, a crash) leaves its folders;
// the next ReleaseTree removes them: trees built from a test's temporary folder that is gone.

#include "servertesthelpers.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUuid>

namespace ServerTestHelpers {

class ReleaseTree {
public:
    // Unpacks `tarball`; valid() says whether it worked.
    explicit ReleaseTree(const QString &tarball)
    {
        removeTreesOfEndedRuns();
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("-xf"), tarball, QStringLiteral("-C"), m_work.path()});
        m_unpacked = m_work.isValid() && tar.waitForFinished(120000) && tar.exitStatus() == QProcess::NormalExit && tar.exitCode() == 0
                     && change("\n/* a change of a source tree: " + QUuid::createUuid().toByteArray(QUuid::WithoutBraces) + " */\n");
    }
    ReleaseTree(const ReleaseTree &) = delete;
    ReleaseTree &operator=(const ReleaseTree &) = delete;
    ~ReleaseTree()
    {
        for (const QString &label : m_builtLabels)
            QDir(serverCacheDir() + QLatin1Char('/') + label).removeRecursively();
    }

    bool valid() const { return m_unpacked; }
    QString path() const { return m_work.filePath(QStringLiteral("valkey-8.0.1")); }
    // Appends `text` to src/adlist.c: the tree's content, and so its build's label, changes.
    bool change(const QByteArray &text) const { return append(QStringLiteral("src/adlist.c"), text); }
    // Appends `text` to the tree's file `relative` ("src/Makefile").
    bool append(const QString &relative, const QByteArray &text) const
    {
        QFile file(path() + QLatin1Char('/') + relative);
        return file.open(QIODevice::Append) && file.write(text) == text.size();
    }
    // A cache folder built from this tree, removed from the cache with the tree.
    void removeWithTree(const QString &label) { m_builtLabels << label; }

private:
    static void removeTreesOfEndedRuns()
    {
        const QString testFolders = QDir::tempPath() + QStringLiteral("/tst_");
        ServerCatalog catalog;
        catalog.discover();
        for (const CatalogEntry &entry : catalog.entries()) {
            const BuildOrigin &origin = entry.spec.origin;
            if (entry.spec.source == ServerSource::Cache && origin.isSourceTree() && origin.source.startsWith(testFolders)
                && !QFileInfo::exists(origin.source) && entry.spec.label.startsWith(QLatin1String("valkey-8.0.1-src-")))
                QDir(serverCacheDir() + QLatin1Char('/') + entry.spec.label).removeRecursively();
        }
    }

    QTemporaryDir m_work;
    bool m_unpacked = false;
    QStringList m_builtLabels;
};

} // namespace ServerTestHelpers
