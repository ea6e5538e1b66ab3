#include "boundedfile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a file");
}

QString sizeText(qint64 bytes)
{
    return bytes >= (1 << 20) ? QStringLiteral("%1 (%2 MiB)").arg(bytes).arg(bytes >> 20) : QString::number(bytes);
}

} // namespace

Outcome<int> openRegularFile(const QString &path, const QString &what)
{
    const QByteArray name = QFile::encodeName(path);
    const auto notRegular = [&](mode_t mode) {
        return Error{QStringLiteral("%1: not a regular file (%2); %3 is read only from a regular file").arg(path, kindOf(mode), what)};
    };
    // Judged before the open too: opening a device can do something by itself (rewind a tape).
    struct stat info {};
    if (::stat(name.constData(), &info) == 0 && !S_ISREG(info.st_mode))
        return notRegular(info.st_mode);
    // O_NONBLOCK: opening a FIFO no one writes returns at once instead of waiting for a writer.
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return Error{QStringLiteral("%1: cannot read: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    // Judged again on what was opened: the path may have been replaced in between.
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return notRegular(info.st_mode);
    }
    // Reads of a regular file never block anyway; a descriptor handed on is an ordinary one.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

Outcome<QByteArray> readBoundedFile(const QString &path, qint64 limit, const QString &what)
{
    if (path.startsWith(QLatin1Char(':'))) {
        QFile resource(path);
        if (!resource.open(QIODevice::ReadOnly))
            return Error{QStringLiteral("%1: cannot read: %2").arg(path, resource.errorString())};
        return resource.readAll();
    }
    const Outcome<int> opened = openRegularFile(path, what);
    if (!opened)
        return Error{opened.error()};
    const int fd = opened.value();
    struct stat info {};
    ::fstat(fd, &info);
    if (info.st_size > limit) {
        ::close(fd);
        return Error{QStringLiteral("%1: %2 bytes, more than the %3 %4 may have").arg(path, QString::number(info.st_size), sizeText(limit), what)};
    }
    QByteArray bytes;
    bytes.resize(qsizetype(info.st_size));
    qint64 done = 0;
    // Read to the size fstat gave, and one byte more: a file that grows meanwhile is refused too.
    while (true) {
        if (done == bytes.size())
            bytes.resize(std::min<qint64>(limit + 1, bytes.size() + 65536));
        const ssize_t got = ::read(fd, bytes.data() + done, size_t(bytes.size() - done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            return Error{QStringLiteral("%1: cannot read: %2").arg(path, QString::fromLocal8Bit(std::strerror(error)))};
        }
        if (got == 0)
            break;
        done += got;
        if (done > limit) {
            ::close(fd);
            return Error{QStringLiteral("%1: more than the %2 bytes %3 may have").arg(path, sizeText(limit), what)};
        }
    }
    ::close(fd);
    bytes.truncate(qsizetype(done));
    return bytes;
}
