#pragma once
// A TCP server on 127.0.0.1, on a thread of its own, that answers like a node of a cluster whose
// CLUSTER SHARDS (or CLUSTER SLOTS) reply is whatever the test sets: 16,384 primaries, an `ip`
// holding a line break and terminal escapes. No real server says such things on demand; a fake
// node, a stale gossip entry or a wrong cluster-announce-ip does. It answers INFO (a Valkey 9.1.2
// in cluster mode, holding no key), DBSIZE, CLUSTER MYID and CLUSTER NODES (itself only), and
// counts the connections and commands it got.
//
//   FakeClusterNode node;
//   node.setShards(FakeClusterNode::shardsReply({{"127.0.0.1", node.port(), FakeClusterNode::kId, {{0, 16383}}}}));

#include <algorithm>
#include "loopbacklistener.h"

#include <arpa/inet.h>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

class FakeClusterNode {
public:
    static constexpr const char *kId = "fa1ce0000000000000000000000000000000fa1c";

    struct Primary {
        std::string ip;
        int port = 0;
        std::string id;
        std::vector<std::pair<int, int>> ranges;   // first and last slot
    };

    FakeClusterNode()
    {
        m_listener = listenOnLoopback(64, m_port);
        m_thread = std::thread([this] { serve(); });
    }

    ~FakeClusterNode()
    {
        m_stop.store(true);
        m_thread.join();
        ::close(m_listener);
    }

    int port() const { return m_port; }
    std::string hostPort() const { return "127.0.0.1:" + std::to_string(m_port); }

    // The CLUSTER SHARDS reply, as RESP bytes.
    void setShards(std::string resp)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_shards = std::move(resp);
    }
    // Answers CLUSTER SHARDS with an error and CLUSTER SLOTS with `resp`, as Redis before 7.0.
    void setSlotsOnly(std::string resp)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_shards = "-ERR unknown subcommand 'SHARDS'\r\n";
        m_slots = std::move(resp);
    }

    int connections() const { return m_connections.load(); }
    // How many times a command was received: "INFO", "CLUSTER SHARDS", "AUTH".
    long long received(const std::string &command) const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto found = m_received.find(command);
        return found == m_received.end() ? 0 : found->second;
    }

    // `count` primaries, each this node itself (its id and address: each passes the proof of
    // membership), primary i serving every slot s with s % count == i, one range per slot.
    std::vector<Primary> scatteredPrimaries(int count) const
    {
        std::vector<Primary> primaries(size_t(count), {"127.0.0.1", m_port, kId, {}});
        for (int slot = 0; slot < 16384; ++slot)
            primaries[size_t(slot % count)].ranges.emplace_back(slot, slot);
        return primaries;
    }

    static std::string bulk(const std::string &text) { return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n"; }

    // CLUSTER SHARDS in RESP2: one shard per primary, each with its slots and that one node.
    static std::string shardsReply(const std::vector<Primary> &primaries)
    {
        std::string out = "*" + std::to_string(primaries.size()) + "\r\n";
        for (const Primary &primary : primaries) {
            out += "*4\r\n" + bulk("slots") + "*" + std::to_string(primary.ranges.size() * 2) + "\r\n";
            for (const auto &[first, last] : primary.ranges)
                out += ":" + std::to_string(first) + "\r\n:" + std::to_string(last) + "\r\n";
            out += bulk("nodes") + "*1\r\n*14\r\n" + bulk("id") + bulk(primary.id) + bulk("port") + ":"
                + std::to_string(primary.port) + "\r\n" + bulk("ip") + bulk(primary.ip) + bulk("endpoint") + bulk(primary.ip)
                + bulk("role") + bulk("master") + bulk("replication-offset") + ":0\r\n" + bulk("health") + bulk("online");
        }
        return out;
    }

    // CLUSTER SLOTS in RESP2: one range per primary's range, naming it by `ip`, port and id.
    static std::string slotsReply(const std::vector<Primary> &primaries)
    {
        std::string ranges;
        size_t count = 0;
        for (const Primary &primary : primaries) {
            for (const auto &[first, last] : primary.ranges) {
                ++count;
                ranges += "*3\r\n:" + std::to_string(first) + "\r\n:" + std::to_string(last) + "\r\n*3\r\n"
                    + bulk(primary.ip) + ":" + std::to_string(primary.port) + "\r\n" + bulk(primary.id);
            }
        }
        return "*" + std::to_string(count) + "\r\n" + ranges;
    }

private:
    struct Client {
        int fd = -1;
        std::string input;
    };

    void serve()
    {
        std::vector<Client> clients;
        while (!m_stop.load()) {
            std::vector<pollfd> waiting{{m_listener, POLLIN, 0}};
            for (const Client &client : clients)
                waiting.push_back({client.fd, POLLIN, 0});
            if (::poll(waiting.data(), waiting.size(), 50) <= 0)
                continue;
            if (waiting[0].revents & POLLIN) {
                const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd >= 0) {
                    ++m_connections;
                    clients.push_back({fd, {}});
                }
            }
            for (size_t i = 1; i < waiting.size(); ++i) {
                if (waiting[i].revents == 0)
                    continue;
                Client &client = clients[i - 1];
                char buffer[65536];
                const ssize_t got = ::recv(client.fd, buffer, sizeof buffer, 0);
                if (got <= 0 || !answerAll(client, std::string_view(buffer, size_t(got)))) {
                    ::close(client.fd);
                    client.fd = -1;
                }
            }
            clients.erase(std::remove_if(clients.begin(), clients.end(), [](const Client &client) { return client.fd < 0; }),
                          clients.end());
        }
        for (const Client &client : clients)
            ::close(client.fd);
    }

    // Every whole command received so far; false when the client should be dropped.
    bool answerAll(Client &client, std::string_view bytes)
    {
        client.input.append(bytes);
        for (;;) {
            std::vector<std::string> args;
            const size_t used = parseCommand(client.input, args);
            if (used == 0)
                return client.input.size() < (1 << 20);
            client.input.erase(0, used);
            if (!sendAll(client.fd, answer(args)))
                return false;
        }
    }

    // One command (an array of bulk strings, as hiredis sends it) from the front of `input`:
    // the bytes it takes, 0 while it is incomplete.
    static size_t parseCommand(const std::string &input, std::vector<std::string> &args)
    {
        if (input.empty() || input[0] != '*')
            return 0;
        size_t at = input.find("\r\n");
        if (at == std::string::npos)
            return 0;
        const long count = std::strtol(input.c_str() + 1, nullptr, 10);
        at += 2;
        for (long i = 0; i < count; ++i) {
            const size_t end = input.find("\r\n", at);
            if (end == std::string::npos || input[at] != '$')
                return 0;
            const size_t length = size_t(std::strtol(input.c_str() + at + 1, nullptr, 10));
            if (input.size() < end + 2 + length + 2)
                return 0;
            args.push_back(input.substr(end + 2, length));
            at = end + 2 + length + 2;
        }
        return at;
    }

    std::string answer(const std::vector<std::string> &args)
    {
        std::string name;
        for (size_t i = 0; i < args.size() && i < 2; ++i) {
            std::string word = args[i];
            for (char &c : word)
                c = char(std::toupper(static_cast<unsigned char>(c)));
            name += (i ? " " : "") + word;
            if (i == 0 && word != "CLUSTER")
                break;
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_received[name];
        if (name == "INFO")
            return bulk("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:9.1.2\r\nrun_id:"
                        + std::string(kId) + "\r\n\r\n# Cluster\r\ncluster_enabled:1\r\n\r\n# Keyspace\r\n");
        if (name == "DBSIZE")
            return ":0\r\n";
        if (name == "PING")
            return "+PONG\r\n";
        if (name == "CLUSTER SHARDS")
            return m_shards;
        if (name == "CLUSTER SLOTS" && !m_slots.empty())
            return m_slots;
        if (name == "CLUSTER MYID")
            return bulk(kId);
        if (name == "CLUSTER NODES")
            return bulk(std::string(kId) + " 127.0.0.1:" + std::to_string(m_port) + "@" + std::to_string(m_port + 10000)
                        + " myself,master - 0 0 1 connected 0-16383\n");
        return "-ERR unknown command '" + name + "'\r\n";
    }

    static bool sendAll(int fd, const std::string &data)
    {
        size_t sent = 0;
        while (sent < data.size()) {
            const ssize_t wrote = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
            if (wrote < 0 && errno == EINTR)
                continue;
            if (wrote <= 0)
                return false;
            sent += size_t(wrote);
        }
        return true;
    }

    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    mutable std::mutex m_mutex;
    std::string m_shards = "*0\r\n";
    std::string m_slots;
    std::map<std::string, long long> m_received;
    std::thread m_thread;
};
