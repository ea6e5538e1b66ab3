// `versus export` and `versus run` never replace a file unasked: files already in --export-dir
// stop them before anything is written (or run), with a message naming them and --force; with
// --force they are replaced. A symbolic link of such a name is never written through.

#include "fixturebundle.h"
#include "servertesthelpers.h"
#include "testfiles.h"
#include "versuscli.h"

#include <QtTest>

namespace {

using TestFiles::writeFile;
using TestFiles::readFile;
using TestFiles::everyEntry;

} // namespace

class TestExportForce : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusesToReplaceWithoutForce_data()
    {
        QTest::addColumn<QStringList>("existing");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("one chart") << QStringList{QStringLiteral("memory-per-attribute.png")} << QStringList()
                                   << QStringLiteral("versus export: --export-dir: %1/memory-per-attribute.png already exists; "
                                                     "nothing was written (pass --force to replace it)\n");
        QTest::newRow("a chart and the csv")
            << QStringList{QStringLiteral("throughput.svg"), QStringLiteral("results.csv")}
            << QStringList{QStringLiteral("--format"), QStringLiteral("png,svg")}
            << QStringLiteral("versus export: --export-dir: %1/throughput.svg, %1/results.csv already exist; nothing was "
                              "written (pass --force to replace them)\n");
    }
    void refusesToReplaceWithoutForce()
    {
        QFETCH(QStringList, existing);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        VersusCli cli;
        const QString dir = cli.path(QStringLiteral("charts"));
        std::map<QString, QByteArray> before;
        for (const QString &name : existing) {
            before[name] = QByteArray("an earlier ") + name.toUtf8() + QByteArray("\n").repeated(50);
            QVERIFY(writeFile(dir + QLatin1Char('/') + name, before[name]));
        }
        const QStringList folderBefore = everyEntry(dir);
        const VersusCli::Result refused =
            cli.run(QStringList{QStringLiteral("export"), QString::fromLatin1(kHashTtlFixtureBundle), QStringLiteral("--export-dir"), dir} + extra, 60000);
        QVERIFY2(refused.finished && !refused.crashed && refused.exitCode == 2, refused.describe());
        QCOMPARE(refused.err, message.arg(dir));
        QCOMPARE(refused.out, QString());
        // Nothing written: the files byte for byte, no other file beside them.
        QCOMPARE(everyEntry(dir), folderBefore);
        for (const auto &[name, bytes] : before)
            QCOMPARE(readFile(dir + QLatin1Char('/') + name), bytes);

        const VersusCli::Result forced = cli.run(QStringList{QStringLiteral("export"), QString::fromLatin1(kHashTtlFixtureBundle),
                                                             QStringLiteral("--export-dir"), dir, QStringLiteral("--force")} + extra,
                                                 60000);
        QVERIFY2(forced.finished && forced.exitCode == 0, forced.describe());
        for (const auto &[name, bytes] : before) {
            const QByteArray now = readFile(dir + QLatin1Char('/') + name);
            QVERIFY2(now != bytes && now.size() > 100, qPrintable(name));
        }
        QVERIFY(everyEntry(dir).contains(QStringLiteral("results.json")));
    }

    // Files the export does not write are no reason to stop: only its own names count.
    void otherFilesDoNotStopIt()
    {
        VersusCli cli;
        const QString dir = cli.path(QStringLiteral("charts"));
        QVERIFY(writeFile(dir + QStringLiteral("/notes.txt"), "mine\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/memory-per-attribute.svg"), "an earlier svg\n"));
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QString::fromLatin1(kHashTtlFixtureBundle), QStringLiteral("--export-dir"),
                                             dir, QStringLiteral("--format"), QStringLiteral("png")}, 60000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QCOMPARE(readFile(dir + QStringLiteral("/notes.txt")), QByteArray("mine\n"));
        QCOMPARE(readFile(dir + QStringLiteral("/memory-per-attribute.svg")), QByteArray("an earlier svg\n"));
        QVERIFY(QFileInfo::exists(dir + QStringLiteral("/memory-per-attribute.png")));
    }

    // One rule for both commands: a hand-edited report.md stops the run before a server starts.
    void runRefusesToReplaceWithoutForce()
    {
        VERSUS_REQUIRE_SERVER(server, "valkey-9.1.");
        VersusCli cli;
        const QString dir = cli.path(QStringLiteral("charts"));
        const QByteArray edited("# My write-up\n\nHand-edited after the last run.\n");
        QVERIFY(writeFile(dir + QStringLiteral("/report.md"), edited));
        const QStringList run{QStringLiteral("run"), QStringLiteral("--servers"), server.label, QStringLiteral("--workload"),
                              QStringLiteral("hash-ttl"), QStringLiteral("--set"), QStringLiteral("keys=200"),
                              QStringLiteral("--export-dir"), dir, QStringLiteral("--report"), QStringLiteral("--format"),
                              QStringLiteral("png")};
        const VersusCli::Result refused = cli.run(run, 60000);
        QVERIFY2(refused.finished && !refused.crashed && refused.exitCode == 2, refused.describe());
        QCOMPARE(refused.err, QStringLiteral("versus run: --export-dir: %1/report.md already exists; nothing was run (pass "
                                             "--force to replace it)\n").arg(dir));
        QCOMPARE(everyEntry(dir), QStringList{QStringLiteral("report.md")});
        QCOMPARE(readFile(dir + QStringLiteral("/report.md")), edited);

        const VersusCli::Result forced = cli.run(run + QStringList{QStringLiteral("--force")}, 180000);
        QVERIFY2(forced.finished && forced.exitCode == 0, forced.describe());
        QVERIFY(readFile(dir + QStringLiteral("/report.md")).startsWith("# "));
        QVERIFY(readFile(dir + QStringLiteral("/report.md")) != edited);
    }

    // A name the export writes that is a symbolic link out of the folder: refused even with
    // --force, before anything is written; the link and the file it names are left alone.
    void symbolicLinkIsNeverWrittenThrough()
    {
        VersusCli cli;
        const QString dir = cli.path(QStringLiteral("charts"));
        const QString outside = cli.path(QStringLiteral("elsewhere/notes.csv"));
        QVERIFY(writeFile(outside, "the user's own notes\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/memory-per-attribute.png"), "an earlier chart\n"));
        QVERIFY(QFile::link(outside, dir + QStringLiteral("/results.csv")));
        const QStringList folderBefore = everyEntry(dir);
        const QStringList commands{QStringLiteral("export"), QStringLiteral("run")};
        for (const QString &command : commands) {
            QStringList arguments{command};
            if (command == QLatin1String("export"))
                arguments << QString::fromLatin1(kHashTtlFixtureBundle);
            arguments << QStringLiteral("--export-dir") << dir << QStringLiteral("--force");
            const VersusCli::Result r = cli.run(arguments, 60000);
            QVERIFY2(r.finished && !r.crashed && r.exitCode == 2, r.describe());
            QCOMPARE(r.err, QStringLiteral("versus %1: --export-dir: %2/results.csv: is a symbolic link (to %3); Versus replaces "
                                           "only regular files there, and leaves the link and what it points to alone\n")
                                .arg(command, dir, outside));
            QCOMPARE(readFile(outside), QByteArray("the user's own notes\n"));
            QCOMPARE(readFile(dir + QStringLiteral("/memory-per-attribute.png")), QByteArray("an earlier chart\n"));
            QCOMPARE(everyEntry(dir), folderBefore);
        }
    }

    void helpNamesForce()
    {
        VersusCli cli;
        const VersusCli::Result r = cli.run({QStringLiteral("export"), QStringLiteral("--help")}, 30000);
        QVERIFY2(r.finished && r.exitCode == 0, r.describe());
        QVERIFY2(r.out.contains(QLatin1String("--force")), r.describe());
        QVERIFY2(r.out.contains(QLatin1String("transparent-dark")), r.describe());
    }
};

QTEST_MAIN(TestExportForce)
#include "tst_exportforce.moc"
