#include "runningexecutable.h"

#include "verifiedrecords.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace {

bool isLoader(const QString &path)
{
    return QFileInfo(path).fileName().startsWith(QLatin1String("ld-"));
}

// The program an explicitly run loader mapped: /proc/<pid>/maps lines read
// "start-end perms offset dev inode path"; executable ones have an 'x' in perms.
QString loadedProgram(qint64 pid, const QString &loader)
{
    QFile maps(QStringLiteral("/proc/%1/maps").arg(pid));
    if (!maps.open(QIODevice::ReadOnly))
        return QString();
    static const QRegularExpression sharedLibrary(QStringLiteral("\\.so(\\.[0-9.]+)?$"));
    const QList<QByteArray> lines = maps.read(4 << 20).split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 6 || !fields[1].contains('x'))
            continue;
        const QString path = QString::fromLocal8Bit(line.mid(line.indexOf('/'))).trimmed();
        if (!path.startsWith(QLatin1Char('/')) || path == loader || sharedLibrary.match(path).hasMatch())
            continue;
        return path;
    }
    return QString();
}

} // namespace

RunningExecutable runningExecutableOf(qint64 pid)
{
    RunningExecutable running;
    const QString link = QStringLiteral("/proc/%1/exe").arg(pid);
    const QString exe = QFile::symLinkTarget(link);
    if (pid <= 0 || exe.isEmpty()) {
        running.problem = QStringLiteral("cannot read %1").arg(link);
        return running;
    }
    running.path = exe;
    // Through /proc, a binary replaced or deleted since it was started is still the one hashed.
    QString readFrom = link;
    if (isLoader(exe)) {
        const QString program = loadedProgram(pid, exe);
        if (!program.isEmpty()) {
            running.path = program;
            readFrom = program;
        }
    }
    running.sha256 = sha256OfFile(readFrom);
    if (running.sha256.isEmpty())
        running.problem = QStringLiteral("cannot read %1 to hash it").arg(readFrom);
    return running;
}

QString runningExecutableNote(const RunningExecutable &running, const QString &expectedSha256)
{
    if (!running.problem.isEmpty())
        return QStringLiteral("the bundle records no sha256 of the running server: %1").arg(running.problem);
    if (expectedSha256.isEmpty() || running.sha256 == expectedSha256)
        return QString();
    return QStringLiteral("the running server %1 (sha256 %2) is not the binary that was listed (sha256 %3); the bundle records "
                          "the running one")
        .arg(running.path, running.sha256.left(16), expectedSha256.left(16));
}
