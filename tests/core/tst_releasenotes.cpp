// Release notes (releasenotes.h): the sections and bullets of 00-RELEASENOTES, read within
// bounds whatever the file holds.

#include "releasenotes.h"

#include <QTemporaryDir>
#include <QtTest>

class TestReleaseNotes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every bullet, joined over its indented lines, with the version of its section (an RC's
    // own); the title and section headings are no entries.
    void entriesWithTheirVersions()
    {
        const Outcome<ReleaseNotes> notes = readReleaseNotes(QStringLiteral(VERSUS_FIXTURES "/releasenotes/00-RELEASENOTES"),
                                                             QStringLiteral("fixture"));
        QVERIFY2(notes, qPrintable(notes.error()));
        QCOMPARE(notes->source, QStringLiteral("fixture"));
        QCOMPARE(notes->capped, QString());
        std::vector<std::pair<QString, QString>> read;
        for (const ReleaseNoteEntry &entry : notes->entries)
            read.emplace_back(entry.version, entry.text);
        const std::vector<std::pair<QString, QString>> expected = {
            {"9.1.0", "Faster `ZREMRANGEBYRANK` on long sorted sets by trimming the skiplist in one pass. (#2001)"},
            {"9.1.0", "Reply buffers are reused between pipelined commands. (#2002)"},
            {"9.1.0", "PFADD is faster on sparse HyperLogLogs. (#2003)"},
            {"9.0.0", "Hash field expiration: HSETEX, HGETEX and HEXPIRE. (#1800)"},
            {"9.0.0", "Embed hash fields in the dict entry to save memory. (#1801)"},
            {"9.0.0-rc1", "Pipelined commands are parsed in batches. (#1700)"},
            {"8.0.1", "Fix an issue where HSET could leak memory. (#1074)"},
        };
        QCOMPARE(read, expected);
    }

    void keepsOnlyLaterVersions()
    {
        ReleaseNotes notes = parseReleaseNotes("Valkey 8.0.1 - x\n* old\nValkey 8.1.0 GA - y\n* new\n", QStringLiteral("n"));
        keepReleaseNotesAfter(notes, QVersionNumber(8, 0, 1));
        QCOMPARE(int(notes.entries.size()), 1);
        QCOMPARE(notes.entries[0].text, QStringLiteral("new"));
    }

    // A huge file is read up to the cap and says so; its entries stop at the entry cap; a binary
    // file gives none; a FIFO or a missing file is an error naming it, never a hang.
    void hostileFilesStayBounded()
    {
        QTemporaryDir dir;
        const QString huge = dir.filePath(QStringLiteral("huge"));
        {
            QFile file(huge);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("Valkey 9.0.0 GA - x\n");
            const QByteArray bullet = "* " + QByteArray(100, 'a') + "\n";
            while (file.size() < releaseNotesByteCap + 1000)
                file.write(bullet);
        }
        const Outcome<ReleaseNotes> notes = readReleaseNotes(huge, QStringLiteral("huge"));
        QVERIFY(notes);
        QCOMPARE(int(notes->entries.size()), releaseNotesEntryCap);
        QVERIFY2(notes->capped.startsWith(QStringLiteral("the first %1 bytes of ").arg(releaseNotesByteCap)), qPrintable(notes->capped));

        const ReleaseNotes longLine = parseReleaseNotes("Valkey 9.0.0 - x\n* " + QByteArray(10 * 1000 * 1000, 'b'), QStringLiteral("l"));
        QCOMPARE(int(longLine.entries.size()), 1);
        QCOMPARE(int(longLine.entries[0].text.size()), releaseNoteTextCap);

        const ReleaseNotes binary = parseReleaseNotes(QByteArray("Valkey 9.0.0 - x\n* a\0b\n", 22), QStringLiteral("bin"));
        QVERIFY(binary.entries.empty());
        QVERIFY(binary.capped.contains(QStringLiteral("NUL")));

        const Outcome<ReleaseNotes> missing = readReleaseNotes(dir.filePath(QStringLiteral("none")), QStringLiteral("none"));
        QVERIFY(!missing);
        QVERIFY2(missing.error().contains(dir.filePath(QStringLiteral("none"))), qPrintable(missing.error()));
        const Outcome<ReleaseNotes> device = readReleaseNotes(QStringLiteral("/dev/zero"), QStringLiteral("zero"));
        QVERIFY(!device);
    }
};

QTEST_GUILESS_MAIN(TestReleaseNotes)
#include "tst_releasenotes.moc"
