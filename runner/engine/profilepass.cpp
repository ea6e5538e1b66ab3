#include "profilepass.h"

#include "messagetext.h"
#include "orphancleanup.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace {

constexpr int kPerfStartMs = 10000;
constexpr int kPerfAttachMs = 300;
constexpr int kPerfWriteMs = 60000;
constexpr int kPerfScriptMs = 300000;

QString profileRefusal(const QString &why)
{
    return QStringLiteral("--profile: %1; the run goes on without a profile").arg(why);
}

// perf's last line of complaint, for a message: "Error: … perf_event_paranoid …".
QString perfSaid(QProcess &process)
{
    const QStringList lines = QString::fromLocal8Bit(process.readAllStandardError()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (line.contains(QLatin1String("rror")) || line.contains(QLatin1String("ermission")) || line.contains(QLatin1String("not found")))
            return quotedForMessage(line.trimmed());
    }
    return lines.isEmpty() ? QStringLiteral("nothing") : quotedForMessage(lines.last().trimmed());
}

// perf dies with the thread that started it: a killed Versus leaves no perf running.
void startPerfProcess(QProcess &process, const QString &program, const QStringList &arguments)
{
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    process.start(program, arguments);
}

} // namespace

PerfAccess perfAccess()
{
    PerfAccess access;
    access.program = QStandardPaths::findExecutable(QStringLiteral("perf"));
    if (access.program.isEmpty()) {
        access.refused = profileRefusal(QStringLiteral("perf is not installed (Debian package linux-perf)"));
        return access;
    }
    if (::geteuid() == 0)
        return access;
    QFile file(QStringLiteral("/proc/sys/kernel/perf_event_paranoid"));
    bool read = file.open(QIODevice::ReadOnly);
    const int paranoid = read ? QString::fromLatin1(file.readAll()).trimmed().toInt(&read) : 0;
    if (!read) {
        access.refused = profileRefusal(QStringLiteral("/proc/sys/kernel/perf_event_paranoid is unreadable"));
    } else if (paranoid >= 3) {
        access.refused = profileRefusal(QStringLiteral("perf_event_paranoid is %1, which lets only root profile "
                                                       "(sysctl kernel.perf_event_paranoid=2 allows a user's own processes)")
                                            .arg(paranoid));
    } else {
        // 2 lets a user sample its own processes in user space only: the kernel's share is left out.
        access.userOnly = paranoid == 2;
    }
    return access;
}

struct PerfRecording::Private {
    PerfAccess access;
    QTemporaryDir folder{QDir::tempPath() + QStringLiteral("/versus-profile-XXXXXX")};
    QProcess record;
    QString dataPath() const { return folder.filePath(QStringLiteral("perf.data")); }
};

PerfRecording::PerfRecording(PerfAccess access) : d(std::make_unique<Private>())
{
    d->access = std::move(access);
}

PerfRecording::~PerfRecording()
{
    if (d->record.state() != QProcess::NotRunning) {
        d->record.kill();
        d->record.waitForFinished(kPerfStartMs);
    }
}

Status PerfRecording::start(const std::vector<qint64> &pids)
{
    if (!d->folder.isValid())
        return Error{QStringLiteral("--profile: no folder for perf's samples: %1").arg(d->folder.errorString())};
    // A Versus killed during the pass leaves the folder to the next one's clean-up (orphancleanup.h).
    if (Status owned = writeOwnerFile(d->folder.path()); !owned)
        return Error{QStringLiteral("--profile: %1").arg(owned.error())};
    QStringList pidList;
    for (qint64 pid : pids)
        pidList << QString::number(pid);
    const QString event = d->access.userOnly ? QStringLiteral("cpu-clock:u") : QStringLiteral("cpu-clock");
    startPerfProcess(d->record, d->access.program,
                     {QStringLiteral("record"), QStringLiteral("-e"), event, QStringLiteral("-F"), QString::number(kProfileRateHz),
                      QStringLiteral("-p"), pidList.join(QLatin1Char(',')), QStringLiteral("-o"), d->dataPath()});
    if (!d->record.waitForStarted(kPerfStartMs))
        return Error{QStringLiteral("--profile: perf did not start: %1").arg(d->record.errorString())};
    // perf opens its events after it starts and says nothing when it has: a refusal ends it at
    // once, and a short wait lets it attach before the replay's first batch.
    if (d->record.waitForFinished(kPerfAttachMs))
        return Error{QStringLiteral("--profile: perf record stopped at once (exit %1), saying %2")
                         .arg(d->record.exitCode()).arg(perfSaid(d->record))};
    return Status::success();
}

Outcome<ServerProfile> PerfRecording::stopAndFold(const QString &binaryName)
{
    // perf may have ended on its own (its target gone): then there is no pid to signal, and
    // kill(0, …) would signal Versus's own process group.
    const bool running = d->record.state() == QProcess::Running;
    if (const qint64 pid = d->record.processId(); running && pid > 0)
        ::kill(pid_t(pid), SIGINT);
    if (running && !d->record.waitForFinished(kPerfWriteMs)) {
        d->record.kill();
        return Error{QStringLiteral("--profile: perf record did not finish writing within %1 s").arg(kPerfWriteMs / 1000)};
    }
    if (!QFile::exists(d->dataPath()))
        return Error{QStringLiteral("--profile: perf record wrote no samples, saying %1").arg(perfSaid(d->record))};
    QProcess script;
    startPerfProcess(script, d->access.program,
                     {QStringLiteral("script"), QStringLiteral("-i"), d->dataPath(), QStringLiteral("-F"), QStringLiteral("ip,sym,dso")});
    if (!script.waitForFinished(kPerfScriptMs) || script.exitStatus() != QProcess::NormalExit || script.exitCode() != 0) {
        script.kill();
        return Error{QStringLiteral("--profile: perf script could not read the samples: %1").arg(perfSaid(script))};
    }
    ServerProfile profile = foldPerfSamples(QString::fromUtf8(script.readAllStandardOutput()), binaryName);
    profile.rateHz = kProfileRateHz;
    profile.userOnly = d->access.userOnly;
    if (!profile.recorded())
        return Error{QStringLiteral("--profile: perf recorded no samples of the server")};
    return profile;
}
