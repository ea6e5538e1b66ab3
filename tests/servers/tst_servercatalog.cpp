// The server catalog: the real cache filled by scripts/fetch-servers, broken caches, PATH,
// binaries the user adds, and endpoints. With CI set, a missing fetched version fails.

#include "servercatalog.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QStringList kFetchedVersions{QStringLiteral("valkey-8.0."), QStringLiteral("valkey-8.1."),
                                   QStringLiteral("valkey-9.1."), QStringLiteral("redis-7.0.")};

bool writeFile(const QString &path, const QByteArray &content, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    file.write(content);
    file.close();
    if (executable)
        file.setPermissions(file.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    return true;
}

QByteArray manifestJson(const QString &binary, const QStringList &command, const QString &sha256 = QString())
{
    QJsonObject manifest{{QStringLiteral("label"), QStringLiteral("valkey-1.2.3")},
                         {QStringLiteral("product"), QStringLiteral("valkey")},
                         {QStringLiteral("version"), QStringLiteral("1.2.3")},
                         {QStringLiteral("suite"), QStringLiteral("sid")},
                         {QStringLiteral("package"), QStringLiteral("valkey-tools")},
                         {QStringLiteral("package_version"), QStringLiteral("1.2.3-1")},
                         {QStringLiteral("binary"), binary},
                         {QStringLiteral("command"), QJsonArray::fromStringList(command)}};
    if (!sha256.isEmpty())
        manifest.insert(QStringLiteral("sha256"), sha256);
    return QJsonDocument(manifest).toJson();
}

std::vector<const CatalogEntry *> entriesFrom(const ServerCatalog &catalog, ServerSource source)
{
    std::vector<const CatalogEntry *> found;
    for (const CatalogEntry &entry : catalog.entries()) {
        if (entry.spec.source == source)
            found.push_back(&entry);
    }
    return found;
}

// A usable cached entry whose label starts with the prefix, e.g. "valkey-9.1.".
const CatalogEntry *cachedVersion(const ServerCatalog &catalog, const QString &prefix)
{
    for (const CatalogEntry &entry : catalog.entries()) {
        if (entry.spec.source == ServerSource::Cache && entry.usable() && entry.spec.label.startsWith(prefix))
            return &entry;
    }
    return nullptr;
}

} // namespace

class TestServerCatalog : public QObject {
    Q_OBJECT

private:
    QByteArray m_savedPath;

    // The real cache, or a reason to stop: with CI set a missing version is a failure.
    bool requireFetchedVersions(const ServerCatalog &catalog, const QStringList &prefixes, QString *missing)
    {
        QStringList absent;
        for (const QString &prefix : prefixes) {
            if (!cachedVersion(catalog, prefix))
                absent << prefix + QLatin1Char('x');
        }
        if (absent.isEmpty())
            return true;
        QStringList statuses;
        for (const CatalogEntry &entry : catalog.entries())
            statuses << entry.spec.label + QStringLiteral(": ") + (entry.usable() ? QStringLiteral("ok") : entry.problem);
        *missing = QStringLiteral("not in %1: %2 (run scripts/fetch-servers). Catalog: %3")
                       .arg(ServerCatalog::defaultCacheDir(), absent.join(QStringLiteral(", ")),
                            statuses.isEmpty() ? QStringLiteral("empty") : statuses.join(QStringLiteral("; ")));
        return false;
    }

    // A shell wrapper that starts a cached server through its manifest's command line, the way
    // a user would put a server of their own on PATH.
    static bool writeWrapper(const QString &path, const ServerSpec &spec)
    {
        QByteArray script = "#!/bin/sh\nexec";
        for (const QString &part : QStringList{spec.program} + spec.prefixArguments)
            script += " '" + part.toUtf8() + "'";
        script += " \"$@\"\n";
        return writeFile(path, script, true);
    }

#define REQUIRE_FETCHED(catalog, prefixes)                                   \
    do {                                                                     \
        QString missing;                                                     \
        if (!requireFetchedVersions(catalog, prefixes, &missing)) {          \
            if (qEnvironmentVariableIsSet("CI"))                             \
                QFAIL(qPrintable(missing));                                  \
            QSKIP(qPrintable(missing));                                      \
        }                                                                    \
    } while (false)

private slots:
    void init() { m_savedPath = qgetenv("PATH"); }
    void cleanup() { qputenv("PATH", m_savedPath); }

    void defaultCacheDirFollowsEnvironment()
    {
        const QByteArray saved = qgetenv("VERSUS_SERVER_CACHE");
        qputenv("VERSUS_SERVER_CACHE", "/some/where/servers");
        QCOMPARE(ServerCatalog::defaultCacheDir(), QStringLiteral("/some/where/servers"));
        qunsetenv("VERSUS_SERVER_CACHE");
        const QString fallback = ServerCatalog::defaultCacheDir();
        if (!saved.isNull())
            qputenv("VERSUS_SERVER_CACHE", saved);
        QVERIFY2(fallback.endsWith(QStringLiteral("/versus/servers")), qPrintable(fallback));
    }

    void discoversTheFetchedVersions()
    {
        ServerCatalog catalog;
        catalog.discover();
        REQUIRE_FETCHED(catalog, kFetchedVersions);

        for (const QString &prefix : kFetchedVersions) {
            const CatalogEntry *entry = cachedVersion(catalog, prefix);
            const ServerSpec &spec = entry->spec;
            QCOMPARE(entry->problem, QString());
            QCOMPARE(spec.label, spec.identity.label());
            QCOMPARE(spec.identity.product, prefix.section(QLatin1Char('-'), 0, 0));
            QVERIFY2(spec.identity.allocator.startsWith(QStringLiteral("jemalloc-")), qPrintable(spec.identity.allocator));
            QVERIFY(!spec.identity.buildId.isEmpty());
            QVERIFY(spec.isLaunchable());
            QCOMPARE(spec.origin.kind, BuildKind::DebianPackage);   // fetch-servers' manifests say no "origin"
            QVERIFY(!spec.origin.suite.isEmpty());
            QVERIFY(!spec.origin.packageVersion.isEmpty());
            QVERIFY2(QFileInfo(spec.program).isExecutable(), qPrintable(spec.program));
            QVERIFY2(spec.prefixArguments.contains(spec.binaryPath), qPrintable(spec.prefixArguments.join(' ')));

            QFile binary(spec.binaryPath);
            QVERIFY(binary.open(QIODevice::ReadOnly));
            QCryptographicHash hash(QCryptographicHash::Sha256);
            QVERIFY(hash.addData(&binary));
            QCOMPARE(QString::fromLatin1(hash.result().toHex()), spec.binarySha256);

            // Looked up by label, the same entry comes back.
            QCOMPARE(catalog.find(spec.label), entry);
        }

        // The default selection: Valkey only, oldest first, one build per version, all of one
        // kind: the upstream release builds when every version has one, else the Debian packages.
        const std::vector<ServerSpec> selection = catalog.defaultSelection();
        QStringList labels;
        QStringList versions;
        bool everyVersionUpstream = true;
        for (const CatalogEntry &entry : catalog.entries()) {
            const ServerSpec &spec = entry.spec;
            if (entry.usable() && spec.identity.product == QLatin1String("valkey") && spec.origin.kind == BuildKind::DebianPackage) {
                const CatalogEntry *upstream = catalog.find(QStringLiteral("valkey-%1-upstream").arg(spec.identity.version));
                everyVersionUpstream = everyVersionUpstream && upstream && upstream->usable();
            }
        }
        for (const ServerSpec &spec : selection) {
            QCOMPARE(spec.identity.product, QStringLiteral("valkey"));
            labels << spec.label;
            QVERIFY2(!versions.contains(spec.identity.version), qPrintable(labels.join(' ')));
            versions << spec.identity.version;
            if (everyVersionUpstream)
                QCOMPARE(spec.label, QStringLiteral("valkey-%1-upstream").arg(spec.identity.version));
            else
                QCOMPARE(spec.origin.kind, BuildKind::DebianPackage);
        }
        QVERIFY2(selection.size() >= 3, qPrintable(labels.join(' ')));
        QVERIFY2(versions.indexOf(QStringLiteral("8.0.1")) == 0 && versions.indexOf(QStringLiteral("8.1.1")) == 1
                     && versions.size() > 2 && versions[2].startsWith(QLatin1String("9.1.")),
                 qPrintable(labels.join(' ')));
        // The tests' upstream build (scripts/test) of 8.0.1 alone makes no mix of builds: the
        // Debian 8.0.1 is chosen beside Debian's 8.1.1 and 9.1.x.
        REQUIRE_FETCHED(catalog, QStringList{QStringLiteral("valkey-8.0.1-upstream")});
        if (!everyVersionUpstream)
            QCOMPARE(labels.front(), QStringLiteral("valkey-8.0.1"));
        QCOMPARE(catalog.find(QStringLiteral("valkey-8.0.1-upstream"))->spec.recordedAllocator.quantumBytes, 8);
        // scripts/fetch-servers records what the Debian package's server said: the system jemalloc's 16.
        QCOMPARE(catalog.find(QStringLiteral("valkey-8.0.1"))->spec.recordedAllocator.quantumBytes, 16);
    }

    void brokenCacheEntriesSayWhy_data()
    {
        QTest::addColumn<QByteArray>("manifest");  // "" = no manifest.json at all
        QTest::addColumn<QString>("expected");     // the status starts with this

        const QString nowhere = QStringLiteral("/nonexistent/versus/bin/valkey-server");
        QTest::newRow("truncated JSON") << QByteArray("{\n  \"label\": \"valkey-1.2.3\",\n  \"binary\": ") << "corrupt manifest";
        QTest::newRow("not an object") << QByteArray("[1, 2, 3]") << "corrupt manifest";
        QTest::newRow("empty file") << QByteArray(" ") << "corrupt manifest";
        QTest::newRow("no command") << QByteArray("{\"product\": \"valkey\", \"version\": \"1.2.3\", \"binary\": \"/bin/true\"}")
                                    << "corrupt manifest";
        QTest::newRow("missing binary") << manifestJson(nowhere, {nowhere}) << "missing binary " + nowhere;
        QTest::newRow("no manifest") << QByteArray() << "incomplete fetch: no ";
    }

    void brokenCacheEntriesSayWhy()
    {
        QFETCH(QByteArray, manifest);
        QFETCH(QString, expected);
        QTemporaryDir cache;
        QVERIFY(cache.isValid());
        const QString folder = cache.filePath(QStringLiteral("valkey-1.2.3"));
        const QString manifestPath = folder + QStringLiteral("/manifest.json");
        QVERIFY(QDir().mkpath(folder));
        if (!manifest.isEmpty())
            QVERIFY(writeFile(manifestPath, manifest));
        qputenv("PATH", cache.path().toUtf8());  // nothing from the machine's PATH

        ServerCatalog catalog(cache.path());
        catalog.discover();
        QCOMPARE(catalog.entries().size(), size_t(1));
        const CatalogEntry &entry = catalog.entries().front();
        QVERIFY(!entry.usable());
        QVERIFY2(entry.problem.startsWith(expected), qPrintable(entry.problem));
        QVERIFY2(entry.problem.contains(manifestPath), qPrintable(entry.problem));
        QCOMPARE(entry.spec.label, QStringLiteral("valkey-1.2.3"));
        QVERIFY(catalog.defaultSelection().empty());
    }

    void corruptManifestNamesTheLine()
    {
        QTemporaryDir cache;
        QVERIFY(writeFile(cache.filePath(QStringLiteral("valkey-1.2.3/manifest.json")), "{\n  \"a\": 1,\n  \"b\": ,\n}\n"));
        ServerCatalog catalog(cache.path());
        catalog.discover();
        const auto cached = entriesFrom(catalog, ServerSource::Cache);
        QCOMPARE(cached.size(), size_t(1));
        QVERIFY2(cached.front()->problem.contains(QStringLiteral("manifest.json:3:")), qPrintable(cached.front()->problem));
    }

    void changedBinaryIsNotUsed()
    {
        QTemporaryDir cache;
        const QString binary = cache.filePath(QStringLiteral("valkey-1.2.3/bin/valkey-server"));
        QVERIFY(writeFile(binary, "#!/bin/sh\necho 'Valkey server v=1.2.3 sha=0:0 malloc=libc bits=64 build=1'\n", true));
        QJsonObject manifest = QJsonDocument::fromJson(manifestJson(binary, {binary}, QString(64, QLatin1Char('0')))).object();
        manifest.insert(QStringLiteral("files"), QJsonObject{{QStringLiteral("bin/valkey-server"), QString(64, QLatin1Char('0'))}});
        QVERIFY(writeFile(cache.filePath(QStringLiteral("valkey-1.2.3/manifest.json")), QJsonDocument(manifest).toJson()));
        ServerCatalog catalog(cache.path());
        catalog.discover();
        const auto cached = entriesFrom(catalog, ServerSource::Cache);
        QCOMPARE(cached.size(), size_t(1));
        QVERIFY2(cached.front()->problem.contains(QStringLiteral("changed since it was fetched")), qPrintable(cached.front()->problem));
        QVERIFY(cached.front()->problem.contains(binary));
    }

    void missingCacheDirIsAnEmptyCatalog()
    {
        QTemporaryDir parent;
        ServerCatalog catalog(parent.filePath(QStringLiteral("never/created")));
        catalog.discover();
        QVERIFY(entriesFrom(catalog, ServerSource::Cache).empty());
        QVERIFY(!QFileInfo::exists(parent.filePath(QStringLiteral("never"))));
    }

    void fetchWorkingFoldersAreNotEntries()
    {
        QTemporaryDir cache;
        QVERIFY(writeFile(cache.filePath(QStringLiteral(".apt/sid/sources.list")), "deb x sid main\n"));
        QVERIFY(QDir().mkpath(cache.filePath(QStringLiteral(".staging/valkey-sid"))));
        ServerCatalog catalog(cache.path());
        catalog.discover();
        QVERIFY(entriesFrom(catalog, ServerSource::Cache).empty());
    }

    void addBinaryRejects_data()
    {
        QTest::addColumn<QString>("name");       // file created in a temporary folder, or an absolute path
        QTest::addColumn<QByteArray>("content");  // "" = do not create it
        QTest::addColumn<bool>("executable");
        QTest::addColumn<QString>("expected");

        QTest::newRow("does not exist") << "no-such-server" << QByteArray() << false << "no such file";
        QTest::newRow("a directory") << "/tmp" << QByteArray() << false << "is a directory";
        QTest::newRow("not executable") << "valkey-server" << QByteArray("#!/bin/sh\n") << false << "not executable";
        QTest::newRow("prints nothing") << "silent-server" << QByteArray("#!/bin/sh\nexit 0\n") << true << "printed nothing";
        QTest::newRow("true") << "/bin/true" << QByteArray() << true << "\"true (GNU coreutils)";
        QTest::newRow("prints junk") << "junk-server" << QByteArray("#!/bin/sh\necho 'hello from a script'\n") << true
                                     << "\"hello from a script\"";
        QTest::newRow("another program") << "/bin/ls" << QByteArray() << true << "ls (GNU coreutils)";
        QTest::newRow("fails") << "failing-server" << QByteArray("#!/bin/sh\necho 'cannot start' >&2\nexit 3\n") << true
                               << "exit code 3): cannot start";
    }

    void addBinaryRejects()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(bool, executable);
        QFETCH(QString, expected);
        QTemporaryDir folder;
        const QString path = name.startsWith(QLatin1Char('/')) ? name : folder.filePath(name);
        if (!content.isEmpty())
            QVERIFY(writeFile(path, content, executable));

        ServerCatalog catalog(folder.filePath(QStringLiteral("cache")));
        const Outcome<ServerSpec> spec = catalog.addBinary(path);
        QVERIFY(!spec.ok());
        QVERIFY2(spec.error().contains(path), qPrintable(spec.error()));
        QVERIFY2(spec.error().contains(expected), qPrintable(spec.error()));
        QVERIFY(catalog.entries().empty());
    }

    void identifyGivesUpOnAHangingBinary()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("hangs"));
        QVERIFY(writeFile(path, "#!/bin/sh\nexec sleep 60\n", true));
        ServerSpec spec;
        spec.program = path;
        spec.binaryPath = path;
        const Outcome<ServerIdentity> identity = identifyServer(spec, 300);
        QVERIFY(!identity.ok());
        QVERIFY2(identity.error().contains(QStringLiteral("did not finish within 300 ms")), qPrintable(identity.error()));
    }

    // A dev build and a real one added by path; the default selection sorts numerically.
    void addBinaryIdentifiesServers()
    {
        QTemporaryDir folder;
        const QString dev = folder.filePath(QStringLiteral("dev/valkey-server"));
        QVERIFY(writeFile(dev, "#!/bin/sh\ncat '" VERSUS_FIXTURES "/versions/valkey-dev-255.255.255.txt'\n", true));

        ServerCatalog catalog(folder.filePath(QStringLiteral("empty-cache")));
        const Outcome<ServerSpec> devSpec = catalog.addBinary(dev);
        QVERIFY2(devSpec.ok(), qPrintable(devSpec.error()));
        // A development build is no release: labelled by the git sha --version printed.
        QCOMPARE(devSpec->label, QStringLiteral("valkey-dev-3c1a7d5b"));
        QCOMPARE(devSpec->identity.displayName(), QStringLiteral("Valkey dev build 3c1a7d5b"));
        QCOMPARE(devSpec->source, ServerSource::User);
        QCOMPARE(devSpec->program, dev);
        QVERIFY(devSpec->prefixArguments.isEmpty());
        QCOMPARE(devSpec->binarySha256.size(), 64);

        // Adding the same file again gives the same entry, not a second one.
        const Outcome<ServerSpec> again = catalog.addBinary(dev);
        QVERIFY(again.ok());
        QCOMPARE(again->label, devSpec->label);
        QCOMPARE(catalog.entries().size(), size_t(1));

        // Without a git sha, by the checkout folder that holds src/valkey-server.
        const QString unnamed = folder.filePath(QStringLiteral("unstable/src/valkey-server"));
        QVERIFY(writeFile(unnamed, "#!/bin/sh\necho 'Valkey server v=255.255.255 sha=00000000:0 malloc=libc bits=64 build=1'\n", true));
        const Outcome<ServerSpec> unnamedSpec = catalog.addBinary(unnamed);
        QVERIFY2(unnamedSpec.ok(), qPrintable(unnamedSpec.error()));
        QCOMPARE(unnamedSpec->label, QStringLiteral("valkey-dev-unstable"));
        QCOMPARE(catalog.entries().size(), size_t(2));

        ServerCatalog real;
        real.discover();
        REQUIRE_FETCHED(real, QStringList{QStringLiteral("valkey-8.0.")});
        const ServerSpec &cached = cachedVersion(real, QStringLiteral("valkey-8.0."))->spec;
        const QString wrapper = folder.filePath(QStringLiteral("mine/valkey-server"));
        QVERIFY(writeWrapper(wrapper, cached));
        const Outcome<ServerSpec> mine = catalog.addBinary(wrapper);
        QVERIFY2(mine.ok(), qPrintable(mine.error()));
        QCOMPARE(mine->label, cached.label);

        const std::vector<ServerSpec> selection = catalog.defaultSelection();
        QCOMPARE(selection.size(), size_t(3));
        QCOMPARE(selection[0].label, cached.label);
        QCOMPARE(selection[1].label, QStringLiteral("valkey-dev-3c1a7d5b"));
        QCOMPARE(selection[2].label, QStringLiteral("valkey-dev-unstable"));
    }

    // The same version in the cache, on PATH and added by hand: later ones get a suffix.
    void sameVersionTwiceGetsDistinctLabels()
    {
        ServerCatalog real;
        real.discover();
        REQUIRE_FETCHED(real, QStringList{QStringLiteral("valkey-9.1.")});
        const ServerSpec &cached = cachedVersion(real, QStringLiteral("valkey-9.1."))->spec;

        QTemporaryDir folder;
        QVERIFY(writeWrapper(folder.filePath(QStringLiteral("bin/valkey-server")), cached));
        QVERIFY(writeWrapper(folder.filePath(QStringLiteral("other/valkey-server")), cached));
        qputenv("PATH", folder.filePath(QStringLiteral("bin")).toUtf8());

        ServerCatalog catalog;
        catalog.discover();
        const auto onPath = entriesFrom(catalog, ServerSource::Path);
        QCOMPARE(onPath.size(), size_t(1));
        QCOMPARE(onPath.front()->problem, QString());
        QCOMPARE(onPath.front()->spec.label, cached.label + QStringLiteral("-path"));
        QCOMPARE(onPath.front()->spec.program, folder.filePath(QStringLiteral("bin/valkey-server")));

        const Outcome<ServerSpec> added = catalog.addBinary(folder.filePath(QStringLiteral("other/valkey-server")));
        QVERIFY2(added.ok(), qPrintable(added.error()));
        QCOMPARE(added->label, cached.label + QStringLiteral("-user"));
        QVERIFY(catalog.find(cached.label));
        QCOMPARE(catalog.find(cached.label)->spec.source, ServerSource::Cache);
    }

    void pathEntryThatIsNotAServer()
    {
        QTemporaryDir folder;
        QVERIFY(writeFile(folder.filePath(QStringLiteral("redis-server")), "#!/bin/sh\necho 'not really'\n", true));
        qputenv("PATH", folder.path().toUtf8());
        ServerCatalog catalog(folder.filePath(QStringLiteral("no-cache")));
        catalog.discover();
        QCOMPARE(catalog.entries().size(), size_t(1));
        const CatalogEntry &entry = catalog.entries().front();
        QCOMPARE(entry.spec.source, ServerSource::Path);
        QVERIFY(!entry.usable());
        QVERIFY2(entry.problem.contains(folder.filePath(QStringLiteral("redis-server"))), qPrintable(entry.problem));
        QVERIFY2(entry.problem.contains(QStringLiteral("\"not really\"")), qPrintable(entry.problem));
    }

    void parseEndpoint_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");

        QTest::newRow("ipv4") << "127.0.0.1:6379" << true << "127.0.0.1" << 6379;
        QTest::newRow("name") << "localhost:6380" << true << "localhost" << 6380;
        QTest::newRow("dotted name") << "cache-1.internal.example:7000" << true << "cache-1.internal.example" << 7000;
        QTest::newRow("ipv6") << "[::1]:6379" << true << "::1" << 6379;
        QTest::newRow("spaces around") << "  127.0.0.1:1  " << true << "127.0.0.1" << 1;
        QTest::newRow("highest port") << "h:65535" << true << "h" << 65535;
        QTest::newRow("empty") << "" << false << "" << 0;
        QTest::newRow("no port") << "localhost" << false << "" << 0;
        QTest::newRow("no host") << ":6379" << false << "" << 0;
        QTest::newRow("port zero") << "localhost:0" << false << "" << 0;
        QTest::newRow("port too big") << "localhost:65536" << false << "" << 0;
        QTest::newRow("port not a number") << "localhost:redis" << false << "" << 0;
        QTest::newRow("negative port") << "localhost:-1" << false << "" << 0;
        QTest::newRow("bare ipv6") << "::1:6379" << false << "" << 0;
        QTest::newRow("bad ipv6") << "[zz::1]:6379" << false << "" << 0;
        QTest::newRow("space in host") << "my host:6379" << false << "" << 0;
        QTest::newRow("path") << "/usr/bin/valkey-server" << false << "" << 0;
        QTest::newRow("scheme") << "redis://localhost:6379" << false << "" << 0;
        QTest::newRow("two ports") << "localhost:1:2" << false << "" << 0;
    }

    void parseEndpoint()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        const Outcome<ServerSpec> spec = ServerCatalog::parseEndpoint(text);
        QCOMPARE(spec.ok(), valid);
        if (!valid) {
            QVERIFY2(spec.error().contains(QLatin1Char('\'') + text + QLatin1Char('\'')), qPrintable(spec.error()));
            return;
        }
        QVERIFY(spec->isEndpoint);
        QVERIFY(!spec->isLaunchable());
        QCOMPARE(spec->source, ServerSource::Endpoint);
        QTEST(spec->host, "host");
        QTEST(spec->port, "port");
        QCOMPARE(spec->label, text.trimmed());
    }
};

QTEST_GUILESS_MAIN(TestServerCatalog)
#include "tst_servercatalog.moc"
