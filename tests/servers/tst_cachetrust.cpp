// The server cache runs only what nobody else could have changed: real copies of a fetched
// version in a temporary cache, then a group-writable manifest, a world-writable cache, a
// changed binary, a tampered loader, a command that runs a file outside its folder, and a
// listing of a version verified before, which runs nothing.

#include "servercatalog.h"
#include "servertesthelpers.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace ServerTestHelpers;

namespace {

const QString kVersion = QStringLiteral("valkey-8.0.1");

bool appendByte(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::Append))
        return false;
    return file.write("\n", 1) == 1;
}

QString modeOf(const QString &path)
{
    struct stat status{};
    ::stat(QFile::encodeName(path).constData(), &status);
    return QString::number(status.st_mode & 07777, 8);
}

const CatalogEntry *cacheEntry(const ServerCatalog &catalog)
{
    for (const CatalogEntry &entry : catalog.entries()) {
        if (entry.spec.source == ServerSource::Cache)
            return &entry;
    }
    return nullptr;
}

} // namespace

class TestCacheTrust : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_cache;    // <root>/cache
    QString m_folder;   // <cache>/valkey-8.0.1
    QByteArray m_savedPath;

    QString inFolder(const QString &relative) const { return m_folder + QLatin1Char('/') + relative; }
    QString manifestPath() const { return inFolder(QStringLiteral("manifest.json")); }

    // The catalog of the temporary cache alone (nothing from PATH), with exactly one entry.
    const CatalogEntry &discovered(ServerCatalog &catalog)
    {
        catalog.discover();
        const CatalogEntry *entry = cacheEntry(catalog);
        if (!entry)
            qFatal("no cache entry in %s", qPrintable(m_cache));
        return *entry;
    }

private slots:
    void init()
    {
        VERSUS_REQUIRE_SERVER(source, "valkey-8.0.1");
        m_savedPath = qgetenv("PATH");
        m_cache = m_root.filePath(QStringLiteral("cache"));
        m_folder = m_cache + QLatin1Char('/') + kVersion;
        // A real copy of the fetched folder; its manifest names the copy's own paths.
        const QString original = copyFetchedFolder(source, m_cache, m_folder);
        QVERIFY(!original.isEmpty());
        QFile manifest(manifestPath());
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QByteArray text = manifest.readAll();
        manifest.close();
        text.replace(original.toUtf8() + '/', m_folder.toUtf8() + '/');
        QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifest.write(text);
        manifest.close();
        qputenv("PATH", m_root.path().toUtf8());   // nothing from the machine's PATH
    }

    void cleanup()
    {
        qputenv("PATH", m_savedPath);
        QDir(m_cache).removeRecursively();
    }

    void copyIsUsableAndRemembered()
    {
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QVERIFY2(entry.usable(), qPrintable(entry.problem));
        QCOMPARE(entry.spec.label, kVersion);
        QCOMPARE(entry.spec.binaryPath, inFolder(QStringLiteral("bin/valkey-server")));
        QCOMPARE(entry.spec.program, inFolder(QStringLiteral("lib/ld-linux-x86-64.so.2")));
        const QString records = m_cache + QStringLiteral("/.verified.json");
        QVERIFY(QFileInfo::exists(records));
        QCOMPARE(modeOf(records), QStringLiteral("600"));
        // fetch-servers' manifest says no "origin": a Debian package, with its suite.
        QCOMPARE(entry.spec.origin.kind, BuildKind::DebianPackage);
        QCOMPARE(entry.spec.origin.suite, QStringLiteral("bookworm-backports"));
        QVERIFY(entry.spec.origin.packageVersion.startsWith(QStringLiteral("8.0.1")));
    }

    // An upstream build's manifest, as the build recipe writes it: its command is the server
    // binary alone (here a wrapper around the copied one, which needs its folder's loader).
    void upstreamManifestGivesItsLabelAndOrigin_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("problem");   // empty: usable
        QTest::newRow("its own label") << QStringLiteral("valkey-8.0.1-upstream") << QString();
        QTest::newRow("a source tree's") << QStringLiteral("valkey-unstable-3c1a7d5b-dirty") << QString();
        QTest::newRow("upper case") << QStringLiteral("Valkey-8.0.1") << QStringLiteral("label 'Valkey-8.0.1' is not");
        QTest::newRow("a path") << QStringLiteral("../valkey") << QStringLiteral("label '../valkey' is not");
        QTest::newRow("none") << QString() << QStringLiteral("missing or empty label");
    }

    void upstreamManifestGivesItsLabelAndOrigin()
    {
        QFETCH(QString, label);
        QFETCH(QString, problem);
        const QString binary = inFolder(QStringLiteral("bin/valkey-server"));
        const QString real = inFolder(QStringLiteral("bin/valkey-server.real"));
        QVERIFY(QFile::rename(binary, real));
        const QByteArray wrapper = "#!/bin/sh\nexec '" + inFolder(QStringLiteral("lib/ld-linux-x86-64.so.2")).toUtf8()
                                   + "' --library-path '" + inFolder(QStringLiteral("lib")).toUtf8()
                                   + "' --argv0 valkey-server '" + real.toUtf8() + "' \"$@\"\n";
        QFile script(binary);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(wrapper);
        script.close();
        QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                      | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther));
        const QString sha = QString::fromLatin1(QCryptographicHash::hash(wrapper, QCryptographicHash::Sha256).toHex());
        QJsonObject manifest{{QStringLiteral("origin"), QStringLiteral("upstream-build")},
                             {QStringLiteral("product"), QStringLiteral("valkey")},
                             {QStringLiteral("version"), QStringLiteral("8.0.1")},
                             {QStringLiteral("binary"), binary},
                             {QStringLiteral("command"), QJsonArray{binary}},
                             {QStringLiteral("files"), QJsonObject{{QStringLiteral("bin/valkey-server"), sha}}},
                             {QStringLiteral("source"), QStringLiteral("valkey-8.0.1.tar.gz")},
                             {QStringLiteral("source_sha256"), QStringLiteral("bccb382a0c8a8c5b6e5d1b6fd9d2c5bd")},
                             {QStringLiteral("git_sha"), QStringLiteral("3c1a7d5b9e")},
                             {QStringLiteral("git_branch"), QStringLiteral("unstable")},
                             {QStringLiteral("dirty"), true},
                             {QStringLiteral("make_variables"), QStringLiteral("BUILD_TLS=yes")},
                             {QStringLiteral("compiler"), QStringLiteral("cc (Debian 12.2.0-14) 12.2.0")}};
        if (!label.isEmpty())
            manifest.insert(QStringLiteral("label"), label);
        QFile file(manifestPath());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(manifest).toJson());
        file.close();

        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        if (!problem.isEmpty()) {
            QVERIFY2(entry.problem.contains(problem), qPrintable(entry.problem));
            QVERIFY2(entry.problem.contains(manifestPath()), qPrintable(entry.problem));
            return;
        }
        QVERIFY2(entry.usable(), qPrintable(entry.problem));
        QCOMPARE(entry.spec.label, label);
        QCOMPARE(entry.spec.identity.version, QStringLiteral("8.0.1"));
        QCOMPARE(entry.spec.program, binary);
        QVERIFY(entry.spec.prefixArguments.isEmpty());
        const BuildOrigin &origin = entry.spec.origin;
        QCOMPARE(origin.kind, BuildKind::UpstreamBuild);
        QCOMPARE(origin.source, QStringLiteral("valkey-8.0.1.tar.gz"));
        QCOMPARE(origin.sourceSha256, QStringLiteral("bccb382a0c8a8c5b6e5d1b6fd9d2c5bd"));
        QCOMPARE(origin.gitSha, QStringLiteral("3c1a7d5b9e"));
        QCOMPARE(origin.gitBranch, QStringLiteral("unstable"));
        QVERIFY(origin.dirty);
        QCOMPARE(origin.makeVariables, QStringLiteral("BUILD_TLS=yes"));
        QCOMPARE(origin.compiler, QStringLiteral("cc (Debian 12.2.0-14) 12.2.0"));
        QVERIFY(origin.suite.isEmpty());
    }

    void groupWritableManifestIsRefused()
    {
        QVERIFY(::chmod(QFile::encodeName(manifestPath()).constData(), 0664) == 0);
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QCOMPARE(entry.problem, QStringLiteral("refusing %1: %1 is writable by its group (mode 0664; chmod g-w it)").arg(manifestPath()));
        QCOMPARE(entry.spec.label, kVersion);
    }

    void worldWritableCacheIsRefused()
    {
        QVERIFY(::chmod(QFile::encodeName(m_cache).constData(), 0757) == 0);
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QCOMPARE(entry.problem,
                 QStringLiteral("refusing the server cache: %1 is writable by every user (mode 0757; chmod o-w it)").arg(m_cache));
        // Nothing is remembered from a cache that others could write.
        QVERIFY(!QFileInfo::exists(m_cache + QStringLiteral("/.verified.json")));
    }

    void groupWritableLibraryFolderIsRefused()
    {
        const QString lib = inFolder(QStringLiteral("lib"));
        QVERIFY(::chmod(QFile::encodeName(lib).constData(), 0775) == 0);
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QVERIFY2(entry.problem.startsWith(QStringLiteral("refusing to run %1/").arg(lib)), qPrintable(entry.problem));
        QVERIFY2(entry.problem.endsWith(QStringLiteral(": %1 is writable by its group (mode 0775; chmod g-w it)").arg(lib)),
                 qPrintable(entry.problem));
    }

    void changedBinaryIsRefused()
    {
        const QString binary = inFolder(QStringLiteral("bin/valkey-server"));
        QVERIFY(appendByte(binary));
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QCOMPARE(entry.problem, QStringLiteral("binary %1 changed since it was fetched (sha256 differs from %2; run scripts/fetch-servers)")
                                    .arg(binary, manifestPath()));
    }

    // Verified once, then the loader is changed: the record no longer matches and the new
    // loader is hashed, not run.
    void tamperedLoaderIsRefusedAfterAVerifiedListing()
    {
        ServerCatalog first(m_cache);
        QVERIFY2(discovered(first).usable(), qPrintable(discovered(first).problem));
        const QString loader = inFolder(QStringLiteral("lib/ld-linux-x86-64.so.2"));
        QVERIFY(appendByte(loader));
        ServerCatalog second(m_cache);
        const CatalogEntry &entry = discovered(second);
        QCOMPARE(entry.problem, QStringLiteral("file %1 changed since it was fetched (sha256 differs from %2; run scripts/fetch-servers)")
                                    .arg(loader, manifestPath()));
    }

    void commandOutsideTheFolderIsRefused()
    {
        QFile manifest(manifestPath());
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QJsonObject object = QJsonDocument::fromJson(manifest.readAll()).object();
        manifest.close();
        object.insert(QStringLiteral("command"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("true")});
        QVERIFY(manifest.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifest.write(QJsonDocument(object).toJson());
        manifest.close();
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QVERIFY2(entry.problem.startsWith(QStringLiteral("refusing %1: its command runs /bin/sh lies outside %2").arg(manifestPath(), m_folder)),
                 qPrintable(entry.problem));
    }

    // The second listing takes the identity from the record: made to say 8.0.99, it shows
    // 8.0.99, so --version did not run. Touching the binary makes it verify (and run) again.
    void verifiedListingRunsNothing()
    {
        ServerCatalog first(m_cache);
        QVERIFY2(discovered(first).usable(), qPrintable(discovered(first).problem));
        const QString recordsPath = m_cache + QStringLiteral("/.verified.json");
        QFile records(recordsPath);
        QVERIFY(records.open(QIODevice::ReadOnly));
        QByteArray text = records.readAll();
        records.close();
        QVERIFY(text.contains("v=8.0.1 "));
        text.replace("v=8.0.1 ", "v=8.0.99 ");
        QVERIFY(records.open(QIODevice::WriteOnly | QIODevice::Truncate));
        records.write(text);
        records.close();

        ServerCatalog second(m_cache);
        QCOMPARE(discovered(second).spec.label, QStringLiteral("valkey-8.0.99"));

        QFile binary(inFolder(QStringLiteral("bin/valkey-server")));
        QVERIFY(binary.open(QIODevice::ReadWrite));
        QVERIFY(binary.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
        binary.close();
        ServerCatalog third(m_cache);
        QCOMPARE(discovered(third).spec.label, kVersion);
    }

    // The record is a name Versus chose in the cache: a symbolic link there (to a file of the
    // user's, out of the cache) is never written through, and the listing still works.
    void verifiedRecordIsNotWrittenThroughALink()
    {
        QTemporaryDir outside;
        const QString victim = outside.filePath(QStringLiteral("notes.txt"));
        QVERIFY(TestFiles::writeFile(victim, "the user's own notes\n"));
        const QString recordsPath = m_cache + QStringLiteral("/.verified.json");
        QVERIFY(QFile::link(victim, recordsPath));

        ServerCatalog catalog(m_cache);
        QVERIFY2(discovered(catalog).usable(), qPrintable(discovered(catalog).problem));
        QCOMPARE(TestFiles::readFile(victim), QByteArray("the user's own notes\n"));
        QVERIFY(QFileInfo(recordsPath).isSymLink());
        QCOMPARE(QFileInfo(victim).permissions() & QFileDevice::ReadOther, QFileDevice::ReadOther);
    }

    void foreignOwnedManifestIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give a file to another user");
        QVERIFY(::chown(QFile::encodeName(manifestPath()).constData(), 65534, 65534) == 0);
        ServerCatalog catalog(m_cache);
        const CatalogEntry &entry = discovered(catalog);
        QVERIFY2(entry.problem.startsWith(QStringLiteral("refusing %1: %1 is owned by ").arg(manifestPath())), qPrintable(entry.problem));
        QVERIFY2(entry.problem.contains(QStringLiteral("(uid 65534), not by you")), qPrintable(entry.problem));
    }
};

QTEST_GUILESS_MAIN(TestCacheTrust)
#include "tst_cachetrust.moc"
