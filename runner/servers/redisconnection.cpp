#include "redisconnection.h"

#include "boundedreply.h"
#include "hostport.h"
#include "messagetext.h"
#include "resp.h"
#include "streamio.h"
#include "tlsio.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/time.h>

namespace {

// Replies Versus builds and reads (INFO, SCAN pages, CONFIG GET, COMMAND INFO) are under 1 MiB;
// 16 MiB of small elements still makes under 1 GB of reply objects.
const size_t maxBuiltReply = size_t(16) << 20;
// Replies to replayed commands (exchange()) are only scanned for an error, never built: one
// string of them is at most a default server's proto-max-bulk-len (512mb), plus its header.
const size_t maxScannedReplyString = (size_t(512) << 20) + 64;

ReplyBounds boundsOf(size_t maxBuffered, size_t maxReceived, int timeoutMs)
{
    return ReplyBounds{maxBuffered, maxReceived, std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs)};
}

timeval toTimeval(int timeoutMs)
{
    timeval tv;
    tv.tv_sec = timeoutMs / 1000;
    tv.tv_usec = (timeoutMs % 1000) * 1000;
    return tv;
}

Reply toReply(const redisReply *reply)
{
    Reply value;
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
        value.kind = Reply::Kind::Status;
        value.text.assign(reply->str, reply->len);
        break;
    case REDIS_REPLY_ERROR:
        value.kind = Reply::Kind::Error;
        value.text.assign(reply->str, reply->len);
        break;
    case REDIS_REPLY_INTEGER:
        value.kind = Reply::Kind::Integer;
        value.integer = reply->integer;
        break;
    case REDIS_REPLY_STRING:
        value.kind = Reply::Kind::String;
        value.text.assign(reply->str, reply->len);
        break;
    case REDIS_REPLY_ARRAY:
        value.kind = Reply::Kind::Array;
        value.elements.reserve(reply->elements);
        for (size_t i = 0; i < reply->elements; ++i)
            value.elements.push_back(toReply(reply->element[i]));
        break;
    case REDIS_REPLY_NIL:
    default:
        value.kind = Reply::Kind::Nil;
        break;
    }
    return value;
}

} // namespace

// The replies Versus builds, built by hiredis's own functions, but for one: hiredis 0.14
// allocates an array's table of element pointers as soon as it reads the header, so
// "*100000000" alone costs 800 MB of pointers before one element has arrived, and nested
// headers ("*5000000\r\n*5000000\r\n…") multiply that. The elements all the arrays of one
// reply announce are counted, and past a million (the largest reply Versus reads, COMMAND INFO
// or a CLUSTER SHARDS of a large cluster, has some tens of thousands) the reply is refused
// there; the read then fails as too large.
struct BoundedBuilder {
    static constexpr size_t maxElements = size_t(1) << 20;

    static RedisConnection &connectionOf(const redisReadTask *task) { return *static_cast<RedisConnection *>(task->privdata); }
    static void *createString(const redisReadTask *task, char *text, size_t length)
    {
        return connectionOf(task).m_defaultReplyFunctions->createString(task, text, length);
    }
    static void *createArray(const redisReadTask *task, int elements)
    {
        RedisConnection &connection = connectionOf(task);
        connection.m_builtElements += size_t(std::max(0, elements));
        if (connection.m_builtElements > maxElements) {
            connection.m_builtArrayTooLarge = true;
            return nullptr;
        }
        return connection.m_defaultReplyFunctions->createArray(task, elements);
    }
    static void *createInteger(const redisReadTask *task, long long value)
    {
        return connectionOf(task).m_defaultReplyFunctions->createInteger(task, value);
    }
    static void *createNil(const redisReadTask *task) { return connectionOf(task).m_defaultReplyFunctions->createNil(task); }
    static void freeObject(void *reply) { freeReplyObject(reply); }

    static redisReplyObjectFunctions functions;
};

redisReplyObjectFunctions BoundedBuilder::functions = {
    BoundedBuilder::createString, BoundedBuilder::createArray, BoundedBuilder::createInteger,
    BoundedBuilder::createNil, BoundedBuilder::freeObject,
};

RedisConnection::RedisConnection() : m_scanner(maxReplyLine, maxScannedReplyString) {}

RedisConnection::~RedisConnection()
{
    close();
}

Status RedisConnection::connectTcp(const QString &host, int port, int timeoutMs, const QString &name, const TlsSettings &tls)
{
    close();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    redisContext *context = redisConnectWithTimeout(host.toUtf8().constData(), port, toTimeval(timeoutMs));
    const QString where = hostPortText(host, port);
    m_tlsNames = tls.names;
    Status status = connected(context, timeoutMs, name, where);
    if (status && tls.enabled)
        status = startTlsOn(host, tls, where, deadline);
    return status;
}

Status RedisConnection::startTlsOn(const QString &host, const TlsSettings &tls, const QString &where,
                                   std::chrono::steady_clock::time_point deadline)
{
    Outcome<std::unique_ptr<StreamIo>> io = startTls(m_context->fd, tls, host, deadline);
    if (!io) {
        close();
        m_lastErrorWasTimeout = false;
        return Error{QStringLiteral("%1: cannot connect to %2 over TLS: %3").arg(m_name, where, io.error())};
    }
    m_io = std::move(io.value());
    return Status::success();
}

bool RedisConnection::isTls() const
{
    return m_io && m_io->isTls();
}

Status RedisConnection::connected(redisContext *context, int timeoutMs, const QString &name, const QString &where)
{
    m_name = name;
    m_timeoutMs = timeoutMs;
    m_lastErrorWasTimeout = false;
    if (!context)
        return Error{QStringLiteral("%1: cannot connect to %2: out of memory").arg(name, where)};
    if (context->err) {
        const QString reason = QString::fromLocal8Bit(context->errstr);
        redisFree(context);
        return Error{QStringLiteral("%1: cannot connect to %2: %3").arg(name, where, reason)};
    }
    // Without this only the connect is bounded; every later wait could block forever.
    if (redisSetTimeout(context, toTimeval(timeoutMs)) != REDIS_OK) {
        const QString reason = QString::fromLocal8Bit(context->errstr);
        redisFree(context);
        return Error{QStringLiteral("%1: cannot set a timeout on %2: %3").arg(name, where, reason)};
    }
    // A server or tool Versus starts later must not inherit this connection (groupguardian.cpp).
    const int flags = ::fcntl(context->fd, F_GETFD);
    if (flags >= 0)
        ::fcntl(context->fd, F_SETFD, flags | FD_CLOEXEC);
    m_context = context;
    m_io = plainStreamIo(context->fd);
    m_anyReplyRead = false;
    m_defaultReplyFunctions = context->reader->fn;
    context->reader->fn = &BoundedBuilder::functions;
    context->reader->privdata = this;
    return Status::success();
}

Status RedisConnection::auth(const QString &password)
{
    const QByteArray utf8 = password.toUtf8();
    Outcome<Reply> reply = command({"AUTH", std::string(utf8.constData(), size_t(utf8.size()))});
    if (!reply)
        return Error{reply.error()};
    if (reply->isError())
        return Error{QStringLiteral("%1: AUTH: %2").arg(m_name, QString::fromStdString(reply->text))};
    return Status::success();
}

Status RedisConnection::auth(const Credentials &credentials)
{
    if (credentials.empty())
        return Status::success();
    if (credentials.user.isEmpty())
        return auth(credentials.password);
    const QByteArray user = credentials.user.toUtf8();
    const QByteArray password = credentials.password.toUtf8();
    Outcome<Reply> reply = command({"AUTH", std::string(user.constData(), size_t(user.size())),
                                    std::string(password.constData(), size_t(password.size()))});
    if (!reply)
        return Error{reply.error()};
    if (reply->isError())
        return Error{QStringLiteral("%1: AUTH as %2: %3").arg(m_name, credentials.user, QString::fromStdString(reply->text))};
    return Status::success();
}

void RedisConnection::close()
{
    m_io.reset();   // TLS says goodbye on the socket, which redisFree() closes
    if (m_context) {
        redisFree(m_context);
        m_context = nullptr;
    }
}

Error RedisConnection::transportError(const char *what)
{
    QString reason;
    if (m_context) {
        // Waits that pass their deadline are ReplyWait::TimedOut (replyFailure): this is a failure
        // of the socket or the protocol. errstr holds 127 bytes; the StreamIo keeps the whole reason.
        m_lastErrorWasTimeout = false;
        reason = QString::fromLocal8Bit(m_context->errstr);
        if (m_context->err != REDIS_ERR_PROTOCOL && m_io && !m_io->reason().isEmpty())
            reason = m_io->reason();
        if (reason.isEmpty())
            reason = QStringLiteral("connection failed");
        if (m_context->err == REDIS_ERR_EOF && !m_anyReplyRead && !isTls())
            reason += QStringLiteral(" before its first reply (a TLS port closes a plain connection so: %1 "
                                     "if it is one)")
                          .arg(m_tlsNames.tlsOn);
        close();
    } else {
        reason = QStringLiteral("not connected");
    }
    return Error{QStringLiteral("%1: %2: %3").arg(m_name, QLatin1String(what), reason)};
}

Error RedisConnection::replyFailure(int wait, const char *what, size_t limit)
{
    switch (ReplyWait(wait)) {
    case ReplyWait::TooLarge:
        close();
        m_lastErrorWasTimeout = false;
        return Error{QStringLiteral("%1: %2: the reply passed %3 bytes, more than Versus accepts for one reply; "
                                    "the connection is closed")
                         .arg(m_name, QLatin1String(what))
                         .arg(limit)};
    case ReplyWait::LineTooLong:
        close();
        m_lastErrorWasTimeout = false;
        return Error{QStringLiteral("%1: %2: a reply line passed %3 bytes without an end; the connection is closed")
                         .arg(m_name, QLatin1String(what))
                         .arg(maxReplyLine)};
    case ReplyWait::TimedOut:
        close();
        m_lastErrorWasTimeout = true;
        return Error{QStringLiteral("%1: %2: timed out after %3 ms").arg(m_name, QLatin1String(what)).arg(m_timeoutMs)};
    case ReplyWait::Done:
    case ReplyWait::Failed:
        break;
    }
    return transportError(what);
}

Error RedisConnection::notConnected(const char *what) const
{
    return Error{QStringLiteral("%1: %2: not connected").arg(m_name, QLatin1String(what))};
}

Outcome<Reply> RedisConnection::command(const std::vector<std::string> &args)
{
    const char *what = args.empty() ? "command" : args.front().c_str();
    if (!m_context)
        return notConnected(what);
    std::vector<const char *> argv;
    std::vector<size_t> argvLengths;
    argv.reserve(args.size());
    argvLengths.reserve(args.size());
    for (const std::string &arg : args) {
        argv.push_back(arg.data());
        argvLengths.push_back(arg.size());
    }
    m_sent.add(args);
    if (redisAppendCommandArgv(m_context, int(argv.size()), argv.data(), argvLengths.data()) != REDIS_OK)
        return transportError(what);
    return readBuilt(what);
}

Outcome<Reply> RedisConnection::readBuilt(const char *what)
{
    void *raw = nullptr;
    m_builtArrayTooLarge = false;
    m_builtElements = 0;
    ReplyWait wait = readReplyWithin(m_context, *m_io, &raw, boundsOf(maxBuiltReply, maxBuiltReply, m_timeoutMs));
    if (wait == ReplyWait::Failed && m_builtArrayTooLarge)
        wait = ReplyWait::TooLarge;
    if (wait != ReplyWait::Done)
        return replyFailure(int(wait), what, maxBuiltReply);
    m_anyReplyRead = true;
    auto *reply = static_cast<redisReply *>(raw);
    Reply value = toReply(reply);
    freeReplyObject(reply);
    return value;
}

Outcome<QString> RedisConnection::info(const QString &section)
{
    std::vector<std::string> args{"INFO"};
    if (!section.isEmpty())
        args.push_back(section.toStdString());
    Outcome<Reply> reply = command(args);
    if (!reply)
        return Error{reply.error()};
    if (reply->isError())
        return Error{QStringLiteral("%1: INFO %2: %3").arg(m_name, section, QString::fromStdString(reply->text))};
    return QString::fromStdString(reply->text);
}

Status RedisConnection::appendCommand(const std::vector<std::string> &args)
{
    if (!m_context)
        return notConnected("append");
    std::string resp;
    appendRespCommand(args, resp);
    m_sent.add(args);
    if (redisAppendFormattedCommand(m_context, resp.data(), resp.size()) != REDIS_OK)
        return transportError("append");
    return Status::success();
}

Status RedisConnection::flush()
{
    if (!m_context)
        return notConnected("write");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_timeoutMs);
    if (const ReplyWait wait = writeWithin(m_context, *m_io, deadline); wait != ReplyWait::Done)
        return replyFailure(int(wait), "write", 0);
    return Status::success();
}

Outcome<Reply> RedisConnection::readReply()
{
    if (!m_context)
        return notConnected("read reply");
    return readBuilt("read reply");
}

Outcome<std::vector<Reply>> RedisConnection::pipeline(const std::vector<std::vector<std::string>> &commands)
{
    for (const std::vector<std::string> &args : commands) {
        if (Status appended = appendCommand(args); !appended)
            return Error{appended.error()};
    }
    if (Status sent = flush(); !sent)
        return Error{sent.error()};
    std::vector<Reply> replies;
    for (size_t i = 0; i < commands.size(); ++i) {
        Outcome<Reply> reply = readReply();
        if (!reply)
            return Error{reply.error()};
        replies.push_back(std::move(reply.value()));
    }
    return replies;
}

QString refusalText(const QString &command, const Reply &reply)
{
    return QStringLiteral("%1 refused: %2").arg(command, quotedForMessage(QString::fromStdString(reply.text), 120));
}

QString describeReply(const Reply &reply)
{
    const QString text = quotedForMessage(QString::fromStdString(reply.text), 60);
    switch (reply.kind) {
    case Reply::Kind::Nil:
        return QStringLiteral("nil");
    case Reply::Kind::Status:
        return QStringLiteral("the status %1").arg(text);
    case Reply::Kind::Error:
        return QStringLiteral("the error %1").arg(text);
    case Reply::Kind::Integer:
        return QStringLiteral("the integer %1").arg(reply.integer);
    case Reply::Kind::String:
        return QStringLiteral("the bulk string %1").arg(text);
    case Reply::Kind::Array:
        return QStringLiteral("an array of %1 elements").arg(reply.elements.size());
    }
    return QString();
}
