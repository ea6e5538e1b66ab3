#include "orphancleanup.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr qint64 kOwnerlessGraceSeconds = 60;
constexpr qint64 kLargestOwnerFile = 32;

bool processGone(qint64 pid)
{
    // EPERM means it exists but belongs to someone else: not ours to judge, keep the dir.
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

bool ownedPrivately(const struct stat &info)
{
    return info.st_uid == ::geteuid() && (info.st_mode & 0077) == 0;
}

// The pid in owner.pid, a regular file of this user: digits and a newline, nothing else.
qint64 ownerPid(const QString &dir)
{
    const QByteArray path = QFile::encodeName(dir + QStringLiteral("/owner.pid"));
    const int fd = ::open(path.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat info {};
    char text[kLargestOwnerFile + 1] = {};
    ssize_t length = -1;
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == ::geteuid() && info.st_size <= kLargestOwnerFile)
        length = ::read(fd, text, kLargestOwnerFile);
    ::close(fd);
    static const QRegularExpression digits(QStringLiteral("^[1-9][0-9]{0,9}\n?$"));
    const QString content = QString::fromLatin1(text, length > 0 ? int(length) : 0);
    return digits.match(content).hasMatch() ? content.trimmed().toLongLong() : -1;
}

// Every entry a regular file of this user with a name `known` takes; counts them.
bool holdsOnlyKnownFiles(const QString &dir, bool (*known)(const QString &), int &entries)
{
    entries = 0;
    DIR *listing = ::opendir(QFile::encodeName(dir).constData());
    if (!listing)
        return false;
    bool ok = true;
    while (const dirent *entry = ::readdir(listing)) {
        const QString name = QFile::decodeName(entry->d_name);
        if (name == QLatin1String(".") || name == QLatin1String(".."))
            continue;
        ++entries;
        struct stat info {};
        if (!known(name) || ::fstatat(::dirfd(listing), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0
            || !S_ISREG(info.st_mode) || info.st_uid != ::geteuid()) {
            ok = false;
            break;
        }
    }
    ::closedir(listing);
    return ok;
}

bool provablyStale(const QString &dir, bool (*known)(const QString &))
{
    struct stat info {};
    if (::lstat(QFile::encodeName(dir).constData(), &info) != 0 || !S_ISDIR(info.st_mode) || !ownedPrivately(info))
        return false;
    int entries = 0;
    if (!holdsOnlyKnownFiles(dir, known, entries))
        return false;
    if (entries == 0)
        return QDateTime::fromSecsSinceEpoch(info.st_mtim.tv_sec).secsTo(QDateTime::currentDateTime()) > kOwnerlessGraceSeconds;
    const qint64 pid = ownerPid(dir);
    return pid > 0 && processGone(pid);
}

} // namespace

bool isServerDirEntryName(const QString &name)
{
    static const QRegularExpression known(QStringLiteral(
        "^(owner\\.pid|versus\\.conf|server\\.log|console\\.log|dump\\.rdb|temp-[0-9]+\\.rdb|nodes\\.conf(\\.tmp-[0-9A-Za-z-]+)?)$"));
    return known.match(name).hasMatch();
}

bool isProfileDirEntryName(const QString &name)
{
    static const QRegularExpression known(QStringLiteral("^(owner\\.pid|perf\\.data(\\.old)?)$"));
    return known.match(name).hasMatch();
}

Status writeOwnerFile(const QString &dir)
{
    QFile owner(QDir(dir).filePath(QStringLiteral("owner.pid")));
    if (!owner.open(QIODevice::WriteOnly) || owner.write(QByteArray::number(QCoreApplication::applicationPid()) + '\n') < 0)
        return Error{QStringLiteral("cannot write %1: %2").arg(owner.fileName(), owner.errorString())};
    return {};
}

int cleanStaleServerDirs(const QString &tempRoot)
{
    int removed = 0;
    const struct {
        const char *pattern;
        bool (*known)(const QString &);
    } kinds[] = {{"versus-server-*", isServerDirEntryName}, {"versus-profile-*", isProfileDirEntryName}};
    for (const auto &kind : kinds) {
        const QStringList candidates = QDir(tempRoot).entryList({QLatin1String(kind.pattern)},
                                                                QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks | QDir::Hidden);
        for (const QString &name : candidates) {
            const QString dir = QDir(tempRoot).filePath(name);
            if (provablyStale(dir, kind.known) && QDir(dir).removeRecursively())
                ++removed;
        }
    }
    return removed;
}
