#pragma once
// A real TCP server on 127.0.0.1 that answers the first request of every connection the way
// a broken or hostile endpoint does: a reply line that never ends, a bulk string or array
// announcing gigabytes and then streaming bytes, a reply trickled one byte at a time, or a
// header followed by silence. The Valkey servers cannot misbehave on demand; this one does,
// over a real socket, on a thread of its own (the client under test blocks).
//
//   MisbehavingServer server(MisbehavingServer::EndlessLine);
//   connection.connectTcp("127.0.0.1", server.port(), 1000, "bad");

#include <QByteArray>
#include "loopbacklistener.h"

#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

class MisbehavingServer {
public:
    enum Behaviour {
        EndlessLine,       // "+aaaa…" with no CRLF, as fast as the client reads
        HugeBulkString,    // "$4000000000\r\n" then that many bytes, as fast as the client reads
        HugeArray,         // "*100000000\r\n" then ":1\r\n" elements, as fast as the client reads
        Trickle,           // "+" then one byte every 50 ms, never a CRLF
        HeaderThenSilence, // "$4000000000\r\n" then nothing, connection kept open
        NestedArrays,      // "*900000\r\n" seven times, each the first element of the one before, then silence
    };

    explicit MisbehavingServer(Behaviour behaviour) : m_behaviour(behaviour)
    {
        m_listener = listenOnLoopback(8, m_port);
        m_thread = std::thread([this] { serve(); });
    }

    ~MisbehavingServer()
    {
        m_stop.store(true);
        m_thread.join();
        ::close(m_listener);
    }

    int port() const { return m_port; }
    // Bytes sent to all clients so far.
    long long sent() const { return m_sent.load(); }
    int connections() const { return m_connections.load(); }

private:
    // Waits for `events` on fd in short slices so that the destructor is heard; false to stop.
    bool wait(int fd, short events, int timeoutMs)
    {
        for (int waited = 0; waited < timeoutMs || timeoutMs < 0; waited += 50) {
            if (m_stop.load())
                return false;
            pollfd entry{fd, events, 0};
            const int ready = ::poll(&entry, 1, 50);
            if (ready > 0)
                return (entry.revents & (POLLERR | POLLHUP | POLLNVAL)) == 0 || (events & POLLIN);
        }
        return !m_stop.load();
    }

    // True once the client hung up (or the server is stopping); false after timeoutMs without.
    bool closedWithin(int fd, int timeoutMs)
    {
        for (int waited = 0; waited < timeoutMs || timeoutMs < 0; waited += 50) {
            if (m_stop.load())
                return true;
            pollfd entry{fd, POLLRDHUP, 0};
            if (::poll(&entry, 1, 50) > 0)
                return true;
        }
        return m_stop.load();
    }

    bool sendAll(int fd, const char *data, size_t size)
    {
        while (size > 0) {
            if (!wait(fd, POLLOUT, -1))
                return false;
            const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (sent < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (sent <= 0)
                return false;   // the client closed: what a refusing client does
            m_sent += sent;
            data += sent;
            size -= size_t(sent);
        }
        return true;
    }

    void serve()
    {
        while (wait(m_listener, POLLIN, -1)) {
            const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0)
                continue;
            ++m_connections;
            answer(client);
            ::close(client);
        }
    }

    void answer(int client)
    {
        // The first request, whatever it is.
        char request[4096];
        if (!wait(client, POLLIN, -1) || ::recv(client, request, sizeof request, 0) <= 0)
            return;
        QByteArray chunk;
        switch (m_behaviour) {
        case EndlessLine:
            if (!sendAll(client, "+", 1))
                return;
            chunk = QByteArray(1 << 16, 'a');
            break;
        case HugeBulkString:
            if (!sendAll(client, "$4000000000\r\n", 13))
                return;
            chunk = QByteArray(1 << 16, 'b');
            break;
        case HugeArray:
            if (!sendAll(client, "*100000000\r\n", 12))
                return;
            chunk = QByteArray(":1\r\n").repeated(1 << 14);
            break;
        case Trickle:
            while (sendAll(client, "+", 1) && !closedWithin(client, 50)) {
            }
            return;
        case HeaderThenSilence:
            if (sendAll(client, "$4000000000\r\n", 13))
                closedWithin(client, -1);   // until the client hangs up or the server stops
            return;
        case NestedArrays: {
            const QByteArray headers = QByteArray("*900000\r\n").repeated(7);
            if (sendAll(client, headers.constData(), size_t(headers.size())))
                closedWithin(client, -1);
            return;
        }
        }
        while (sendAll(client, chunk.constData(), size_t(chunk.size()))) {
        }
    }

    Behaviour m_behaviour;
    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<long long> m_sent{0};
    std::atomic<int> m_connections{0};
    std::thread m_thread;
};
