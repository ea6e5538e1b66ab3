#pragma once
// Ends a launched process's whole process group when Versus ends, however it ends.
//
// PR_SET_PDEATHSIG reaches only Versus's direct child. A server started through a wrapper script
// (`--servers /path/to/script` that forks, or runs the server without exec) is a grandchild, and
// a SIGKILL of Versus would leave it running with its port and data. So each launched process
// starts a session of its own and, before it execs, forks a guardian into it: a copy of Versus
// that closes every file, then blocks reading a pipe whose only write end Versus holds. When
// Versus closes that end (release(), or any death, SIGKILL included) the read returns and the
// guardian SIGKILLs its own process group: the wrapper, the server and itself. Being a member,
// it keeps the group's id from being reused, so that signal can reach no one else.
//
// Limits: a process that moves to another session or group (a server told to daemonize) leaves
// the group; a guardian killed by hand (e.g. `pkill -9 versus`) leaves its group to the next
// start's stale-folder cleanup (orphancleanup.h).

#include "outcome.h"

#include <functional>

class GroupGuardian {
public:
    GroupGuardian() = default;
    ~GroupGuardian();   // release()
    GroupGuardian(const GroupGuardian &) = delete;
    GroupGuardian &operator=(const GroupGuardian &) = delete;

    // Creates the pipe; call before starting the process.
    Status open();
    // For QProcess::setChildProcessModifier: runs in the child between fork and exec, async-
    // signal-safe calls only. Starts a new session (the child's pid becomes its group id) and
    // forks the guardian into it.
    std::function<void()> childSetup() const;
    // After the process started: Versus's copy of the read end is not needed.
    void started();
    // Closes the write end: the guardian ends whatever is left of the group.
    void release();

private:
    int m_read = -1;
    int m_write = -1;
};
