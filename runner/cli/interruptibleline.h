#pragma once
// One line read from a file descriptor (the terminal at --askpass) that SIGINT or SIGTERM
// interrupts, whenever they come. A handler that only sets a flag and relies on the blocked
// read() returning EINTR loses a signal that arrives just before the read starts, or that the
// kernel hands to another thread: the read then waits for a line that never comes. Here the
// handler also writes a byte to a pipe that the wait watches beside the descriptor (the
// self-pipe), so the wait ends whichever thread took the signal and whenever it came.

#include "outcome.h"

#include <QString>
#include <csignal>
#include <cstddef>

class InterruptibleLine {
public:
    // Installs the handlers for SIGINT and SIGTERM; from here on either ends readLine().
    InterruptibleLine();
    // Puts back the handlers that were there, and raises the signal caught again for them.
    ~InterruptibleLine();
    InterruptibleLine(const InterruptibleLine &) = delete;
    InterruptibleLine &operator=(const InterruptibleLine &) = delete;

    // The next line of `fd` without its line end ("\r\n" too); at end of file, what came
    // before it. Errors, naming the line as `what` ("the password"): "interrupted", "cannot
    // read the password: <why>", "the password is longer than <longestBytes> bytes".
    Outcome<QString> readLine(int fd, std::size_t longestBytes, const QString &what);
    // The signal that interrupted, 0 when none did.
    int caughtSignal() const;

private:
    struct sigaction m_oldInt {};
    struct sigaction m_oldTerm {};
};
