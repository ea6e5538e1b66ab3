#pragma once
// Processes Versus starts (servers, and `--version` questions) run in a session and process
// group of their own, so that a wrapper script's children, which PR_SET_PDEATHSIG and
// QProcess::kill() never reach, end with them. Read from /proc; Linux only.
//
// A process group id is the pid of the process that created it. Linux does not hand that
// number to a new process while any member of the group is alive, so signalling a group that
// still has a member reaches only that group. Once it is empty the number may be reused; the
// functions below therefore look for members first and never signal an empty group.

#include <QString>
#include <optional>
#include <vector>

struct ProcessStat {
    qint64 pid = 0;
    qint64 parent = 0;
    qint64 group = 0;
    qint64 session = 0;
    quint64 startTicks = 0;   // since boot, in clock ticks: with the pid, names one process for good
    char state = '?';         // 'Z' for a zombie
};

// /proc/<pid>/stat; nullopt when there is no such process.
std::optional<ProcessStat> readProcessStat(qint64 pid);

// Live (not zombie) processes whose process group is `group`.
std::vector<ProcessStat> processGroupMembers(qint64 group);

// Ends every process of `group`: SIGCONT and SIGTERM, up to `graceMs` for them to go, then
// SIGKILL and up to `killMs` more. True when none is left (zombies waiting for their parent to
// reap them count as gone).
bool endProcessGroup(qint64 group, int graceMs, int killMs);

// /proc/sys/kernel/random/boot_id: pids and start times name a process only within one boot.
QString currentBootId();
