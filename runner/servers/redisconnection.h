#pragma once
// One blocking hiredis connection. Owned and used by exactly one thread: hiredis 0.14
// contexts are not thread-safe, and a context is dead after any error.
//
// Every wait is bounded by the timeout given to connect*(): a server that stops answering
// (crashed, SIGSTOPped, wedged) turns into an Error "<name>: <what>: timed out after N ms"
// instead of a hang. The timeout bounds a whole request (its write and its whole reply), not
// each read, and every reply is bounded in size (boundedreply.h), so a misbehaving server that
// trickles bytes, never ends a line or announces a huge string cannot hang Versus or fill its
// memory. After any transport error the context is freed and isConnected() is false; connect
// again to go on.
//
// Over TLS (connectTcp with TlsSettings enabled) hiredis builds the requests and parses the
// replies as before, but never touches the socket: every byte of both paths goes through the
// connection's StreamIo (streamio.h, tlsio.h), plain or TLS, so the bounds above hold alike.
//
// Every command sent with command() or appendCommand() is counted (sentCommands()), so that a
// server's commandstats can be told apart from Versus's own commands; exchange() is the
// workload's path and counts nothing.

#include "commandtally.h"
#include "credentials.h"
#include "outcome.h"
#include "replyscanner.h"
#include "tlssettings.h"
#include <QString>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

class StreamIo;
struct redisContext;
struct redisReply;
struct redisReplyObjectFunctions;

// A reply as a value, detached from hiredis memory.
struct Reply {
    enum class Kind { Nil, Status, Error, Integer, String, Array };
    Kind kind = Kind::Nil;
    long long integer = 0;
    std::string text;                 // Status, Error, String
    std::vector<Reply> elements;      // Array
    bool isError() const { return kind == Kind::Error; }
};

// A server's refusal of `command`, for a message or a record: "CONFIG GET refused: \"NOPERM …\""
// (the reply quoted on one line and shortened: it is the server's text, not Versus's).
QString refusalText(const QString &command, const Reply &reply);
// What kind of reply it was, for a message about a reply of the wrong kind: "the bulk string
// \"12\"", "an array of 3 elements", "the integer -4", "nil".
QString describeReply(const Reply &reply);

class RedisConnection {
public:
    RedisConnection();
    ~RedisConnection();
    RedisConnection(const RedisConnection &) = delete;
    RedisConnection &operator=(const RedisConnection &) = delete;

    // `name` (e.g. "valkey-8.0.1 (127.0.0.1:40123)") prefixes every error message.
    // timeoutMs bounds the connect (with its TLS handshake) and, afterwards, every request.
    // With `tls` enabled the handshake is done before this returns; a failure names the
    // endpoint and the reason (certificate not accepted, not a TLS port, …).
    Status connectTcp(const QString &host, int port, int timeoutMs, const QString &name, const TlsSettings &tls = {});
    // AUTH <password>; a server error reply (wrong password) is an Error here.
    Status auth(const QString &password);
    // AUTH [<user>] <password>; nothing when the credentials are empty.
    Status auth(const Credentials &credentials);
    bool isConnected() const { return m_context != nullptr; }
    // Connected over TLS.
    bool isTls() const;
    // True when the last transport error was a timeout (the server is alive but not answering:
    // wedged or SIGSTOPped) rather than a closed or refused connection.
    bool lastErrorWasTimeout() const { return m_lastErrorWasTimeout; }
    void close();
    const QString &name() const { return m_name; }

    // One command, one reply. Arguments are binary safe (explicit lengths). A server error
    // reply is a value (Reply::Kind::Error); a transport failure or timeout is an Error and
    // closes the connection.
    Outcome<Reply> command(const std::vector<std::string> &args);
    // INFO <section> as text; a server error reply is an Error too.
    Outcome<QString> info(const QString &section = QString());

    // Pipelining: append commands (each encoded as RESP, counted in sentCommands()), flush,
    // then read the replies one by one, in order. Nothing goes on the wire before flush() or
    // the first read.
    Status appendCommand(const std::vector<std::string> &args);
    Status flush();
    Outcome<Reply> readReply();
    // All of `commands` in one write, and their replies in order: the server answers them in
    // one turn of its event loop, with nothing of its cron between them.
    Outcome<std::vector<Reply>> pipeline(const std::vector<std::vector<std::string>> &commands);

    // The replay engine's path: writes `request` (complete commands; nothing else may be
    // waiting for a reply) straight to the socket, reading replies in bulk while it writes and
    // after, until `replies` replies were seen. They are scanned, never built (replyscanner.h);
    // lastReplies() then names the server errors among them by their place. Each reply must
    // come within the timeout of the one before (the first, of the start); a timeout, a
    // transport failure or a reply past the bounds is an Error and closes the connection.
    // `whileWaiting`, when set, is called once, as soon as the whole request is written and
    // before the replies are awaited: the caller's work then overlaps the server's.
    Status exchange(std::string_view request, size_t replies, const std::function<void()> &whileWaiting = {});
    const ReplyScanner &lastReplies() const { return m_scanner; }
    // exchange() in two halves, so that one thread keeps several connections' requests on the
    // wire (replaylanes.h): startExchange() writes the whole request (reading replies meanwhile
    // when the socket is full) and returns; pollExchange() reads what has come without waiting
    // and is true once every reply was seen, an Error when none came within the timeout of the
    // one before. socket() is what to poll() for readability in between.
    Status startExchange(std::string_view request, size_t replies);
    Outcome<bool> pollExchange();
    // Every reply of the request started last was seen already (no socket is read).
    bool exchangeComplete() const { return m_scanner.replies() >= m_scanner.expected(); }
    int socket() const;

    // The commands this connection sent (command(), appendCommand()) since the last clear.
    const CommandTally &sentCommands() const { return m_sent; }
    void clearSentCommands() { m_sent.clear(); }

private:
    Status connected(redisContext *context, int timeoutMs, const QString &name, const QString &where);
    Status startTlsOn(const QString &host, const TlsSettings &tls, const QString &where,
                      std::chrono::steady_clock::time_point deadline);
    Error transportError(const char *what);
    // A bounded wait that did not end in a reply (boundedreply.h's ReplyWait): the message.
    Error replyFailure(int wait, const char *what, size_t limit);
    Error notConnected(const char *what) const;
    // exchange()'s parts: what hiredis still holds goes first; a failed send() or recv().
    Status takeOverContext();
    Error socketError(const char *what);
    Status scanned(ReplyScanner::Result result, size_t consumed, size_t received);
    // Every reply byte the socket holds now, scanned; never waits.
    Status readArrived();
    // One reply built as a value, within the bounds of a built reply.
    Outcome<Reply> readBuilt(const char *what);

    redisContext *m_context = nullptr;
    std::unique_ptr<StreamIo> m_io;   // the socket's bytes, plain or TLS; set while connected
    bool m_anyReplyRead = false;      // a server that closes before its first reply may want TLS
    TlsChoiceNames m_tlsNames;        // how that message says to turn TLS on
    redisReplyObjectFunctions *m_defaultReplyFunctions = nullptr;
    QString m_name;
    int m_timeoutMs = 0;
    bool m_lastErrorWasTimeout = false;
    // The elements the arrays of the reply being built announced, and whether they passed the
    // bound (BoundedBuilder in redisconnection.cpp).
    size_t m_builtElements = 0;
    bool m_builtArrayTooLarge = false;
    ReplyScanner m_scanner;
    std::vector<char> m_receive;   // exchange()'s reads, allocated once
    std::chrono::steady_clock::time_point m_exchangeDeadline;   // the next reply is due by then
    CommandTally m_sent;
    friend struct BoundedBuilder;
};
