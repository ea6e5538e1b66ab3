#include "sourcefile.h"

#include "boundedfile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {

const qint64 kChunk = 1 << 20;
const QString kWhat = QStringLiteral("a source file");

// Reads `path` to its end, chunk by chunk, into the hash and, when given, `sink`.
Outcome<QString> readSourceFile(const QString &path, QFile *sink, const StopRequested &stop)
{
    const Outcome<int> opened = openRegularFile(path, kWhat);
    if (!opened)
        return Error{opened.error()};
    QFile file;
    if (!file.open(opened.value(), QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
        return Error{QStringLiteral("%1: cannot read: %2").arg(path, file.errorString())};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (true) {
        if (stop && stop())
            return Error{QStringLiteral("cancelled")};
        const QByteArray chunk = file.read(kChunk);
        if (chunk.isEmpty()) {
            if (file.error() != QFileDevice::NoError)
                return Error{QStringLiteral("%1: cannot read: %2").arg(path, file.errorString())};
            break;
        }
        hash.addData(chunk);
        if (sink && sink->write(chunk) != chunk.size())
            return Error{QStringLiteral("cannot write %1: %2").arg(sink->fileName(), sink->errorString())};
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace

Outcome<QString> hashSourceFile(const QString &path, const StopRequested &stop)
{
    return readSourceFile(path, nullptr, stop);
}

Outcome<QString> copySourceFile(const QString &from, const QString &to, bool executable, const StopRequested &stop)
{
    QDir().mkpath(QFileInfo(to).path());
    QFile::remove(to);   // made new: a link left under its name is never written through
    QFile target(to);
    if (!target.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return Error{QStringLiteral("cannot write %1: %2").arg(to, target.errorString())};
    Outcome<QString> copied = readSourceFile(from, &target, stop);
    if (copied && !target.flush())
        copied = Error{QStringLiteral("cannot write %1: %2").arg(to, target.errorString())};
    target.close();
    const QFileDevice::Permissions mode = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                          | QFileDevice::ReadOther
                                          | (executable ? QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther
                                                        : QFileDevice::Permissions());
    if (!copied)
        QFile::remove(to);
    else if (!QFile::setPermissions(to, mode))
        return Error{QStringLiteral("cannot set the mode of %1").arg(to)};
    return copied;
}
