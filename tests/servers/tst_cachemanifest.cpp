// manifest.json as scripts/fetch-servers wrote it in bash, before `versus servers --record` wrote
// every manifest: users' caches hold these, and they must read as they are (the catalog then
// runs them without a new fetch). And a Debian package's manifest as the C++ writer writes it
// reads back field for field, still without "origin".

#include "cachemanifest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

// Byte for byte the bash writer's layout: top-level strings one per line, the command arrays on
// one line, "files" last.
const char kBashManifest[] = R"({
  "label": "valkey-8.0.1",
  "product": "valkey",
  "version": "8.0.1",
  "suite": "bookworm-backports",
  "package": "valkey-tools",
  "package_version": "8.0.1+dfsg1-1~bpo12+1",
  "binary": "/c/valkey-8.0.1/bin/valkey-server",
  "sha256": "629d7d628b5db43a08a7dc14ae3dfa6fb0abe095256b974c55cee606d19860ff",
  "jemalloc_quantum": 16,
  "version_output": "Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=39f7c371e0a96e3d",
  "fetched_at": "2026-12-06T19:38:10Z",
  "command": ["/c/valkey-8.0.1/lib/ld-linux-x86-64.so.2", "--library-path", "/c/valkey-8.0.1/lib", "--argv0", "valkey-server", "/c/valkey-8.0.1/bin/valkey-server"],
  "cli_command": ["/c/valkey-8.0.1/lib/ld-linux-x86-64.so.2", "--library-path", "/c/valkey-8.0.1/lib", "--argv0", "valkey-cli", "/c/valkey-8.0.1/bin/valkey-cli"],
  "files": {
    "bin/valkey-cli": "e5b507d677e877d2550072ee35deb22e63781db6f21f4eff6e3d438b1458bba8",
    "bin/valkey-server": "629d7d628b5db43a08a7dc14ae3dfa6fb0abe095256b974c55cee606d19860ff",
    "lib/ld-linux-x86-64.so.2": "02bcda52c1a5dfc236f94d9e5255b4a0e26347d8a372a5223b650e31f291ce3c"
  }
}
)";

// From before the bash writer recorded the files and the quantum.
const char kOldestBashManifest[] = R"({
  "label": "redis-7.0.15",
  "product": "redis",
  "version": "7.0.15",
  "suite": "bookworm",
  "package": "redis-tools",
  "package_version": "5:7.0.15-1~deb12u1",
  "binary": "/c/redis-7.0.15/bin/redis-server",
  "sha256": "1111111111111111111111111111111111111111111111111111111111111111",
  "version_output": "Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=1",
  "fetched_at": "2025-01-01T00:00:00Z",
  "command": ["/c/redis-7.0.15/lib/ld-linux-x86-64.so.2", "--library-path", "/c/redis-7.0.15/lib", "--argv0", "redis-server", "/c/redis-7.0.15/bin/redis-server"]
}
)";

QStringList loaderLine(const QString &folder, const QString &program)
{
    return {folder + QStringLiteral("/lib/ld-linux-x86-64.so.2"), QStringLiteral("--library-path"), folder + QStringLiteral("/lib"),
            QStringLiteral("--argv0"), program, folder + QStringLiteral("/bin/") + program};
}

Outcome<CacheManifest> readManifestText(const QTemporaryDir &folder, const QByteArray &text)
{
    const QString path = folder.filePath(QStringLiteral("manifest.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
        return Error{QStringLiteral("cannot write %1").arg(path)};
    file.close();
    return readCacheManifest(path);
}

} // namespace

class TestCacheManifest : public QObject {
    Q_OBJECT

private slots:
    void bashManifestReads()
    {
        QTemporaryDir folder;
        const Outcome<CacheManifest> manifest = readManifestText(folder, kBashManifest);
        QVERIFY2(manifest, qPrintable(manifest ? QString() : manifest.error()));
        QCOMPARE(manifest->label, QStringLiteral("valkey-8.0.1"));
        QCOMPARE(manifest->product, QStringLiteral("valkey"));
        QCOMPARE(manifest->version, QStringLiteral("8.0.1"));
        QCOMPARE(manifest->origin.kind, BuildKind::DebianPackage);
        QCOMPARE(manifest->origin.suite, QStringLiteral("bookworm-backports"));
        QCOMPARE(manifest->origin.packageVersion, QStringLiteral("8.0.1+dfsg1-1~bpo12+1"));
        QCOMPARE(manifest->package, QStringLiteral("valkey-tools"));
        QCOMPARE(manifest->binary, QStringLiteral("/c/valkey-8.0.1/bin/valkey-server"));
        QCOMPARE(manifest->sha256, QStringLiteral("629d7d628b5db43a08a7dc14ae3dfa6fb0abe095256b974c55cee606d19860ff"));
        QCOMPARE(manifest->allocator.quantumBytes, 16);
        QCOMPARE(manifest->allocator.memAllocator, QString());   // the bash writer never recorded it
        QCOMPARE(manifest->recordedAt, QStringLiteral("2026-12-06T19:38:10Z"));
        QCOMPARE(manifest->command, loaderLine(QStringLiteral("/c/valkey-8.0.1"), QStringLiteral("valkey-server")));
        QCOMPARE(manifest->cliCommand, loaderLine(QStringLiteral("/c/valkey-8.0.1"), QStringLiteral("valkey-cli")));
        QCOMPARE(int(manifest->files.size()), 3);
        QCOMPARE(manifest->files.at(QStringLiteral("lib/ld-linux-x86-64.so.2")),
                 QStringLiteral("02bcda52c1a5dfc236f94d9e5255b4a0e26347d8a372a5223b650e31f291ce3c"));
    }

    void oldestBashManifestReadsWithoutFilesOrQuantum()
    {
        QTemporaryDir folder;
        const Outcome<CacheManifest> manifest = readManifestText(folder, kOldestBashManifest);
        QVERIFY2(manifest, qPrintable(manifest ? QString() : manifest.error()));
        QCOMPARE(manifest->origin.kind, BuildKind::DebianPackage);
        QCOMPARE(manifest->origin.packageVersion, QStringLiteral("5:7.0.15-1~deb12u1"));
        QCOMPARE(manifest->allocator.quantumBytes, 0);
        QVERIFY(manifest->files.empty());
        QVERIFY(manifest->cliCommand.isEmpty());
        QCOMPARE(manifest->command, loaderLine(QStringLiteral("/c/redis-7.0.15"), QStringLiteral("redis-server")));
    }

    // What `versus servers --record` writes reads back as it was, and says no "origin" (a
    // Versus from before reads a Debian package by that).
    void debianManifestRoundTrips()
    {
        QTemporaryDir folder;
        const Outcome<CacheManifest> bash = readManifestText(folder, kBashManifest);
        QVERIFY(bash);
        CacheManifest written = bash.value();
        written.allocator.memAllocator = QStringLiteral("jemalloc-5.3.0");
        const QString path = folder.filePath(QStringLiteral("manifest.json"));
        QVERIFY(writeCacheManifest(path, written));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(!text.contains("\"origin\""), text.constData());
        const Outcome<CacheManifest> read = readCacheManifest(path);
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        QCOMPARE(read->label, written.label);
        QCOMPARE(read->package, written.package);
        QCOMPARE(read->origin, written.origin);
        QCOMPARE(read->allocator, written.allocator);
        QCOMPARE(read->command, written.command);
        QCOMPARE(read->cliCommand, written.cliCommand);
        QCOMPARE(read->files, written.files);
        QCOMPARE(read->recordedAt, written.recordedAt);
        QCOMPARE(read->versionOutput, written.versionOutput);
        QCOMPARE(cacheManifestText(read.value()), text);
    }
};

QTEST_GUILESS_MAIN(TestCacheManifest)
#include "tst_cachemanifest.moc"
