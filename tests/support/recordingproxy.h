#pragma once
// A TCP relay on 127.0.0.1 in front of a real server, on a thread of its own: it forwards
// both ways and keeps every byte the client sent, so a test can compare what reached the
// server with what it should have received.
//
//   RecordingProxy proxy(server.port());
//   connection.connectTcp("127.0.0.1", proxy.port(), 2000, "via proxy");
//   … proxy.received() …

#include "loopbacklistener.h"
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

class RecordingProxy {
public:
    explicit RecordingProxy(int serverPort) : m_serverPort(serverPort)
    {
        m_listener = listenOnLoopback(4, m_port);
        m_thread = std::thread([this] { serve(); });
    }

    ~RecordingProxy()
    {
        m_stop.store(true);
        m_thread.join();
        ::close(m_listener);
    }

    int port() const { return m_port; }
    // Every byte clients sent through the relay so far, in order.
    std::string received() const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_received;
    }

private:
    void serve()
    {
        while (!m_stop.load()) {
            const int client = acceptWithin(m_listener, 50);
            if (client < 0)
                continue;
            const int server = connectToLoopback(m_serverPort);
            if (server >= 0) {
                relay(client, server);
                ::close(server);
            }
            ::close(client);
        }
    }

    // Until either side closes or the proxy stops.
    void relay(int client, int server)
    {
        std::string buffer(1 << 16, '\0');
        while (!m_stop.load()) {
            pollfd entries[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (::poll(entries, 2, 50) <= 0)
                continue;
            for (int side = 0; side < 2; ++side) {
                if (!entries[side].revents)
                    continue;
                const ssize_t got = ::recv(entries[side].fd, &buffer[0], buffer.size(), 0);
                if (got <= 0)
                    return;
                if (side == 0) {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    m_received.append(buffer.data(), size_t(got));
                }
                if (!sendAllBytes(side == 0 ? server : client, buffer.data(), size_t(got)))
                    return;
            }
        }
    }

    int m_serverPort;
    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    mutable std::mutex m_mutex;
    std::string m_received;
    std::thread m_thread;
};
