#include "orphancleanup.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <csignal>

namespace {

constexpr qint64 kOwnerlessGraceSeconds = 60;

bool processExists(qint64 pid)
{
    // EPERM means it exists but belongs to someone else: not ours to judge, keep the dir.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

bool isStale(const QFileInfo &dir)
{
    QFile owner(dir.filePath() + QStringLiteral("/owner.pid"));
    if (owner.open(QIODevice::ReadOnly)) {
        bool ok = false;
        const qint64 pid = owner.readAll().trimmed().toLongLong(&ok);
        if (ok && pid > 0)
            return !processExists(pid);
    }
    return dir.lastModified().secsTo(QDateTime::currentDateTime()) > kOwnerlessGraceSeconds;
}

} // namespace

int cleanStaleServerDirs(const QString &tempRoot)
{
    int removed = 0;
    const QFileInfoList candidates = QDir(tempRoot).entryInfoList(
        {QStringLiteral("versus-server-*")}, QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QFileInfo &dir : candidates) {
        if (isStale(dir) && QDir(dir.filePath()).removeRecursively())
            ++removed;
    }
    return removed;
}
