#include "makerun.h"

#include "groupguardian.h"
#include "processgroup.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QThread>

namespace {

const int kTarTimeoutMs = 120000;

// Valkey's Makefile colours its lines whatever the terminal; a compiler told to colours its
// errors, each followed by an erase to the end of the line.
QString withoutColours(const QString &line)
{
    static const QRegularExpression escapes(QStringLiteral("\x1b\\[[0-9;:]*[mK]"));
    QString plain = line;
    return plain.remove(escapes);
}

QProcessEnvironment buildEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    // A server's Makefile reads these; the recipe is the Makefile's defaults, whatever the shell has.
    for (const char *name : {"CFLAGS", "LDFLAGS", "CPPFLAGS", "OPTIMIZATION", "MALLOC", "BUILD_TLS", "USE_SYSTEMD", "PREFIX", "MAKEFLAGS"})
        environment.remove(QString::fromLatin1(name));
    return environment;
}

} // namespace

Status unpackTarball(const QString &tarball, const QString &folder, const std::function<bool()> &stop)
{
    QProcess tar;
    tar.setProcessChannelMode(QProcess::MergedChannels);
    tar.setStandardInputFile(QProcess::nullDevice());
    // GNU tar refuses members with "..", strips a leading "/", and with these never restores
    // owners or modes that would give others write access.
    tar.start(QStringLiteral("tar"), {QStringLiteral("--no-same-owner"), QStringLiteral("--no-same-permissions"),
                                      QStringLiteral("-xf"), tarball, QStringLiteral("-C"), folder});
    if (!tar.waitForStarted(10000))
        return Error{QStringLiteral("cannot run tar: %1").arg(tar.errorString())};
    QElapsedTimer running;
    running.start();
    while (tar.state() != QProcess::NotRunning && !tar.waitForFinished(200)) {
        const bool stopped = stop && stop();
        if (!stopped && !running.hasExpired(kTarTimeoutMs))
            continue;
        tar.kill();
        tar.waitForFinished(1000);
        if (stopped)
            return Error{QStringLiteral("cancelled")};
        return Error{QStringLiteral("%1: tar did not finish within %2 s").arg(tarball).arg(kTarTimeoutMs / 1000)};
    }
    if (tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0)
        return Error{QStringLiteral("%1: tar failed: %2").arg(tarball, QString::fromLocal8Bit(tar.readAll()).simplified().left(300))};
    return Status::success();
}

int expectedCompilations(const BuildSource &source)
{
    int count = 0;
    for (const auto &[relative, entry] : source.files) {
        if (relative.endsWith(QLatin1String(".c")) && !relative.contains(QLatin1String("/test")))
            ++count;
    }
    return count;
}

int compilationPercent(int compiled, int expected)
{
    if (expected <= 0)
        return 0;
    return std::min(99, compiled * 100 / expected);
}

namespace {

// The file a line of make's output names: Valkey's quiet form ("    CC server.o"), else a
// compiler command's (its last path part).
QString fileNamedBy(const QString &line, const QRegularExpression &quietForm, const QRegularExpression &compilerCommand)
{
    const QString plain = withoutColours(line);
    if (const QRegularExpressionMatch match = quietForm.match(plain); match.hasMatch())
        return match.captured(1);
    if (const QRegularExpressionMatch match = compilerCommand.match(plain); match.hasMatch())
        return match.captured(1).section(QLatin1Char('/'), -1);
    return QString();
}

} // namespace

QString compiledFileOf(const QString &line)
{
    static const QRegularExpression valkeyStyle(QStringLiteral("^\\s*CC\\s+(\\S+\\.[co])\\b"));
    static const QRegularExpression compilerCommand(QStringLiteral("^\\s*(?:\\S*/)?(?:cc|gcc|clang)\\s.*\\s-c\\s.*?(\\S+\\.c)\\b"));
    return fileNamedBy(line, valkeyStyle, compilerCommand);
}

QString linkedFileOf(const QString &line)
{
    static const QRegularExpression valkeyStyle(QStringLiteral("^\\s*LINK\\s+(\\S+)"));
    static const QRegularExpression compilerCommand(QStringLiteral("^\\s*(?:\\S*/)?(?:cc|gcc|clang)\\s(?!.*\\s-c\\s).*\\s-o\\s+(\\S+)"));
    return fileNamedBy(line, valkeyStyle, compilerCommand);
}

bool isBuildErrorLine(const QString &line)
{
    static const QRegularExpression failure(QStringLiteral(
        "(^|[\\s:])(fatal )?error:|undefined reference to|: not found$|: No such file or directory|: Permission denied|"
        "command not found|^\\S+: \\*\\*\\* "));
    return failure.match(withoutColours(line).trimmed()).hasMatch();
}

MakeRun::MakeRun(QString treePath, QString logPath, QStringList variables, QStringList targets, int jobs)
    : m_treePath(std::move(treePath))
    , m_logPath(std::move(logPath))
    , m_variables(std::move(variables))
    , m_targets(std::move(targets))
    , m_jobs(jobs > 0 ? jobs : QThread::idealThreadCount())
{
}

void MakeRun::readOutput(QByteArray &pending, QIODevice &device, QFile &log)
{
    const QByteArray chunk = device.readAll();
    log.write(chunk);
    pending += chunk;
    int end;
    while ((end = pending.indexOf('\n')) >= 0) {
        readLine(QString::fromLocal8Bit(pending.left(end)));
        pending.remove(0, end + 1);
    }
}

void MakeRun::readLine(const QString &line)
{
    const QString plain = withoutColours(line);
    m_lastLines = (m_lastLines + plain + QLatin1Char('\n')).right(2000);
    if (m_firstError.isEmpty() && isBuildErrorLine(plain))
        m_firstError = plain.trimmed();
    if (const QString compiled = compiledFileOf(line); !compiled.isEmpty()) {
        ++m_compiled;
        report(MakeStage::Compiling, QStringLiteral("compiling %1 (%2 files so far)").arg(compiled).arg(m_compiled));
    } else if (const QString linked = linkedFileOf(line); !linked.isEmpty()) {
        report(MakeStage::Linking, QStringLiteral("linking %1 (%2 files compiled)").arg(linked).arg(m_compiled));
    }
}

void MakeRun::report(MakeStage stage, const QString &detail) const
{
    if (m_progress)
        m_progress(stage, compilationPercent(m_compiled, m_expected), detail);
}

Status MakeRun::run()
{
    // Made new (O_EXCL): a link left under its name is removed, never written through.
    QFile::remove(m_logPath);
    QFile log(m_logPath);
    if (!log.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return Error{QStringLiteral("cannot write the log %1: %2").arg(m_logPath, log.errorString())};
    const QStringList arguments = QStringList{QStringLiteral("-C"), QStringLiteral("src"), QStringLiteral("-j%1").arg(m_jobs)} + m_variables + m_targets;
    log.write(QStringLiteral("$ cd %1 && make %2\n").arg(m_treePath, arguments.join(QLatin1Char(' '))).toLocal8Bit());

    GroupGuardian guardian;
    if (Status opened = guardian.open(); !opened)
        return opened;
    QProcess make;
    make.setWorkingDirectory(m_treePath);
    make.setProcessEnvironment(buildEnvironment());
    make.setProcessChannelMode(QProcess::MergedChannels);
    make.setStandardInputFile(QProcess::nullDevice());
    make.setChildProcessModifier(guardian.childSetup());
    make.start(QStringLiteral("make"), arguments);
    if (!make.waitForStarted(10000))
        return Error{QStringLiteral("cannot run make: %1 (install build-essential)").arg(make.errorString())};
    guardian.started();
    QByteArray pending;
    while (!make.waitForFinished(200)) {
        readOutput(pending, make, log);
        if (m_cancelled && m_cancelled()) {
            m_wasCancelled = true;
            endProcessGroup(make.processId(), 1000, 2000);
            make.waitForFinished(3000);
            guardian.release();
            log.write("\n[cancelled]\n");
            return Error{QStringLiteral("cancelled; log: %1").arg(m_logPath)};
        }
    }
    readOutput(pending, make, log);
    guardian.release();
    if (make.exitStatus() != QProcess::NormalExit || make.exitCode() != 0) {
        // The first error is the cause ("./configure: not found"), often many lines above make's
        // last ("make: *** [Makefile:6: all] Error 2"); with none recognised, the last lines.
        const QString said = m_firstError.isEmpty() ? QStringLiteral("last output: %1").arg(m_lastLines.trimmed().section(QLatin1Char('\n'), -3))
                                                    : QStringLiteral("first error: %1").arg(m_firstError);
        return Error{QStringLiteral("make %1 (exit %2), %3; log: %4")
                         .arg(arguments.join(QLatin1Char(' ')))
                         .arg(make.exitStatus() == QProcess::NormalExit ? make.exitCode() : -1)
                         .arg(said.simplified().left(400), m_logPath)};
    }
    if (m_progress)
        m_progress(MakeStage::Compiling, 100, QStringLiteral("%1 files compiled").arg(m_compiled));
    return Status::success();
}
