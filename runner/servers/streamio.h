#pragma once
// The bytes of one connection, in and out, without ever blocking: plain TCP (recv/send on the
// socket) or TLS (OpenSSL on the same socket, tlsio.h). Every wait is the caller's poll() with
// its own deadline, on the socket and for the events the last call asked for, so a connection
// is bounded in time the same way over TLS as without it.
// Private to the servers library.

#include <QString>
#include <chrono>
#include <cstddef>
#include <memory>

class StreamIo {
public:
    enum class Result {
        Done,        // `bytes` moved (at least one)
        WouldBlock,  // nothing now: poll the socket for waitEvents()
        Closed,      // the server closed the connection
        Failed,      // reason() says why
    };
    struct Moved {
        Result result = Result::Done;
        size_t bytes = 0;
    };

    explicit StreamIo(int fd) : m_fd(fd) {}
    virtual ~StreamIo() = default;
    StreamIo(const StreamIo &) = delete;
    StreamIo &operator=(const StreamIo &) = delete;

    // Up to `length` bytes; a TLS connection fills the buffer from as many records as have
    // arrived, so fewer than `length` bytes means nothing more is waiting.
    virtual Moved read(char *buffer, size_t length) = 0;
    virtual Moved write(const char *data, size_t length) = 0;
    // Bytes that can be read without the socket (decrypted, not yet taken).
    virtual bool hasBuffered() const { return false; }
    virtual bool isTls() const { return false; }
    // What to poll for after WouldBlock (POLLIN or POLLOUT).
    short waitEvents() const { return m_waitEvents; }
    // Why the last call Failed or Closed, for a message.
    const QString &reason() const { return m_reason; }
    int fd() const { return m_fd; }

protected:
    int m_fd;
    short m_waitEvents = 0;
    QString m_reason;
};

// Whether a socket call's errno only says "not now" (the call is to be made again).
bool socketWouldBlock(int error);

// recv()/send() with MSG_DONTWAIT (and MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE).
std::unique_ptr<StreamIo> plainStreamIo(int fd);

// Waits until `io` can go on with `events` (POLLIN, POLLOUT or both): what the socket is ready
// for, or POLLIN at once when TLS holds decrypted bytes; 0 when the deadline passed first. A
// signal (EINTR) only makes it look at the clock again.
short waitForIo(const StreamIo &io, short events, std::chrono::steady_clock::time_point deadline);
