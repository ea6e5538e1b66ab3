#include "filetrust.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString userName(uid_t uid)
{
    // getpwuid_r: the catalog may be read on a worker thread.
    char buffer[1024];
    passwd entry{};
    passwd *found = nullptr;
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        return QStringLiteral("%1 (uid %2)").arg(QString::fromLocal8Bit(found->pw_name)).arg(uid);
    return QStringLiteral("uid %1").arg(uid);
}

QString modeText(mode_t mode)
{
    return QStringLiteral("0%1").arg(mode & 07777, 3, 8, QLatin1Char('0'));
}

// Why `status` (of `path`) is not trusted; empty when it is. `sticky` folders may be
// world-writable.
QString judged(const QString &path, const struct stat &status, bool allowSticky)
{
    const uid_t me = ::geteuid();
    if (status.st_uid != me && status.st_uid != 0)
        return QStringLiteral("%1 is owned by %2, not by you (%3) or root")
            .arg(path, userName(status.st_uid), userName(me));
    const bool sticky = S_ISDIR(status.st_mode) && (status.st_mode & S_ISVTX);
    if (allowSticky && sticky)
        return QString();
    if (status.st_mode & S_IWGRP)
        return QStringLiteral("%1 is writable by its group (mode %2; chmod g-w it)").arg(path, modeText(status.st_mode));
    if (status.st_mode & S_IWOTH)
        return QStringLiteral("%1 is writable by every user (mode %2; chmod o-w it)").arg(path, modeText(status.st_mode));
    return QString();
}

QString statFailed(const QString &path)
{
    return QStringLiteral("%1: cannot read its owner and mode: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
}

} // namespace

QString untrustedFileReason(const QString &path)
{
    struct stat status{};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return statFailed(path);
    return judged(path, status, false);
}

QString untrustedFolderReason(const QString &folder)
{
    QString current = QFileInfo(folder).absoluteFilePath();
    bool first = true;
    while (true) {
        struct stat status{};
        if (::stat(QFile::encodeName(current).constData(), &status) != 0)
            return statFailed(current);
        if (!S_ISDIR(status.st_mode))
            return QStringLiteral("%1 is not a folder").arg(current);
        // The folder itself must not be writable by others even when sticky: they could add
        // entries that look like ours.
        if (const QString reason = judged(current, status, !first); !reason.isEmpty())
            return reason;
        first = false;
        const QString parent = QFileInfo(current).path();
        if (parent == current || current == QLatin1String("/"))
            return QString();
        current = parent;
    }
}

QString outsideFolderReason(const QString &path, const QString &folder)
{
    const QString target = QFileInfo(path).canonicalFilePath();
    const QString root = QFileInfo(folder).canonicalFilePath();
    if (target.isEmpty())
        return QStringLiteral("%1 does not exist").arg(path);
    if (root.isEmpty() || !target.startsWith(root + QLatin1Char('/')))
        return QStringLiteral("%1 lies outside %2 (it is %3)").arg(path, folder, target);
    return QString();
}
