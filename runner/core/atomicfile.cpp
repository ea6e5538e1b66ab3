#include "atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const char tempMarker[] = ".versus-tmp.";

QString reasonOf(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

QString randomSuffix()
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    QString suffix;
    for (int i = 0; i < 6; ++i)
        suffix += QLatin1Char(alphabet[QRandomGenerator::system()->bounded(int(sizeof(alphabet) - 1))]);
    return suffix;
}

bool olderThan(const timespec &a, const timespec &b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

bool sameInode(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int lockExclusively(int fd, bool wait)
{
    int result;
    do {
        result = ::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
    } while (result != 0 && errno == EINTR);
    return result;
}

// Opens a character device or a FIFO for writing without replacing it. A FIFO without a reader
// would block open() forever: opened non-blocking, it fails with ENXIO instead.
int openDirect(const QByteArray &native, bool fifo, int &error)
{
    const int fd = ::open(native.constData(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (fifo ? O_NONBLOCK : 0));
    error = fd < 0 ? errno : 0;
    if (fd >= 0 && fifo) {
        const int flags = ::fcntl(fd, F_GETFL);
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    }
    return fd;
}

} // namespace

bool isAtomicTempName(const QString &fileName)
{
    static const QRegularExpression pattern(QStringLiteral("^.+\\.versus-tmp\\.[A-Za-z0-9]{6}$"));
    return pattern.match(fileName).hasMatch();
}

int removeStaleTempFiles(const QString &target)
{
    timespec started {};
    ::clock_gettime(CLOCK_REALTIME, &started);
    const QFileInfo info(target);
    const QDir folder = info.absoluteDir();
    const QString prefix = info.fileName() + QLatin1String(tempMarker);
    int removed = 0;
    // No name filter: a file name holding '[' or '*' would make the wildcard another pattern,
    // or none. startsWith() below picks the names.
    const QStringList names = folder.entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        if (!name.startsWith(prefix) || !isAtomicTempName(name))
            continue;
        const QByteArray native = QFile::encodeName(folder.filePath(name));
        struct stat seen {};
        if (::lstat(native.constData(), &seen) != 0 || !S_ISREG(seen.st_mode) || seen.st_uid != ::geteuid()
            || !olderThan(seen.st_mtim, started))
            continue;
        const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat opened {};
        struct stat now {};
        // Locked: a live writer holds it. Unlocked but renamed or replaced meanwhile: not ours to judge.
        if (lockExclusively(fd, false) == 0 && ::fstat(fd, &opened) == 0 && ::lstat(native.constData(), &now) == 0
            && sameInode(opened, now) && ::unlink(native.constData()) == 0)
            ++removed;
        ::close(fd);
    }
    return removed;
}

AtomicFileWriter::~AtomicFileWriter()
{
    abandon();
}

Error AtomicFileWriter::failure(const QString &reason)
{
    abandon();
    return Error{QStringLiteral("%1: cannot write: %2").arg(m_path, reason)};
}

Status AtomicFileWriter::open(const QString &path, PathOrigin origin)
{
    abandon();
    m_path = path;
    m_target = path;
    m_direct = false;
    const QByteArray native = QFile::encodeName(path);
    struct stat existing {};
    bool exists = false;
    if (origin == PathOrigin::NamedByVersus) {
        if (Status replaceable = checkReplaceableByVersus(path); !replaceable) {
            abandon();
            return replaceable;
        }
    }
    if (::stat(native.constData(), &existing) == 0) {
        exists = true;
        if (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode)) {
            int error = 0;
            m_fd = openDirect(native, S_ISFIFO(existing.st_mode), error);
            if (m_fd < 0)
                return failure(error == ENXIO ? QStringLiteral("no process is reading this FIFO") : reasonOf(error));
            m_direct = true;
            return Status::success();
        }
        if (S_ISDIR(existing.st_mode))
            return failure(QStringLiteral("it is a folder"));
        if (!S_ISREG(existing.st_mode))
            return failure(QStringLiteral("not a regular file, character device or FIFO; it is left alone"));
        m_target = QFileInfo(path).canonicalFilePath();
        m_mode = existing.st_mode & 07777;
    } else if (errno != ENOENT) {
        return failure(reasonOf(errno));
    }
    const QFileInfo target(m_target);
    const QString dir = target.absolutePath();
    removeStaleTempFiles(m_target);
    for (int attempt = 0; attempt < 100 && m_fd < 0; ++attempt) {
        const QString temp = QDir(dir).filePath(target.fileName() + QLatin1String(tempMarker) + randomSuffix());
        const QByteArray tempNative = QFile::encodeName(temp);
        const int fd = ::open(tempNative.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == EEXIST)
                continue;
            return failure(reasonOf(errno));
        }
        // Locked before anything is written. A cleaner that took the lock first may have
        // removed the name: then this inode is no longer at `temp`, and another name is tried.
        struct stat opened {};
        struct stat named {};
        if (lockExclusively(fd, true) != 0 || ::fstat(fd, &opened) != 0 || ::stat(tempNative.constData(), &named) != 0
            || !sameInode(opened, named)) {
            ::close(fd);
            continue;
        }
        m_fd = fd;
        m_tempPath = temp;
    }
    if (m_fd < 0)
        return failure(QStringLiteral("cannot create a temporary file in %1").arg(dir));
    if (exists && ::fchmod(m_fd, m_mode) != 0)
        return failure(reasonOf(errno));
    return Status::success();
}

Status AtomicFileWriter::write(const char *data, size_t size)
{
    if (m_fd < 0)
        return Error{QStringLiteral("%1: cannot write: not open").arg(m_path)};
    while (size > 0) {
        const ssize_t written = ::write(m_fd, data, size);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return failure(reasonOf(errno));
        }
        data += written;
        size -= size_t(written);
    }
    return Status::success();
}

Status AtomicFileWriter::commit()
{
    if (m_fd < 0)
        return Error{QStringLiteral("%1: cannot write: not open").arg(m_path)};
    if (m_direct) {
        const int fd = m_fd;
        m_fd = -1;
        if (::close(fd) != 0)
            return Error{QStringLiteral("%1: cannot write: %2").arg(m_path, reasonOf(errno))};
        return Status::success();
    }
    // A full disk may only show when the data reaches it.
    if (::fdatasync(m_fd) != 0 && errno != EINVAL)
        return failure(reasonOf(errno));
    if (::rename(QFile::encodeName(m_tempPath).constData(), QFile::encodeName(m_target).constData()) != 0)
        return failure(reasonOf(errno));
    m_tempPath.clear();
    const int fd = m_fd;
    m_fd = -1;
    ::close(fd);   // releases the lock; the data is already in place
    return Status::success();
}

void AtomicFileWriter::abandon()
{
    if (!m_tempPath.isEmpty()) {
        ::unlink(QFile::encodeName(m_tempPath).constData());
        m_tempPath.clear();
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

Status checkReplaceableByVersus(const QString &path)
{
    struct stat existing {};
    if (::lstat(QFile::encodeName(path).constData(), &existing) != 0 || S_ISREG(existing.st_mode))
        return Status::success();
    if (S_ISLNK(existing.st_mode))
        return Error{QStringLiteral("%1: is a symbolic link (to %2); Versus replaces only regular files there, and leaves the "
                                    "link and what it points to alone")
                         .arg(path, QFile::symLinkTarget(path))};
    if (S_ISDIR(existing.st_mode))
        return Error{QStringLiteral("%1: is a folder; Versus replaces only regular files there").arg(path)};
    return Error{QStringLiteral("%1: is not a regular file; Versus replaces only regular files there").arg(path)};
}

Status writeFileAtomically(const QString &path, const QByteArray &content, PathOrigin origin)
{
    AtomicFileWriter writer;
    if (Status opened = writer.open(path, origin); !opened)
        return opened;
    if (Status written = writer.write(content); !written)
        return written;
    return writer.commit();
}
