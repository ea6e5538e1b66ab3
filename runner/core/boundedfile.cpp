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

Outcome<QByteArray> readBoundedFile(const QString &path, qint64 limit, const QString &what)
{
    if (path.startsWith(QLatin1Char(':'))) {
        QFile resource(path);
        if (!resource.open(QIODevice::ReadOnly))
            return Error{QStringLiteral("%1: cannot read: %2").arg(path, resource.errorString())};
        return resource.readAll();
    }
    // O_NONBLOCK: opening a FIFO no one writes returns at once instead of waiting for a writer.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return Error{QStringLiteral("%1: cannot read: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return Error{QStringLiteral("%1: not a regular file (%2); %3 is read only from a regular file")
                         .arg(path, kindOf(info.st_mode), what)};
    }
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
