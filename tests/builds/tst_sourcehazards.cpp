// Sources that would hang a build or make its label lie: a FIFO in a source tree or in a
// tarball is refused by its path (before, hashing opened it and waited for a writer for ever,
// deaf to Ctrl-C and holding the cache's build lock), a request to stop ends the hashing, and a
// file that changes between hashing and copying is refused by name instead of building content
// the label does not name. Small trees, no make: each case ends before make would run.

#include "buildinstall.h"
#include "buildsource.h"
#include "cachemanifest.h"
#include "verifiedrecords.h"
#include "sourcebuilder.h"
#include "worktree.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <future>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// Long enough for a loaded machine to hash a small tree; a hang is unbounded.
const auto kHangBound = std::chrono::seconds(30);

void putFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

// The smallest folder that reads as a Valkey 8.0.1 tree.
void putTree(const QString &root)
{
    putFile(root + QStringLiteral("/src/Makefile"), "valkey-server valkey-cli:\n\ttouch $@\n");
    putFile(root + QStringLiteral("/src/version.h"), "#define VALKEY_VERSION \"8.0.1\"\n#define REDIS_VERSION \"7.2.4\"\n");
    putFile(root + QStringLiteral("/src/server.c"), "int main(void) { return 0; }\n");
}

bool makeFifo(const QString &path)
{
    QDir().mkpath(QFileInfo(path).path());
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

// Opens and closes every FIFO under `folder` for writing, so a reader stuck in open() on one
// gets end of file: a test that found a hang ends instead of hanging too.
void releaseFifoReaders(const QString &folder)
{
    QDirIterator it(folder, QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        struct stat info {};
        if (::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode)) {
            const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0)
                ::close(fd);
        }
    }
}

// Runs `work` on a thread of its own; false when it has not ended within the bound (then the
// FIFOs under `folder` are opened for writing so that it ends, and its result is dropped).
template <typename Result>
bool endsWithinBound(std::future<Result> &running, const QString &folder)
{
    if (running.wait_for(kHangBound) == std::future_status::ready)
        return true;
    while (running.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready)
        releaseFifoReaders(folder);
    return false;
}

// A cache entry as a build installs it, whose "server" is a script that answers --version.
QString putInstalledEntry(const QString &cache, const QString &label, const QString &sourceSha256)
{
    const QString folder = cache + QLatin1Char('/') + label;
    const QString server = folder + QStringLiteral("/bin/valkey-server");
    putFile(server, "#!/bin/sh\necho 'Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1'\n");
    putFile(folder + QStringLiteral("/bin/valkey-cli"), "#!/bin/sh\n");
    for (const QString &program : {server, folder + QStringLiteral("/bin/valkey-cli")})
        QFile::setPermissions(program, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    CacheManifest manifest;
    manifest.label = label;
    manifest.product = QStringLiteral("valkey");
    manifest.version = QStringLiteral("8.0.1");
    manifest.origin.kind = BuildKind::UpstreamBuild;
    manifest.origin.source = QStringLiteral("valkey-8.0.1.tar.gz");
    manifest.origin.sourceSha256 = sourceSha256;
    manifest.buildKey = QStringLiteral("key-1");
    manifest.binary = server;
    manifest.sha256 = sha256OfFile(server);
    manifest.command = QStringList{server};
    manifest.allocator.memAllocator = QStringLiteral("jemalloc-5.3.0");
    manifest.files = {{QStringLiteral("bin/valkey-server"), manifest.sha256},
                      {QStringLiteral("bin/valkey-cli"), sha256OfFile(folder + QStringLiteral("/bin/valkey-cli"))}};
    if (!writeCacheManifest(folder + QStringLiteral("/manifest.json"), manifest))
        return QString();
    return folder;
}

bool packTarball(const QString &folder, const QString &tarball)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-czf"), tarball, QStringLiteral("-C"), QFileInfo(folder).path(), QFileInfo(folder).fileName()});
    return tar.waitForFinished(60000) && tar.exitCode() == 0;
}

bool lockIsFree(const QString &cache)
{
    const int fd = ::open(QFile::encodeName(cache + QStringLiteral("/.builds/lock")).constData(), O_RDWR | O_CLOEXEC);
    const bool free = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (fd >= 0)
        ::close(fd);
    return free;
}

} // namespace

class TestSourceHazards : public QObject {
    Q_OBJECT
private slots:
    void fifoInTreeIsRefusedByName()
    {
        QTemporaryDir dir;
        putTree(dir.path());
        const QString fifo = dir.filePath(QStringLiteral("src/pipe.c"));
        QVERIFY(makeFifo(fifo));
        auto running = std::async(std::launch::async, [&] { return sourceFromTree(dir.path()); });
        QVERIFY2(endsWithinBound(running, dir.path()), "hashing the tree waited on its FIFO");
        const Outcome<BuildSource> source = running.get();
        QVERIFY(!source);
        QCOMPARE(source.error(), QStringLiteral("%1: not a regular file (a FIFO); a source file is read only from a regular file").arg(fifo));
    }

    void fifoInTarballIsRefusedByNameAndFreesTheLock()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("valkey-8.0.1"));
        putTree(root);
        QVERIFY(makeFifo(root + QStringLiteral("/src/pipe.c")));
        const QString tarball = dir.filePath(QStringLiteral("valkey-8.0.1.tar.gz"));
        QVERIFY(packTarball(root, tarball));

        const QString cache = dir.filePath(QStringLiteral("cache"));
        auto running = std::async(std::launch::async, [&] { return SourceBuilder(cache).build(tarball); });
        QVERIFY2(endsWithinBound(running, cache), "hashing the unpacked tarball waited on its FIFO");
        const Outcome<BuiltServer> built = running.get();
        QVERIFY(!built);
        QVERIFY2(built.error().startsWith(QLatin1String("build failed at step 'unpack': ")), qPrintable(built.error()));
        QVERIFY2(built.error().contains(QLatin1String("/valkey-8.0.1/src/pipe.c: not a regular file (a FIFO)")), qPrintable(built.error()));
        QVERIFY(lockIsFree(cache));
        QVERIFY(!QFileInfo::exists(cache + QStringLiteral("/valkey-8.0.1-upstream")));
    }

    void stopEndsTheHashing()
    {
        QTemporaryDir dir;
        putTree(dir.path());
        int asked = 0;
        const Outcome<BuildSource> source = sourceFromTree(dir.path(), [&asked] { return ++asked > 1; });
        QVERIFY(!source);
        QCOMPARE(source.error(), QStringLiteral("cancelled"));
    }

    // Hashed, then changed before the copy: the work tree would hold content the label does
    // not name.
    void fileChangedAfterHashingIsRefusedByName()
    {
        QTemporaryDir dir;
        QTemporaryDir builds;
        putTree(dir.path());
        const Outcome<BuildSource> source = sourceFromTree(dir.path());
        QVERIFY2(source, qPrintable(source.error()));
        const QString changed = dir.filePath(QStringLiteral("src/server.c"));
        putFile(changed, "int main(void) { return 1; }\n");
        WorkTree tree(builds.filePath(QStringLiteral("valkey-8.0.1")));
        const Outcome<SyncResult> synced = tree.sync(source.value(), QStringLiteral("recipe"));
        QVERIFY(!synced);
        QVERIFY2(synced.error().startsWith(QStringLiteral("%1 changed while the build read the source").arg(changed)), qPrintable(synced.error()));
    }

    // The same through a whole build: the tree changes once it was hashed, as the build
    // prepares its work tree; the build stops there and installs nothing.
    void treeChangedDuringTheBuildInstallsNothing()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("tree"));
        const QString cache = dir.filePath(QStringLiteral("cache"));
        putTree(tree);
        const QString changed = tree + QStringLiteral("/src/server.c");
        SourceBuilder builder(cache);
        builder.setProgress([&](const BuildProgress &progress) {
            if (progress.step == QLatin1String("prepare"))
                putFile(changed, "int main(void) { return 3; }\n");
        });
        const Outcome<BuiltServer> built = builder.build(tree);
        QVERIFY(!built);
        QVERIFY2(built.error().startsWith(QStringLiteral("build failed at step 'prepare': %1 changed while the build read the source").arg(changed)),
                 qPrintable(built.error()));
        const QStringList installed = QDir(cache).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(installed, QStringList());
    }
    // An entry whose CLI changed, or whose files another user took over, is not "already
    // built": the catalog refuses it, so the build makes it again.
    void changedEntryIsNotAlreadyBuilt()
    {
        QTemporaryDir dir;
        const QString folder = putInstalledEntry(dir.path(), QStringLiteral("valkey-8.0.1-upstream"), QStringLiteral("1234"));
        QVERIFY(!folder.isEmpty());
        QCOMPARE(installedBuildKey(folder), QStringLiteral("key-1"));
        const QString cli = folder + QStringLiteral("/bin/valkey-cli");
        QVERIFY(::chown(QFile::encodeName(cli).constData(), 65534, 65534) == 0);
        QCOMPARE(installedBuildKey(folder), QString());
        QVERIFY(::chown(QFile::encodeName(cli).constData(), ::getuid(), ::getgid()) == 0);
        QCOMPARE(installedBuildKey(folder), QStringLiteral("key-1"));
        putFile(cli, "#!/bin/sh\nexit 1\n");
        QCOMPARE(installedBuildKey(folder), QString());
    }

    // A second tarball of a release the cache holds a build of, with other content: refused
    // by name, the build in the cache left as it is.
    void otherTarballOfTheSameReleaseIsRefused()
    {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("cache"));
        const QString folder = putInstalledEntry(cache, QStringLiteral("valkey-8.0.1-upstream"), QString(64, QLatin1Char('0')));
        QVERIFY(!folder.isEmpty());
        const QString root = dir.filePath(QStringLiteral("other/valkey-8.0.1"));
        putTree(root);
        const QString tarball = dir.filePath(QStringLiteral("valkey-8.0.1.tar.gz"));
        QVERIFY(packTarball(root, tarball));
        const Outcome<BuiltServer> built = SourceBuilder(cache).build(tarball);
        QVERIFY(!built);
        QVERIFY2(built.error().startsWith(QStringLiteral("build failed at step 'source': %1 holds valkey 8.0.1 built from another "
                                                         "valkey-8.0.1.tar.gz (sha256 %2), %3 has sha256 %4; remove %1 to replace it")
                                              .arg(folder, QString(64, QLatin1Char('0')), tarball, sha256OfFile(tarball))),
                 qPrintable(built.error()));
        QCOMPARE(readCacheManifest(folder + QStringLiteral("/manifest.json"))->origin.sourceSha256, QString(64, QLatin1Char('0')));
    }

    // <cache>/.builds as a link: refused before the leftovers of a killed build are removed
    // there, which would remove folders wherever it points.
    void buildsLinkIsRefusedAndWhatItNamesKept()
    {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("cache"));
        const QString elsewhere = dir.filePath(QStringLiteral("elsewhere"));
        QVERIFY(QDir().mkpath(elsewhere + QStringLiteral("/unpack-precious")));
        QVERIFY(QDir().mkpath(cache));
        QVERIFY(QFile::link(elsewhere, cache + QStringLiteral("/.builds")));
        putTree(dir.filePath(QStringLiteral("tree")));
        const Outcome<BuiltServer> built = SourceBuilder(cache).build(dir.filePath(QStringLiteral("tree")));
        QVERIFY(!built);
        QCOMPARE(built.error(), QStringLiteral("build failed at step 'source': refusing %1/.builds: a symbolic link (to %2), not a folder; remove it")
                                    .arg(cache, elsewhere));
        QVERIFY(QFileInfo::exists(elsewhere + QStringLiteral("/unpack-precious")));
    }

    // A cache another user owns is refused before anything is written into it.
    void foreignCacheIsRefusedBeforeAnythingIsWritten()
    {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("cache"));
        QVERIFY(QDir().mkpath(cache));
        QVERIFY(::chown(QFile::encodeName(cache).constData(), 65534, 65534) == 0);
        putTree(dir.filePath(QStringLiteral("tree")));
        const Outcome<BuiltServer> built = SourceBuilder(cache).build(dir.filePath(QStringLiteral("tree")));
        QVERIFY(!built);
        QVERIFY2(built.error().startsWith(QStringLiteral("build failed at step 'source': refusing the server cache: %1 is owned by ").arg(cache)),
                 qPrintable(built.error()));
        QVERIFY(!QFileInfo::exists(cache + QStringLiteral("/.builds")));
    }
};

QTEST_GUILESS_MAIN(TestSourceHazards)
#include "tst_sourcehazards.moc"
