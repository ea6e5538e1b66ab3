// Writes that destroy nothing else: a regular file is replaced atomically with its permissions
// kept, a symlink stays a link, a character device or FIFO is written straight and stays what
// it was, anything else is refused; stale temporary files of killed writers are removed, and a
// file another writer holds (or another user owns, or one that only looks similar) is not.

#include "atomicfile.h"

#include <QtTest>
#include <QTemporaryDir>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

namespace {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writePlain(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

struct stat statOf(const QString &path)
{
    struct stat info {};
    ::lstat(QFile::encodeName(path).constData(), &info);
    return info;
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

// Reads a FIFO to its end on a thread of its own, as a consumer process would.
class FifoReader {
public:
    explicit FifoReader(const QString &path)
        : m_thread([this, native = QFile::encodeName(path)] {
              const int fd = ::open(native.constData(), O_RDONLY);   // counts as a reader while it waits
              char chunk[65536];
              ssize_t got = 0;
              while (fd >= 0 && (got = ::read(fd, chunk, sizeof chunk)) > 0)
                  m_bytes.append(chunk, int(got));
              if (fd >= 0)
                  ::close(fd);
          })
    {
        // The reader must have opened the FIFO before a writer tries it.
        QTest::qWait(100);
    }
    QByteArray finish()
    {
        m_thread.join();
        return m_bytes;
    }

private:
    QByteArray m_bytes;
    std::thread m_thread;
};

} // namespace

class AtomicFileTest : public QObject {
    Q_OBJECT

private slots:
    void replacesARegularFileKeepingItsMode()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.json"));
        QVERIFY(writePlain(path, "old"));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        const ino_t before = statOf(path).st_ino;
        const Status written = writeFileAtomically(path, "new content");
        QVERIFY2(written, qPrintable(written.error()));
        QCOMPARE(readFile(path), QByteArray("new content"));
        QCOMPARE(int(statOf(path).st_mode & 07777), 0640);
        QVERIFY(statOf(path).st_ino != before);   // replaced by rename, not rewritten in place
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("b.json")});
    }

    void aSymlinkStaysALink()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("real.json"));
        const QString link = dir.filePath(QStringLiteral("link.json"));
        QVERIFY(writePlain(target, "old"));
        QVERIFY(QFile::link(target, link));
        QVERIFY(writeFileAtomically(link, "through the link"));
        QVERIFY(S_ISLNK(statOf(link).st_mode));
        QCOMPARE(readFile(target), QByteArray("through the link"));
    }

    void aFifoIsWrittenStraightAndStaysAFifo()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        FifoReader reader(fifo);
        const QByteArray content = QByteArray("0123456789").repeated(100000);   // more than a pipe holds
        const Status written = writeFileAtomically(fifo, content);
        QVERIFY2(written, qPrintable(written.error()));
        QCOMPARE(reader.finish(), content);
        QVERIFY(S_ISFIFO(statOf(fifo).st_mode));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("pipe")});
    }

    void aFifoWithoutReaderIsAnErrorNotAWait()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QElapsedTimer timer;
        timer.start();
        const Status written = writeFileAtomically(fifo, "nobody reads this");
        QVERIFY(!written);
        QCOMPARE(written.error(), fifo + QStringLiteral(": cannot write: no process is reading this FIFO"));
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(S_ISFIFO(statOf(fifo).st_mode));
    }

    // /dev/full answers every write with ENOSPC; a node of the same device made here (root) or
    // /dev/full itself (not root, who cannot replace it anyway) must stay a device.
    void aFullCharacterDeviceIsAnErrorAndStaysADevice()
    {
        QTemporaryDir dir;
        QString device = QStringLiteral("/dev/full");
        if (::geteuid() == 0) {
            device = dir.filePath(QStringLiteral("full"));
            QVERIFY(::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 7)) == 0);
        }
        const struct stat before = statOf(device);
        QVERIFY(S_ISCHR(before.st_mode));
        const Status written = writeFileAtomically(device, "bytes");
        QVERIFY(!written);
        QCOMPARE(written.error(), device + QStringLiteral(": cannot write: No space left on device"));
        const struct stat after = statOf(device);
        QVERIFY(S_ISCHR(after.st_mode));
        QCOMPARE(after.st_rdev, before.st_rdev);
        QCOMPARE(after.st_ino, before.st_ino);
    }

    void devNullTakesTheBytes()
    {
        const Status written = writeFileAtomically(QStringLiteral("/dev/null"), "discarded");
        QVERIFY2(written, qPrintable(written.error()));
        QVERIFY(S_ISCHR(statOf(QStringLiteral("/dev/null")).st_mode));
    }

    void aFolderIsRefused()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("sub"));
        QVERIFY(QDir().mkpath(folder));
        const Status written = writeFileAtomically(folder, "x");
        QCOMPARE(written.error(), folder + QStringLiteral(": cannot write: it is a folder"));
        QVERIFY(QFileInfo(folder).isDir());
    }

    // A writer killed mid-write leaves its temporary file unlocked: the next write to that path
    // removes it. A file that is locked (a live writer), newer than the write, owned by another
    // user, not a regular file, the temporary file of another path, or merely similar in name stays.
    void staleTempFilesAreRemovedOthersStay()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("b.json"));
        const QString stale = dir.filePath(QStringLiteral("b.json.versus-tmp.Ab3dE9"));
        const QString live = dir.filePath(QStringLiteral("b.json.versus-tmp.Zz0000"));
        const QString newer = dir.filePath(QStringLiteral("b.json.versus-tmp.Nw1234"));
        const QString otherPath = dir.filePath(QStringLiteral("c.json.versus-tmp.Cc1111"));
        const QString similar = dir.filePath(QStringLiteral("b.json.backup"));
        const QString tooShort = dir.filePath(QStringLiteral("b.json.versus-tmp.abc"));
        const QString folderLike = dir.filePath(QStringLiteral("b.json.versus-tmp.Folder"));
        for (const QString &path : {stale, live, newer, otherPath, similar, tooShort})
            QVERIFY(writePlain(path, "partial"));
        QVERIFY(QDir().mkpath(folderLike));
        QString foreign;
        if (::geteuid() == 0) {
            foreign = dir.filePath(QStringLiteral("b.json.versus-tmp.Other1"));
            QVERIFY(writePlain(foreign, "another user's"));
            QVERIFY(::chown(QFile::encodeName(foreign).constData(), 65534, 65534) == 0);
        }
        // Written a minute ago, except `newer`, written an hour from now (as by a clock ahead).
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        for (const QString &path : {stale, live, otherPath, similar, tooShort, foreign}) {
            const timeval times[2] = {{time_t(now - 60), 0}, {time_t(now - 60), 0}};
            QVERIFY(path.isEmpty() || ::utimes(QFile::encodeName(path).constData(), times) == 0);
        }
        const timeval future[2] = {{time_t(now + 3600), 0}, {time_t(now + 3600), 0}};
        QVERIFY(::utimes(QFile::encodeName(newer).constData(), future) == 0);
        // A second open file description, as another process has: its lock conflicts with ours.
        const int liveFd = ::open(QFile::encodeName(live).constData(), O_RDONLY);
        QVERIFY(liveFd >= 0);
        QVERIFY(::flock(liveFd, LOCK_EX | LOCK_NB) == 0);

        QVERIFY(writeFileAtomically(target, "{}"));
        QVERIFY(!QFileInfo::exists(stale));
        for (const QString &path : {live, newer, otherPath, similar, tooShort})
            QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QVERIFY(QFileInfo(folderLike).isDir());
        if (!foreign.isEmpty())
            QVERIFY(QFileInfo::exists(foreign));
        ::close(liveFd);
        // Unlocked now: the writer is gone.
        QCOMPARE(removeStaleTempFiles(target), 1);
        QVERIFY(!QFileInfo::exists(live));
        QVERIFY(QFileInfo::exists(otherPath));
        QCOMPARE(readFile(target), QByteArray("{}"));
    }

    void anAbandonedWriteLeavesTheTargetAndNoTempFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.json"));
        QVERIFY(writePlain(path, "old"));
        {
            AtomicFileWriter writer;
            QVERIFY(writer.open(path));
            QVERIFY(writer.write("half of the new"));
            QCOMPARE(entries(dir.path()).size(), 2);   // the target and its locked temporary file
            QVERIFY(isAtomicTempName(entries(dir.path()).at(1)) || isAtomicTempName(entries(dir.path()).at(0)));
            QCOMPARE(removeStaleTempFiles(path), 0);   // held by this writer
        }
        QCOMPARE(readFile(path), QByteArray("old"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("b.json")});
    }
};

QTEST_GUILESS_MAIN(AtomicFileTest)
#include "tst_atomicfile.moc"
