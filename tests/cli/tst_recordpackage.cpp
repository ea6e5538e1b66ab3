// `versus servers --record`, the one writer of a Debian package's manifest (scripts/fetch-servers
// calls it), on a real copy of a fetched Valkey folder without its manifest: the manifest it
// writes (exact command lines, every file's sha256, the quantum the server reported), the line
// `versus servers --tsv` then gives fetch-servers, and the refusals, each naming the folder and
// the option or file at fault.

#include "cachemanifest.h"
#include "servertesthelpers.h"
#include "verifiedrecords.h"
#include "versuscli.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace {

const QString kRecordedLabel = QStringLiteral("valkey-8.0.1");

QStringList throughLoader(const QString &folder, const QString &program)
{
    return {folder + QStringLiteral("/lib/ld-linux-x86-64.so.2"), QStringLiteral("--library-path"), folder + QStringLiteral("/lib"),
            QStringLiteral("--argv0"), program, folder + QStringLiteral("/bin/") + program};
}

int filesIn(const QString &folder)
{
    int count = 0;
    for (const QString &subfolder : {QStringLiteral("bin"), QStringLiteral("lib")})
        count += int(QDir(folder + QLatin1Char('/') + subfolder).entryList(QDir::Files).size());
    return count;
}

} // namespace

class TestRecordPackage : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_cache;    // <root>/cache
    QString m_folder;   // <cache>/valkey-8.0.1, a copy of the fetched one, its manifest removed
    QString m_packageVersion;

    QStringList recordArguments(const QString &product = QStringLiteral("valkey")) const
    {
        return {QStringLiteral("servers"), QStringLiteral("--record"), m_folder, QStringLiteral("--product"), product,
                QStringLiteral("--loader"), m_folder + QStringLiteral("/lib/ld-linux-x86-64.so.2"), QStringLiteral("--suite"),
                QStringLiteral("bookworm-backports"), QStringLiteral("--package"), QStringLiteral("valkey-tools"),
                QStringLiteral("--package-version"), m_packageVersion};
    }

    VersusCli::Result runInCache(const QStringList &arguments)
    {
        VersusCli cli;
        cli.environment().insert(QStringLiteral("VERSUS_SERVER_CACHE"), m_cache);
        cli.environment().insert(QStringLiteral("PATH"), m_root.path());   // nothing from the machine's PATH
        return cli.run(arguments);
    }

private slots:
    void init()
    {
        VERSUS_REQUIRE_SERVER(source, "valkey-8.0.1");
        if (source.origin.kind != BuildKind::DebianPackage)
            QSKIP("the cache's first valkey-8.0.1 is not the Debian package");
        m_packageVersion = source.origin.packageVersion;
        m_cache = m_root.filePath(QStringLiteral("cache"));
        m_folder = m_cache + QLatin1Char('/') + kRecordedLabel;
        QVERIFY(!ServerTestHelpers::copyFetchedFolder(source, m_cache, m_folder).isEmpty());
        QVERIFY(QFile::remove(m_folder + QStringLiteral("/manifest.json")));
    }

    void cleanup() { QDir(m_cache).removeRecursively(); }

    void recordsEveryFileAndTheQuantum()
    {
        const VersusCli::Result r = runInCache(recordArguments());
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(r.out, kRecordedLabel + QLatin1Char('\n'));

        const Outcome<CacheManifest> manifest = readCacheManifest(m_folder + QStringLiteral("/manifest.json"));
        QVERIFY2(manifest, qPrintable(manifest ? QString() : manifest.error()));
        QCOMPARE(manifest->label, kRecordedLabel);
        QCOMPARE(manifest->product, QStringLiteral("valkey"));
        QCOMPARE(manifest->version, QStringLiteral("8.0.1"));
        QCOMPARE(manifest->origin.kind, BuildKind::DebianPackage);
        QCOMPARE(manifest->origin.suite, QStringLiteral("bookworm-backports"));
        QCOMPARE(manifest->origin.packageVersion, m_packageVersion);
        QCOMPARE(manifest->package, QStringLiteral("valkey-tools"));
        QCOMPARE(manifest->binary, m_folder + QStringLiteral("/bin/valkey-server"));
        QCOMPARE(manifest->command, throughLoader(m_folder, QStringLiteral("valkey-server")));
        QCOMPARE(manifest->cliCommand, throughLoader(m_folder, QStringLiteral("valkey-cli")));
        QCOMPARE(int(manifest->files.size()), filesIn(m_folder));
        QCOMPARE(manifest->files.at(QStringLiteral("bin/valkey-server")), manifest->sha256);
        QCOMPARE(manifest->sha256, sha256OfFile(m_folder + QStringLiteral("/bin/valkey-server")));
        QCOMPARE(manifest->files.at(QStringLiteral("lib/ld-linux-x86-64.so.2")),
                 sha256OfFile(m_folder + QStringLiteral("/lib/ld-linux-x86-64.so.2")));
        // Debian's jemalloc (the system one) reports a 16-byte quantum on amd64.
        QCOMPARE(manifest->allocator.quantumBytes, 16);
        QVERIFY2(manifest->allocator.memAllocator.startsWith(QStringLiteral("jemalloc-")), qPrintable(manifest->allocator.memAllocator));
        QVERIFY2(manifest->versionOutput.startsWith(QStringLiteral("Valkey server v=8.0.1 ")), qPrintable(manifest->versionOutput));
        // A Debian package's manifest says no "origin": what older versions of Versus read.
        QFile text(m_folder + QStringLiteral("/manifest.json"));
        QVERIFY(text.open(QIODevice::ReadOnly));
        QVERIFY(!text.readAll().contains("\"origin\""));
        QCOMPARE(text.permissions() & (QFileDevice::WriteGroup | QFileDevice::WriteOther), QFileDevice::Permissions());
    }

    // The line scripts/fetch-servers reads to tell what the cache holds, intact.
    void tabSeparatedListingGivesTheScriptItsFields()
    {
        QVERIFY2(runInCache(recordArguments()).exitCode == 0, "recording failed");
        const VersusCli::Result r = runInCache({QStringLiteral("servers"), QStringLiteral("--tsv")});
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        const QStringList cells = lines.front().split(QLatin1Char('\t'));
        const QStringList expected{kRecordedLabel,
                                   QStringLiteral("valkey"),
                                   QStringLiteral("8.0.1"),
                                   QStringLiteral("debian-package"),
                                   QStringLiteral("bookworm-backports"),
                                   m_packageVersion,
                                   m_folder,
                                   m_folder + QStringLiteral("/bin/valkey-server"),
                                   sha256OfFile(m_folder + QStringLiteral("/bin/valkey-server")),
                                   QStringLiteral("16"),
                                   QStringLiteral("ok")};
        QCOMPARE(cells, expected);

        // A tampered library: the status says which file changed, fetch-servers fetches again.
        QFile library(m_folder + QStringLiteral("/lib/libjemalloc.so.2"));
        QVERIFY(library.open(QIODevice::Append));
        library.write("\n");
        library.close();
        const VersusCli::Result tampered = runInCache({QStringLiteral("servers"), QStringLiteral("--tsv")});
        const QString status = tampered.out.trimmed().section(QLatin1Char('\t'), 10);
        QVERIFY2(status.startsWith(QStringLiteral("file ") + m_folder + QStringLiteral("/lib/libjemalloc.so.2 changed since it was fetched")),
                 qPrintable(status));
    }

    void refusalsNameTheFolderAndWhatIsWrong_data()
    {
        QTest::addColumn<QStringList>("arguments");   // after "servers"; {folder} is the copy
        QTest::addColumn<QString>("expected");        // in stderr; {folder} is the copy
        QTest::addColumn<int>("exitCode");
        const QStringList record{QStringLiteral("--record"), QStringLiteral("{folder}")};
        const QStringList rest{QStringLiteral("--loader"), QStringLiteral("{folder}/lib/ld-linux-x86-64.so.2"), QStringLiteral("--suite"),
                               QStringLiteral("sid"), QStringLiteral("--package"), QStringLiteral("valkey-tools"),
                               QStringLiteral("--package-version"), QStringLiteral("1")};
        QTest::newRow("another product") << record + QStringList{QStringLiteral("--product"), QStringLiteral("redis")} + rest
                                         << QStringLiteral("versus servers --record: {folder}: no bin/redis-server") << 1;
        QTest::newRow("no suite") << record + QStringList{QStringLiteral("--product"), QStringLiteral("valkey")} + rest.mid(0, 2) + rest.mid(4)
                                  << QStringLiteral("versus servers --record: {folder}: no --suite given") << 1;
        QTest::newRow("loader outside") << record + QStringList{QStringLiteral("--product"), QStringLiteral("valkey"), QStringLiteral("--loader"),
                                                                 QStringLiteral("/bin/sh")} + rest.mid(2)
                                        << QStringLiteral("{folder}: --loader: /bin/sh lies outside {folder}") << 1;
        QTest::newRow("not a folder") << QStringList{QStringLiteral("--record"), QStringLiteral("{folder}/nothing"), QStringLiteral("--product"),
                                                     QStringLiteral("valkey")} + rest
                                      << QStringLiteral("{folder}/nothing: not a folder") << 1;
        QTest::newRow("field without --record") << QStringList{QStringLiteral("--suite"), QStringLiteral("sid")}
                                                << QStringLiteral("versus servers: --suite needs --record FOLDER") << 2;
    }

    void refusalsNameTheFolderAndWhatIsWrong()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        QFETCH(int, exitCode);
        for (QString &argument : arguments)
            argument.replace(QStringLiteral("{folder}"), m_folder);
        const VersusCli::Result r = runInCache(QStringList{QStringLiteral("servers")} + arguments);
        QVERIFY2(r.finished && r.exitCode == exitCode, r.describe());
        QVERIFY2(r.err.contains(expected.replace(QStringLiteral("{folder}"), m_folder)), r.describe());
        QVERIFY(!QFileInfo::exists(m_folder + QStringLiteral("/manifest.json")));
    }

    // A library that is a link out of the folder is refused by name, not hashed as the file it names.
    void linkOutOfTheFolderIsRefused()
    {
        const QString link = m_folder + QStringLiteral("/lib/libelsewhere.so.1");
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), link));
        const VersusCli::Result r = runInCache(recordArguments());
        QVERIFY2(r.finished && r.exitCode == 1, r.describe());
        QVERIFY2(r.err.contains(QStringLiteral("%1: %2 lies outside %1").arg(m_folder, link)), r.describe());
        QVERIFY(!QFileInfo::exists(m_folder + QStringLiteral("/manifest.json")));
    }
};

QTEST_GUILESS_MAIN(TestRecordPackage)
#include "tst_recordpackage.moc"
