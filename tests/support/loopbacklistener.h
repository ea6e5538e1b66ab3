#pragma once
// A listening TCP socket on 127.0.0.1 at a port the kernel picks, for the test servers that
// play an endpoint (misbehavingserver.h, fakeclusternode.h, recordingproxy.h), and what the
// proxies in front of a real server need besides: a connection to it, and writing all of a buffer.

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// The listening socket (close-on-exec); `port` is the one it got.
inline int listenOnLoopback(int backlog, int &port)
{
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int yes = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address);
    ::listen(listener, backlog);
    socklen_t length = sizeof address;
    ::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length);
    port = ntohs(address.sin_port);
    return listener;
}

// Small writes go out at once: a proxy that forwards a pipeline's replies in pieces would
// otherwise wait for the peer's delayed acknowledgement (40 ms) on each piece.
inline void sendWithoutDelay(int fd)
{
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
}

// The next connection to `listener` (close-on-exec, without delay), waiting at most
// `timeoutMs`; -1 when none came, so a serving loop can look at its stop flag between calls.
inline int acceptWithin(int listener, int timeoutMs)
{
    pollfd entry{listener, POLLIN, 0};
    if (::poll(&entry, 1, timeoutMs) <= 0)
        return -1;
    const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client >= 0)
        sendWithoutDelay(client);
    return client;
}

// A connection to 127.0.0.1:`port` (close-on-exec, without delay); -1 when it was refused.
inline int connectToLoopback(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(uint16_t(port));
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        sendWithoutDelay(fd);
        return fd;
    }
    ::close(fd);
    return -1;
}

// Writes all `size` bytes (no SIGPIPE); false once the peer is gone.
inline bool sendAllBytes(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0)
            return false;
        data += sent;
        size -= size_t(sent);
    }
    return true;
}
