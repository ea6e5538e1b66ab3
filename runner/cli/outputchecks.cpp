#include "outputchecks.h"

#include "atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString reasonOf(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Whether a file can be created in `dir`, asked the only reliable way (root, read-only mounts
// and /sys all answer access() wrongly): an unnamed O_TMPFILE that vanishes when closed.
// Filesystems without O_TMPFILE fall back to access().
Status canCreateIn(const QString &dir)
{
    const QByteArray native = QFile::encodeName(dir);
    const int fd = ::open(native.constData(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return Status::success();
    }
    const int error = errno;
    if (error != EOPNOTSUPP && error != EISDIR && error != EINVAL)
        return Error{reasonOf(error)};
    // No O_TMPFILE there: a named file, removed at once. access() is no answer (root passes it
    // for /proc, where nothing can be created).
    QByteArray name = native + "/.versus-check-XXXXXX";
    const int named = ::mkstemp(name.data());
    if (named < 0)
        return Error{reasonOf(errno)};
    ::close(named);
    ::unlink(name.constData());
    return Status::success();
}

Status notAnInput(const QString &option, const QString &path, const std::vector<NamedInput> &inputs)
{
    for (const NamedInput &input : inputs) {
        if (!input.path.isEmpty() && sameFile(path, input.path))
            return Error{QStringLiteral("%1: %2 is the file given to %3 (%4); writing there would destroy it")
                             .arg(option, path, input.option, input.path)};
    }
    return Status::success();
}

} // namespace

bool sameFile(const QString &a, const QString &b)
{
    struct stat first {};
    struct stat second {};
    return ::stat(QFile::encodeName(a).constData(), &first) == 0 && ::stat(QFile::encodeName(b).constData(), &second) == 0
        && first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

Status checkOutputFile(const QString &option, const QString &path, const std::vector<NamedInput> &inputs)
{
    if (path.isEmpty())
        return Status::success();
    struct stat existing {};
    if (::stat(QFile::encodeName(path).constData(), &existing) == 0) {
        if (S_ISDIR(existing.st_mode))
            return Error{QStringLiteral("%1: %2 is a folder; give a file name").arg(option, path)};
        if (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode))
            return Status::success();   // written straight, never replaced
        if (!S_ISREG(existing.st_mode))
            return Error{QStringLiteral("%1: %2 is not a regular file, character device or FIFO").arg(option, path)};
        if (Status input = notAnInput(option, path, inputs); !input)
            return input;
    }
    const QString folder = QFileInfo(path).absolutePath();
    const QFileInfo folderInfo(folder);
    if (!folderInfo.exists())
        return Error{QStringLiteral("%1: the folder %2 does not exist").arg(option, folder)};
    if (!folderInfo.isDir())
        return Error{QStringLiteral("%1: %2 is not a folder").arg(option, folder)};
    if (Status writable = canCreateIn(folder); !writable)
        return Error{QStringLiteral("%1: cannot write into the folder %2: %3").arg(option, folder, writable.error())};
    return Status::success();
}

Status checkOutputFolder(const QString &option, const QString &dir, const QStringList &names,
                         const std::vector<NamedInput> &inputs, ExistingFiles existing, const QString &nothing)
{
    if (dir.isEmpty())
        return Status::success();
    const QFileInfo info(dir);
    if (info.exists()) {
        if (!info.isDir())
            return Error{QStringLiteral("%1: %2 is not a folder").arg(option, dir)};
        if (Status writable = canCreateIn(dir); !writable)
            return Error{QStringLiteral("%1: cannot write into the folder %2: %3").arg(option, dir, writable.error())};
        QStringList found;
        for (const QString &name : names) {
            const QString path = QDir(dir).filePath(name);
            if (Status input = notAnInput(option, path, inputs); !input)
                return input;
            if (Status replaceable = checkReplaceableByVersus(path); !replaceable)
                return Error{QStringLiteral("%1: %2").arg(option, replaceable.error())};
            if (QFileInfo::exists(path))
                found << path;
        }
        if (existing == ExistingFiles::Keep && !found.isEmpty())
            return Error{QStringLiteral("%1: %2 already exist%3; %4 (pass --force to replace %5)")
                             .arg(option, found.join(QStringLiteral(", ")), found.size() == 1 ? QStringLiteral("s") : QString(),
                                  nothing, found.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"))};
        return Status::success();
    }
    // Created when the charts are written: created now, with a file in it, and removed again,
    // so a folder that cannot be made (under /proc, a read-only mount) stops the run before it
    // starts rather than after.
    QStringList created;
    QString missing = info.absoluteFilePath();
    while (!QFileInfo::exists(missing) && missing != QStringLiteral("/")) {
        created.prepend(missing);
        missing = QFileInfo(missing).absolutePath();
    }
    if (!QFileInfo(missing).isDir())
        return Error{QStringLiteral("%1: %2 cannot be created: %3 is not a folder").arg(option, dir, missing)};
    Status made = Status::success();
    QStringList createdHere;   // deepest first, to be removed
    for (const QString &folder : created) {
        if (::mkdir(QFile::encodeName(folder).constData(), 0755) != 0) {
            made = Error{QStringLiteral("%1: %2 cannot be created: %3: %4").arg(option, dir, folder, reasonOf(errno))};
            break;
        }
        createdHere.prepend(folder);
    }
    if (made && !created.isEmpty()) {
        if (Status writable = canCreateIn(created.last()); !writable)
            made = Error{QStringLiteral("%1: cannot write into %2: %3").arg(option, dir, writable.error())};
    }
    for (const QString &folder : createdHere)
        ::rmdir(QFile::encodeName(folder).constData());
    if (!made)
        return made;
    return Status::success();
}
