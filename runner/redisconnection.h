#pragma once
// One blocking hiredis connection. Owned and used by exactly one thread: hiredis 0.14
// contexts are not thread-safe, and a context is dead after any error.

#include "outcome.h"
#include <QString>
#include <string>
#include <vector>

struct redisContext;
struct redisReply;

// A reply as a value, detached from hiredis memory.
struct Reply {
    enum class Kind { Nil, Status, Error, Integer, String, Array };
    Kind kind = Kind::Nil;
    long long integer = 0;
    std::string text;                 // Status, Error, String
    std::vector<Reply> elements;      // Array
    bool isError() const { return kind == Kind::Error; }
};

class RedisConnection {
public:
    RedisConnection() = default;
    ~RedisConnection();
    RedisConnection(const RedisConnection &) = delete;
    RedisConnection &operator=(const RedisConnection &) = delete;

    // `name` (e.g. "valkey-8.0.1 (127.0.0.1:40123)") prefixes every error message.
    Status connectTcp(const QString &host, int port, int timeoutMs, const QString &name);
    Status connectUnix(const QString &path, int timeoutMs, const QString &name);
    Status auth(const QString &password);
    bool isConnected() const { return m_context != nullptr; }
    void close();
    const QString &name() const { return m_name; }

    // One command, one reply. A server error reply is a value (Reply::Kind::Error);
    // a transport failure or timeout is an Error and closes the connection.
    Outcome<Reply> command(const std::vector<std::string> &args);

    // Pipelining: append pre-encoded RESP, then read replies one by one.
    Status appendRaw(const std::string &resp);
    Status flush();
    Outcome<Reply> readReply();

private:
    Error transportError(const char *what);
    redisContext *m_context = nullptr;
    QString m_name;
};
