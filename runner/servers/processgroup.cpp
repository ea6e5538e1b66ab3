#include "processgroup.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QThread>

#include <csignal>

namespace {

constexpr int kPollMs = 10;

bool signalMembers(qint64 group, int signal)
{
    // Signalled only while it has a member: see processgroup.h.
    if (group <= 1 || processGroupMembers(group).empty())
        return false;
    return ::kill(-pid_t(group), signal) == 0;
}

bool waitUntilEmpty(qint64 group, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!processGroupMembers(group).empty()) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(kPollMs);
    }
    return true;
}

} // namespace

std::optional<ProcessStat> readProcessStat(qint64 pid)
{
    if (pid <= 0)
        return std::nullopt;
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.read(4096);
    // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    // stime cutime cstime priority nice threads itrealvalue starttime …"; comm may hold spaces
    // and parentheses, so fields are counted from the last ')'.
    const int close = text.lastIndexOf(')');
    if (close < 0)
        return std::nullopt;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    if (fields.size() < 20)
        return std::nullopt;
    ProcessStat stat;
    stat.pid = pid;
    stat.state = fields[0].isEmpty() ? '?' : fields[0].at(0);
    stat.parent = fields[1].toLongLong();
    stat.group = fields[2].toLongLong();
    stat.session = fields[3].toLongLong();
    stat.startTicks = fields[19].toULongLong();
    return stat;
}

std::vector<ProcessStat> processGroupMembers(qint64 group)
{
    std::vector<ProcessStat> members;
    if (group <= 0)
        return members;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        const std::optional<ProcessStat> stat = readProcessStat(pid);
        if (stat && stat->group == group && stat->state != 'Z')
            members.push_back(*stat);
    }
    return members;
}

bool endProcessGroup(qint64 group, int graceMs, int killMs)
{
    if (processGroupMembers(group).empty())
        return true;
    // A stopped process would sit on SIGTERM until continued.
    signalMembers(group, SIGCONT);
    signalMembers(group, SIGTERM);
    if (waitUntilEmpty(group, graceMs))
        return true;
    signalMembers(group, SIGKILL);
    return waitUntilEmpty(group, killMs);
}

QString currentBootId()
{
    QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromLatin1(file.readAll().trimmed());
}
