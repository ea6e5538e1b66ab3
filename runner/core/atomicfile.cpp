#include "atomicfile.h"

#include <QSaveFile>

Status writeFileAtomically(const QString &path, const QByteArray &content)
{
    QSaveFile file(path);
    // Unbuffered: Qt 6.4's QSaveFile::commit() renames even when flushing its buffer failed
    // (seen with EFBIG), so write errors must surface here, before commit.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return Error{QStringLiteral("%1: cannot write: %2").arg(path, file.errorString())};
    if (file.write(content) != content.size() || file.error() != QFileDevice::NoError) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return Error{QStringLiteral("%1: cannot write: %2").arg(path, reason)};
    }
    if (!file.commit())
        return Error{QStringLiteral("%1: cannot write: %2").arg(path, file.errorString())};
    return Status::success();
}
