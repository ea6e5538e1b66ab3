#include "interruptibleline.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <unistd.h>

namespace {

// Lock-free atomics are async-signal-safe; the handler touches nothing else but write().
std::atomic<int> caught{0};
std::atomic<int> wakeWriteEnd{-1};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");

void onSignal(int signalNumber)
{
    const int savedErrno = errno;
    caught.store(signalNumber);
    const int fd = wakeWriteEnd.load();
    if (fd >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = ::write(fd, &byte, 1);   // a full pipe is awake already
    }
    errno = savedErrno;
}

int wakeReadEnd = -1;

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

void drainWakePipe()
{
    if (wakeReadEnd < 0)
        return;
    char drained[64];
    while (::read(wakeReadEnd, drained, sizeof drained) > 0) {
    }
}

// The pipe lives as long as the process: a handler still running in another thread when a
// reader ends may write to it, so it is never closed (and so never reused as another file).
// A byte left by an earlier reader's signal is drained before the next reader waits. Without
// a pipe (no descriptor left), the wait watches the terminal alone, and a signal ends it
// through EINTR, as far as that can.
void openWakePipe()
{
    if (wakeReadEnd < 0) {
        int ends[2] = {-1, -1};
        if (::pipe2(ends, O_CLOEXEC | O_NONBLOCK) != 0)
            return;
        // Above 2: with stdin closed, the pipe would otherwise be descriptor 0, the one read.
        wakeReadEnd = ::fcntl(ends[0], F_DUPFD_CLOEXEC, 3);
        wakeWriteEnd.store(::fcntl(ends[1], F_DUPFD_CLOEXEC, 3));
        ::close(ends[0]);
        ::close(ends[1]);
    }
    drainWakePipe();
}

enum class Ready { Data, Interrupted, Failed };

// Waits until `fd` has something to read (or its end) or a signal was caught.
Ready waitForData(int fd, int &error)
{
    for (;;) {
        if (caught.load() != 0)
            return Ready::Interrupted;
        pollfd watched[2] = {{fd, POLLIN, 0}, {wakeReadEnd, POLLIN, 0}};
        const int n = ::poll(watched, 2, -1);
        if (n < 0 && errno == EINTR)
            continue;   // another signal, or ours: the flag says which
        if (n < 0) {
            error = errno;
            return Ready::Failed;
        }
        if (caught.load() != 0)
            return Ready::Interrupted;
        if (watched[1].revents != 0)
            drainWakePipe();   // a byte from a signal an earlier reader caught
        if (watched[0].revents != 0)
            return Ready::Data;   // data, end of file, or an error the read will name
    }
}

} // namespace

InterruptibleLine::InterruptibleLine()
{
    caught.store(0);
    openWakePipe();
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a read that a signal interrupts returns EINTR, and the flag is looked at
    // again, also when the signal came between the wait and the read.
    action.sa_flags = 0;
    sigaction(SIGINT, &action, &m_oldInt);
    sigaction(SIGTERM, &action, &m_oldTerm);
}

InterruptibleLine::~InterruptibleLine()
{
    sigaction(SIGINT, &m_oldInt, nullptr);
    sigaction(SIGTERM, &m_oldTerm, nullptr);
    if (const int signalNumber = caught.load(); signalNumber != 0)
        raise(signalNumber);
}

int InterruptibleLine::caughtSignal() const
{
    return caught.load();
}

Outcome<QString> InterruptibleLine::readLine(int fd, std::size_t longestBytes, const QString &what)
{
    std::string line;
    for (;;) {
        int error = 0;
        const Ready ready = waitForData(fd, error);
        if (ready == Ready::Interrupted)
            return Error{QStringLiteral("interrupted")};
        if (ready == Ready::Failed)
            return Error{QStringLiteral("cannot read %1: %2").arg(what, systemError(error))};
        char c = 0;
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            return Error{QStringLiteral("cannot read %1: %2").arg(what, systemError(errno))};
        if (n == 0 || c == '\n')
            break;
        line.push_back(c);
        if (line.size() > longestBytes)
            return Error{QStringLiteral("%1 is longer than %2 bytes").arg(what).arg(longestBytes)};
    }
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return QString::fromUtf8(line.data(), int(line.size()));
}
