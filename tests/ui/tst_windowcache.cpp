// The window's server list follows the server cache while the window is open: a version folder
// written into it (as scripts/fetch-servers or a build writes one, file by file) is listed
// without a restart. The cache is a folder of the test's own (VERSUS_SERVER_CACHE), holding a
// real copy of a fetched server whose manifest names the copy's own paths.
#include "mainwindow.h"
#include "serverspanel.h"
#include "servertesthelpers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

namespace {

// The row of the server list for `label` (its tooltip's first line), or null.
QTreeWidgetItem *cacheTestRow(QTreeWidget *list, const QString &label)
{
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->toolTip(0).section(QLatin1Char('\n'), 0, 0) == label)
            return list->topLevelItem(i);
    }
    return nullptr;
}

} // namespace

class WindowCacheTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("versus-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowcache"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void buildAddedWhileOpenIsListed()
    {
        VERSUS_REQUIRE_SERVER(source, "valkey-9.1.");
        QTemporaryDir root;
        const QString cache = root.filePath(QStringLiteral("cache"));
        QVERIFY(QDir().mkpath(cache));
        QFile::setPermissions(cache, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const QByteArray savedCache = qgetenv("VERSUS_SERVER_CACHE");
        qputenv("VERSUS_SERVER_CACHE", cache.toUtf8());
        auto restore = qScopeGuard([&savedCache] {
            if (savedCache.isNull())
                qunsetenv("VERSUS_SERVER_CACHE");
            else
                qputenv("VERSUS_SERVER_CACHE", savedCache);
        });

        MainWindow window;
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(!window.serversPanel()->isDiscovering(), 60000);
        auto *list = window.findChild<QTreeWidget *>(QStringLiteral("serverList"));
        QVERIFY(list);
        QVERIFY(!cacheTestRow(list, source.label));

        // Written into the open window's cache: the folder first, its manifest last.
        const QString original = QFileInfo(source.binaryPath).absolutePath().section(QLatin1Char('/'), 0, -2);
        const QString folder = cache + QLatin1Char('/') + source.label;
        QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), original, folder}), 0);
        QFile manifest(folder + QStringLiteral("/manifest.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QByteArray text = manifest.readAll();
        manifest.close();
        text.replace(original.toUtf8() + '/', folder.toUtf8() + '/');
        QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifest.write(text);
        manifest.close();

        // Usable ("idle", not "unusable"), named as the charts will name it.
        QTRY_VERIFY_WITH_TIMEOUT(cacheTestRow(list, source.label) && cacheTestRow(list, source.label)->text(2) == QLatin1String("idle"),
                                 30000);
        QTreeWidgetItem *row = cacheTestRow(list, source.label);
        QCOMPARE(row->text(0), QStringLiteral("Valkey %1").arg(source.identity.version));
        QVERIFY(row->flags() & Qt::ItemIsUserCheckable);
        // Reading the cache writes its records into it: that alone starts no further reading
        // (the watcher waits a quiet second; two pass here).
        QSignalSpy readAgain(window.serversPanel(), &ServersPanel::discovered);
        QTest::qWait(2500);
        QCOMPARE(readAgain.count(), 0);
    }
};

QTEST_MAIN(WindowCacheTest)
#include "tst_windowcache.moc"
