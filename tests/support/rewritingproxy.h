#pragma once
// A TCP relay on 127.0.0.1 in front of a real server that rewrites some of its replies, as a
// proxy or a managed service in front of a server can: every connection is relayed on a thread
// of its own (Versus holds several at once), each request is paired with its reply in order,
// and `rewrite` may change a reply before the client gets it. RecordingProxy relays one
// connection at a time and changes nothing; this one is for the replies no server gives.
//
//   RewritingProxy proxy(server.port(), RewritingProxy::infoField("used_memory", "1e23"));
//   versus run --servers 127.0.0.1:<proxy.port()> …

#include "loopbacklistener.h"
#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

class RewritingProxy {
public:
    // The request's command in upper case with its first argument ("INFO MEMORY", "CONFIG GET",
    // "DBSIZE"), and the raw RESP reply, which it may replace.
    using Rewrite = std::function<void(const std::string &command, std::string &reply)>;

    RewritingProxy(int serverPort, Rewrite rewrite) : m_serverPort(serverPort), m_rewrite(std::move(rewrite))
    {
        m_listener = listenOnLoopback(16, m_port);
        m_thread = std::thread([this] { serve(); });
    }

    ~RewritingProxy()
    {
        m_stop.store(true);
        m_thread.join();
        for (std::thread &relay : m_relays)
            relay.join();
        ::close(m_listener);
    }

    int port() const { return m_port; }
    // How many replies were rewritten so far.
    int rewritten() const { return m_rewritten.load(); }

    // INFO replies holding `field`: its value replaced by `value`.
    static Rewrite infoField(const std::string &field, const std::string &value)
    {
        return [field, value](const std::string &command, std::string &reply) {
            if (command.rfind("INFO", 0) != 0 || reply.empty() || reply[0] != '$')
                return;
            const size_t header = reply.find("\r\n");
            std::string body = reply.substr(header + 2, reply.size() - header - 4);
            const std::string key = "\r\n" + field + ":";
            const size_t at = ("\r\n" + body).find(key);
            if (at == std::string::npos)
                return;
            const size_t start = at + field.size() + 1;   // in body: the "\r\n" prefix shifts by 2
            const size_t end = body.find("\r\n", start);
            body.replace(start, end - start, value);
            reply = "$" + std::to_string(body.size()) + "\r\n" + body + "\r\n";
        };
    }

    // CONFIG GET replies without the setting `name` (its name and value), as a proxy that
    // filters CONFIG answers.
    static Rewrite withoutSetting(const std::string &name)
    {
        return [name](const std::string &command, std::string &reply) {
            if (command != "CONFIG GET" || reply.empty() || reply[0] != '*')
                return;
            std::vector<std::string> elements;
            size_t at = reply.find("\r\n") + 2;
            while (at < reply.size()) {
                const size_t end = replyEnd(reply, at);
                elements.push_back(reply.substr(at, end - at));
                at = end;
            }
            const std::string named = "$" + std::to_string(name.size()) + "\r\n" + name + "\r\n";
            std::string kept;
            size_t count = 0;
            for (size_t i = 0; i + 1 < elements.size(); i += 2) {
                if (elements[i] == named)
                    continue;
                kept += elements[i] + elements[i + 1];
                count += 2;
            }
            reply = "*" + std::to_string(count) + "\r\n" + kept;
        };
    }

    // Replies to `command` replaced by `replacement`.
    static Rewrite replyTo(const std::string &command, const std::string &replacement)
    {
        return [command, replacement](const std::string &asked, std::string &reply) {
            if (asked == command)
                reply = replacement;
        };
    }

    // Where the RESP2 value starting at `at` ends; npos while incomplete.
    static size_t replyEnd(const std::string &buffer, size_t at)
    {
        if (at >= buffer.size())
            return std::string::npos;
        const size_t line = buffer.find("\r\n", at);
        if (line == std::string::npos)
            return std::string::npos;
        const long long number = std::atoll(buffer.c_str() + at + 1);
        const char type = buffer[at];
        if (type == '$') {
            const size_t end = number < 0 ? line + 2 : line + 2 + size_t(number) + 2;
            return end <= buffer.size() ? end : std::string::npos;
        }
        if (type != '*' || number <= 0)
            return line + 2;
        size_t end = line + 2;
        for (long long i = 0; i < number && end != std::string::npos; ++i)
            end = replyEnd(buffer, end);
        return end;
    }

private:
    // "INFO MEMORY" from a request array: its first two bulk strings, upper case.
    static std::string commandOf(const std::string &request)
    {
        std::string words;
        size_t at = request.find("\r\n") + 2;
        for (int word = 0; word < 2 && at < request.size(); ++word) {
            const size_t line = request.find("\r\n", at);
            const size_t length = size_t(std::atoll(request.c_str() + at + 1));
            std::string text = request.substr(line + 2, length);
            std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::toupper(c)); });
            words += (word ? " " : "") + text;
            at = line + 2 + length + 2;
        }
        return words;
    }

    void serve()
    {
        while (!m_stop.load()) {
            const int client = acceptWithin(m_listener, 50);
            if (client >= 0)
                m_relays.emplace_back([this, client] { relay(client); });
        }
    }

    void relay(int client)
    {
        const int server = connectToLoopback(m_serverPort);
        if (server >= 0) {
            relayBetween(client, server);
            ::close(server);
        }
        ::close(client);
    }

    // Until either side closes or the proxy stops. Requests go through as they come; each
    // complete reply goes back once paired with its request's command and rewritten. What one
    // read completes goes on in one write, so a pipeline is relayed in time linear in its size.
    void relayBetween(int client, int server)
    {
        std::string buffer(1 << 16, '\0');
        std::string pendingBySide[2];
        std::deque<std::string> commands;
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
                std::string &pending = pendingBySide[side];
                pending.append(buffer.data(), size_t(got));
                const std::string out = side == 0 ? takeRequests(pending, commands) : takeReplies(pending, commands);
                if (!sendAllBytes(side == 0 ? server : client, out.data(), out.size()))
                    return;
            }
        }
    }

    // The complete requests at the front of `pending`, taken out; their commands are queued.
    static std::string takeRequests(std::string &pending, std::deque<std::string> &commands)
    {
        size_t at = 0;
        for (size_t end; (end = replyEnd(pending, at)) != std::string::npos; at = end)
            commands.push_back(commandOf(pending.substr(at, end - at)));
        std::string out = pending.substr(0, at);
        pending.erase(0, at);
        return out;
    }

    // The complete replies at the front of `pending`, taken out and each rewritten for its command.
    std::string takeReplies(std::string &pending, std::deque<std::string> &commands)
    {
        std::string out;
        size_t at = 0;
        for (size_t end; (end = replyEnd(pending, at)) != std::string::npos; at = end) {
            std::string message = pending.substr(at, end - at);
            const std::string command = commands.empty() ? std::string() : commands.front();
            if (!commands.empty())
                commands.pop_front();
            const std::string before = message;
            m_rewrite(command, message);
            if (message != before)
                ++m_rewritten;
            out += message;
        }
        pending.erase(0, at);
        return out;
    }

    int m_serverPort;
    Rewrite m_rewrite;
    int m_listener = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_rewritten{0};
    std::vector<std::thread> m_relays;   // the accepting thread's alone until the destructor joins them
    std::thread m_thread;
};
