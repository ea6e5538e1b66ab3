#include "groupguardian.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr int kGuardianFd = 3;

// The guardian's whole life, in the forked copy of Versus: nothing but async-signal-safe calls,
// and it never returns.
[[noreturn]] void guard(int readEnd, int writeEnd)
{
    ::close(writeEnd);
    // Ends on SIGTERM like any member of the group, not through Versus's own handlers.
    struct sigaction defaults{};
    defaults.sa_handler = SIG_DFL;
    for (int signal : {SIGTERM, SIGINT, SIGHUP, SIGQUIT})
        ::sigaction(signal, &defaults, nullptr);
    // Holds none of the server's channels, nor any file or socket of Versus's.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
    }
    if (readEnd != kGuardianFd && ::dup2(readEnd, kGuardianFd) < 0)
        ::_exit(1);
    if (::close_range(kGuardianFd + 1, ~0U, 0) != 0) {
        for (int fd = kGuardianFd + 1; fd < 65536; ++fd)
            ::close(fd);
    }
    char byte = 0;
    while (::read(kGuardianFd, &byte, 1) < 0 && errno == EINTR) {
    }
    ::kill(0, SIGKILL);   // 0: this process's own group
    ::_exit(0);
}

// Another thread of Versus may hold a socket that is not close-on-exec (hiredis opens them
// without the flag) at the moment of the fork. A server that inherits one keeps that connection
// open for its whole life, and the server it points at counts it among its clients: its output
// buffers in used_memory and a wait for the quiet connection that never comes. Marking every
// descriptor past stdio close-on-exec in the child is one async-signal-safe call (Linux 5.11);
// QProcess's own channels are already on 0-2 by now and its status pipe is close-on-exec anyway.
void leaveNothingOpenPastExec()
{
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
}

} // namespace

GroupGuardian::~GroupGuardian()
{
    release();
    if (m_read >= 0)
        ::close(m_read);
}

Status GroupGuardian::open()
{
    release();
    if (m_read >= 0)
        ::close(m_read);
    m_read = -1;
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0)
        return Error{QStringLiteral("cannot create the pipe that ends a server with Versus: %1")
                         .arg(QString::fromLocal8Bit(std::strerror(errno)))};
    m_read = ends[0];
    m_write = ends[1];
    return Status::success();
}

std::function<void()> GroupGuardian::childSetup() const
{
    const int readEnd = m_read;
    const int writeEnd = m_write;
    return [readEnd, writeEnd] {
        ::setsid();
        if (readEnd < 0) {
            leaveNothingOpenPastExec();
            return;
        }
        const pid_t guardian = ::fork();
        if (guardian == 0)
            guard(readEnd, writeEnd);
        // The process itself keeps neither end past exec (both are close-on-exec).
        leaveNothingOpenPastExec();
    };
}

void GroupGuardian::started()
{
    if (m_read >= 0)
        ::close(m_read);
    m_read = -1;
}

void GroupGuardian::release()
{
    if (m_write >= 0)
        ::close(m_write);
    m_write = -1;
}
