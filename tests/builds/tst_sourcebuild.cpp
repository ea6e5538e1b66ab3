// Real upstream builds with Versus's recipe: the Valkey 8.0.1 release tarball that the scripts
// build into the cache (scripts/fetch-servers --upstream) is reused, its server allocates with
// jemalloc's 8-byte quantum; a source tree made from it builds once, is reused, and builds
// again after a change, reusing the objects of the build before; a broken tree fails naming the step and
// leaves nothing in the cache; a cancelled build ends make's whole process group.

#include "buildsource.h"
#include "cachemanifest.h"
#include "makerun.h"
#include "redisconnection.h"
#include "serverprocess.h"
#include "servertesthelpers.h"
#include "sourcebuilder.h"
#include "releasetree.h"
#include "verifiedrecords.h"
#include "versuscli.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>
#include <chrono>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace {

#define REQUIRE_RELEASE_TARBALL(path)                                                                                   \
    const QString path = ServerTestHelpers::releaseTarball801();                                                        \
    if (path.isEmpty()) {                                                                                               \
        const QString why = QStringLiteral("no valkey-8.0.1 tarball in %1/.sources (run scripts/fetch-servers --upstream)") \
                                .arg(ServerTestHelpers::serverCacheDir());                                              \
        if (ServerTestHelpers::runningInCi())                                                                           \
            QFAIL(qPrintable(why));                                                                                     \
        QSKIP(qPrintable(why));                                                                                         \
    }

CacheManifest readManifest(const QString &folder)
{
    const Outcome<CacheManifest> manifest = readCacheManifest(folder + QStringLiteral("/manifest.json"));
    return manifest ? manifest.value() : CacheManifest();
}

// Processes whose working folder lies under `folder` (make and its compilers run in the tree).
QStringList processesWorkingIn(const QString &folder)
{
    QStringList found;
    const QString canonical = QDir(folder).canonicalPath();
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        const QString cwd = QFile::symLinkTarget(QStringLiteral("/proc/%1/cwd").arg(pid));
        if (!cwd.isEmpty() && cwd.startsWith(canonical))
            found << pid;
    }
    return found;
}

} // namespace

class TestSourceBuild : public QObject {
    Q_OBJECT
private slots:
    void releaseIsReusedAndHasAnEightByteQuantum()
    {
        REQUIRE_RELEASE_TARBALL(tarball);
        SourceBuilder builder(ServerTestHelpers::serverCacheDir());
        const Outcome<BuiltServer> built = builder.build(tarball);
        QVERIFY2(built, qPrintable(built.error()));
        QCOMPARE(built->label, QStringLiteral("valkey-8.0.1-upstream"));
        const CacheManifest manifest = readManifest(built->folder);
        QCOMPARE(manifest.origin.kind, BuildKind::UpstreamBuild);
        QCOMPARE(manifest.origin.sourceSha256, sha256OfFile(tarball));
        QCOMPARE(manifest.origin.makeVariables, QStringLiteral("BUILD_TLS=yes"));
        QVERIFY(QFileInfo::exists(built->logPath));

        // Asked again: nothing is built.
        const Outcome<BuiltServer> again = builder.build(tarball);
        QVERIFY2(again, qPrintable(again.error()));
        QVERIFY(again->reused);

        // The catalog takes it by its label, and its server says what the recipe promises.
        const std::optional<ServerSpec> spec = ServerTestHelpers::findBuiltServer(QStringLiteral("valkey-8.0.1-upstream"));
        QVERIFY2(spec, "the catalog does not list valkey-8.0.1-upstream as usable");
        QCOMPARE(spec->identity.version, QStringLiteral("8.0.1"));
        ServerProcess server(spec.value());
        QVERIFY(server.start());
        RedisConnection connection;
        QVERIFY(server.connect(connection, ServerTestHelpers::kHealthyReplyMs));
        const auto stats = connection.command({"MEMORY", "MALLOC-STATS"});
        QVERIFY2(stats, qPrintable(stats.error()));
        const QString text = QString::fromStdString(stats->text);
        QVERIFY2(text.contains(QLatin1String("Quantum size: 8\n")), qPrintable(text.left(200)));
        // BUILD_TLS=yes: the server has the TLS settings.
        const auto tls = connection.command({"CONFIG", "GET", "tls-port"});
        QVERIFY(tls);
        QCOMPARE(tls->elements.size(), size_t(2));
        server.stop();
    }

    void treeBuildsOnceAndAgainAfterAChange()
    {
        REQUIRE_RELEASE_TARBALL(tarball);
        // A change of this run's own: a tree left in the cache by an earlier, killed run of this
        // test (or by another suite on the machine) is another tree, never "reused".
        ServerTestHelpers::ReleaseTree changed(tarball);
        QVERIFY(changed.valid());
        const QString tree = changed.path();
        SourceBuilder builder(ServerTestHelpers::serverCacheDir());

        const Outcome<BuiltServer> first = builder.build(tree);
        QVERIFY2(first, qPrintable(first.error()));
        changed.removeWithTree(first->label);
        QVERIFY(first->label.startsWith(QLatin1String("valkey-8.0.1-src-")));
        QVERIFY(!first->reused);
        // Whether this first build starts from the objects in the version's work tree depends on
        // the last build of 8.0.1 on the machine: one that was killed left them untrusted, and
        // compiling everything is then right. The third build follows this test's own.

        const Outcome<BuiltServer> second = builder.build(tree);
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(second->label, first->label);
        QVERIFY(second->reused);

        // Already built: answered while another build holds the cache's build lock, not after it
        // (a second window's or a second suite's build may take minutes). The lock is held here
        // only for that answer.
        {
            const QString lockPath = ServerTestHelpers::serverCacheDir() + QStringLiteral("/.builds/lock");
            struct HeldLock {
                int fd;
                ~HeldLock() { ::close(fd); }
            } held{::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT, 0600)};
            QVERIFY(held.fd >= 0 && ::flock(held.fd, LOCK_EX) == 0);
            SourceBuilder answering(ServerTestHelpers::serverCacheDir());
            QStringList steps;
            answering.setProgress([&steps](const BuildProgress &progress) { steps << progress.step; });
            answering.setCancelled([&steps] { return steps.contains(QStringLiteral("wait")); });
            const Outcome<BuiltServer> answered = answering.build(tree);
            QVERIFY2(answered, qPrintable(answered ? QString() : answered.error()));
            QCOMPARE(answered->label, first->label);
            QVERIFY(answered->reused);
            QCOMPARE(steps, QStringList({QStringLiteral("source"), QStringLiteral("install")}));
        }

        // --servers src:PATH takes the built tree, with nothing built again.
        VersusCli cli;
        const VersusCli::Result run = cli.run({QStringLiteral("run"), QStringLiteral("--servers"), QStringLiteral("src:") + tree,
                                               QStringLiteral("--workload"), QStringLiteral("hash-ttl"), QStringLiteral("--set"),
                                               QStringLiteral("keys=500")});
        QVERIFY2(run.exitCode == 0, run.describe());
        QVERIFY2(run.err.contains(QStringLiteral("%1 is already built").arg(first->label)), run.describe());

        QVERIFY(changed.change("/* and another */\n"));
        const Outcome<BuiltServer> third = builder.build(tree);
        QVERIFY2(third, qPrintable(third.error()));
        changed.removeWithTree(third->label);
        QVERIFY(third->label != first->label);
        QVERIFY(!third->reused);
        QVERIFY2(!third->fromNothing, "the objects of the build before were not reused");
        // make ran in src/ for the two programs the cache keeps, and linked those alone.
        QFile log(third->logPath);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QStringList logLines = QString::fromLocal8Bit(log.readAll()).split(QLatin1Char('\n'));
        QCOMPARE(logLines.first(), QStringLiteral("$ cd %1/.builds/valkey-8.0.1/tree && make -C src -j%2 BUILD_TLS=yes valkey-server valkey-cli")
                                       .arg(ServerTestHelpers::serverCacheDir()).arg(QThread::idealThreadCount()));
        QStringList linked;
        for (const QString &line : logLines)
            if (const QString program = linkedFileOf(line); !program.isEmpty())
                linked << program;
        // In either order: make -j2 links the two at once.
        linked.sort();
        QCOMPARE(linked, QStringList({QStringLiteral("valkey-cli"), QStringLiteral("valkey-server")}));
        const CacheManifest manifest = readManifest(third->folder);
        QCOMPARE(manifest.version, QStringLiteral("8.0.1"));
        QCOMPARE(manifest.origin.source, tree);
    }

    void brokenTreeNamesTheStepAndLeavesNothing()
    {
        REQUIRE_RELEASE_TARBALL(tarball);
        ServerTestHelpers::ReleaseTree broken(tarball);
        QVERIFY(broken.valid());
        QVERIFY(broken.append(QStringLiteral("src/Makefile"), "\nthis is not a rule of make\n"));
        const QString tree = broken.path();
        const Outcome<BuildSource> source = sourceFromTree(tree);
        QVERIFY(source);
        // A cache of its own: make stops at the Makefile whatever the work tree holds, and no
        // other build in the real cache (a second suite's) makes this one wait.
        QTemporaryDir cache;
        const QString folder = cache.filePath(QStringLiteral("valkey-8.0.1-src-") + source->contentSha256.left(8));

        VersusCli cli;
        cli.environment().insert(QStringLiteral("VERSUS_SERVER_CACHE"), cache.path());
        const VersusCli::Result result = cli.run({QStringLiteral("build"), tree});
        QVERIFY2(result.exitCode == 2, result.describe());
        QVERIFY2(result.err.contains(QLatin1String("build failed at step 'make'")), result.describe());
        QVERIFY2(result.err.contains(QLatin1String("missing separator")), result.describe());
        QVERIFY2(result.err.contains(QLatin1String("log: ")), result.describe());
        QVERIFY(!QFileInfo::exists(folder));
    }

    void cancelEndsMakeAndLeavesNothing()
    {
        REQUIRE_RELEASE_TARBALL(tarball);
        QTemporaryDir cache;   // a cache of its own: its work tree starts from nothing
        SourceBuilder builder(cache.path());
        bool compiling = false;
        builder.setProgress([&compiling](const BuildProgress &progress) {
            compiling = compiling || (progress.step == QLatin1String("make") && progress.percent > 3);
        });
        builder.setCancelled([&compiling] { return compiling; });
        const Outcome<BuiltServer> built = builder.build(tarball);
        QVERIFY(!built);
        QVERIFY2(built.error().startsWith(QLatin1String("build failed at step 'make': cancelled")), qPrintable(built.error()));
        QVERIFY(!QFileInfo::exists(cache.filePath(QStringLiteral("valkey-8.0.1-upstream"))));
        QVERIFY2(processesWorkingIn(cache.path()).isEmpty(), qPrintable(processesWorkingIn(cache.path()).join(QLatin1Char(' '))));
        const QStringList left = QDir(cache.filePath(QStringLiteral(".builds"))).entryList({QStringLiteral("unpack-*"), QStringLiteral("install-*")});
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    // A second build in one cache waits for the first, saying so, and Cancel ends the wait: two
    // suites or two windows on one machine used to have the second refused outright.
    void secondBuildWaitsForTheFirst()
    {
        QTemporaryDir cache;
        QTemporaryDir tree;
        QVERIFY(QDir().mkpath(cache.filePath(QStringLiteral(".builds"))));
        const int fd = ::open(QFile::encodeName(cache.filePath(QStringLiteral(".builds/lock"))).constData(), O_RDWR | O_CREAT, 0600);
        QVERIFY(fd >= 0 && ::flock(fd, LOCK_EX) == 0);
        QDir().mkpath(tree.filePath(QStringLiteral("src")));
        QFile header(tree.filePath(QStringLiteral("src/version.h")));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write("#define VALKEY_VERSION \"8.0.1\"\n");
        header.close();
        QFile makefile(tree.filePath(QStringLiteral("src/Makefile")));
        QVERIFY(makefile.open(QIODevice::WriteOnly));
        makefile.close();
        const QString waiting = QStringLiteral("for another build in %1 to end").arg(cache.path());

        // Cancelled while it waits: it says why it stopped, and never built.
        SourceBuilder cancelledBuilder(cache.path());
        QStringList details;
        cancelledBuilder.setProgress([&details](const BuildProgress &progress) { details << progress.detail; });
        cancelledBuilder.setCancelled([&details, &waiting] { return details.contains(waiting); });
        const Outcome<BuiltServer> cancelled = cancelledBuilder.build(tree.path());
        QVERIFY(!cancelled);
        QCOMPARE(cancelled.error(), QStringLiteral("cancelled while waiting for another build in %1 to end").arg(cache.path()));
        QCOMPARE(details.last(), waiting);

        // The first build ends while the second waits: the second goes on past the lock (this
        // tree has nothing to make, so it stops at a later step, never at the lock).
        SourceBuilder second(cache.path());
        QStringList steps;
        second.setProgress([&steps](const BuildProgress &progress) { steps << progress.step + QLatin1Char(' ') + progress.detail; });
        std::thread firstEnds([fd] {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            ::close(fd);
        });
        const Outcome<BuiltServer> built = second.build(tree.path());
        firstEnds.join();
        QVERIFY(steps.contains(QStringLiteral("wait ") + waiting));
        QVERIFY2(built || !built.error().contains(QLatin1String("another build")), qPrintable(built.error()));
        QVERIFY2(steps.size() > 2, qPrintable(steps.join(QLatin1String(" | "))));
    }
};

QTEST_GUILESS_MAIN(TestSourceBuild)
#include "tst_sourcebuild.moc"
