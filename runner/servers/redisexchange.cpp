// RedisConnection::exchange(): the replay's path, on the connection's StreamIo (plain or TLS)
// beside hiredis. One request goes out in as few writes as the socket allows, the replies come
// in with reads into one buffer of 256 KiB, and a ReplyScanner counts them as they arrive,
// while the request is still being written too: nothing per command is allocated or built.

#include "redisconnection.h"

#include "boundedreply.h"
#include "streamio.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReceiveBytes = size_t(256) << 10;

} // namespace

Error RedisConnection::socketError(const char *what)
{
    QString reason = m_io ? m_io->reason() : QStringLiteral("not connected");
    if (!m_anyReplyRead && !isTls())
        reason += QStringLiteral(" before its first reply (a TLS port closes a plain connection so: %1 if it is one)")
                      .arg(m_tlsNames.tlsOn);
    close();
    m_lastErrorWasTimeout = false;
    return Error{QStringLiteral("%1: %2: %3").arg(m_name, QLatin1String(what), reason)};
}

Status RedisConnection::scanned(ReplyScanner::Result result, size_t consumed, size_t received)
{
    switch (result) {
    case ReplyScanner::Result::Going:
    case ReplyScanner::Result::Done:
        // Bytes past the last reply are no reply of this request: hiredis gets them, as it
        // would have read them itself.
        if (consumed < received && m_context)
            redisReaderFeed(m_context->reader, m_receive.data() + consumed, received - consumed);
        return Status::success();
    case ReplyScanner::Result::TooLarge:
        return replyFailure(int(ReplyWait::TooLarge), "read reply", m_scanner.maxString());
    case ReplyScanner::Result::LineTooLong:
        return replyFailure(int(ReplyWait::LineTooLong), "read reply", 0);
    case ReplyScanner::Result::ProtocolError:
        break;
    }
    close();
    m_lastErrorWasTimeout = false;
    return Error{QStringLiteral("%1: read reply: %2").arg(m_name, QString::fromStdString(m_scanner.problem()))};
}

Status RedisConnection::takeOverContext()
{
    // Output hiredis still queues was appended before this request: it goes first.
    if (sdslen(m_context->obuf) > 0) {
        const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
        if (const ReplyWait wait = writeWithin(m_context, *m_io, deadline); wait != ReplyWait::Done)
            return replyFailure(int(wait), "write", 0);
    }
    // Reply bytes hiredis read and did not parse come first in the stream.
    redisReader *reader = m_context->reader;
    const size_t held = reader->len - reader->pos;
    if (held == 0)
        return Status::success();
    size_t consumed = 0;
    const ReplyScanner::Result result = m_scanner.feed(reader->buf + reader->pos, held, &consumed);
    reader->pos += consumed;
    return scanned(result, 0, 0);
}

Status RedisConnection::readArrived()
{
    for (;;) {
        const StreamIo::Moved got = m_io->read(m_receive.data(), m_receive.size());
        if (got.result == StreamIo::Result::WouldBlock)
            return Status::success();
        if (got.result != StreamIo::Result::Done)
            return socketError("read reply");
        const size_t before = m_scanner.replies();
        size_t consumed = 0;
        const ReplyScanner::Result result = m_scanner.feed(m_receive.data(), got.bytes, &consumed);
        if (Status checked = scanned(result, consumed, got.bytes); !checked)
            return checked;
        if (m_scanner.replies() > before) {
            m_exchangeDeadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
            m_anyReplyRead = true;
        }
        // A full buffer means more may be waiting; anything less, that the socket is empty.
        if (got.bytes < m_receive.size() || m_scanner.replies() >= m_scanner.expected())
            return Status::success();
    }
}

Status RedisConnection::startExchange(std::string_view request, size_t replies)
{
    if (!m_context)
        return notConnected("write");
    m_scanner.start(replies);
    if (Status taken = takeOverContext(); !taken)
        return taken;
    if (m_receive.empty())
        m_receive.resize(kReceiveBytes);
    m_exchangeDeadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    size_t written = 0;
    while (written < request.size()) {
        const StreamIo::Moved sent = m_io->write(request.data() + written, request.size() - written);
        if (sent.result == StreamIo::Result::Done) {
            written += sent.bytes;
            continue;
        }
        if (sent.result != StreamIo::Result::WouldBlock)
            return socketError("write");
        // The socket is full: the server may be waiting for its replies to be read first.
        const short ready = waitForIo(*m_io, short(POLLIN | m_io->waitEvents()), m_exchangeDeadline);
        if (ready == 0)
            return replyFailure(int(ReplyWait::TimedOut), "write", 0);
        if (ready & (POLLIN | POLLHUP | POLLERR)) {
            if (Status read = readArrived(); !read)
                return read;
        }
    }
    return Status::success();
}

Outcome<bool> RedisConnection::pollExchange()
{
    if (!m_context)
        return notConnected("read reply");
    if (m_scanner.replies() < m_scanner.expected()) {
        if (Status read = readArrived(); !read)
            return Error{read.error()};
    }
    if (m_scanner.replies() >= m_scanner.expected())
        return true;
    if (Clock::now() >= m_exchangeDeadline)
        return replyFailure(int(ReplyWait::TimedOut), "read reply", 0);
    return false;
}

int RedisConnection::socket() const
{
    return m_context ? m_context->fd : -1;
}

Status RedisConnection::exchange(std::string_view request, size_t replies, const std::function<void()> &whileWaiting)
{
    if (Status started = startExchange(request, replies); !started)
        return started;
    if (whileWaiting)
        whileWaiting();
    for (;;) {
        const Outcome<bool> done = pollExchange();
        if (!done)
            return Error{done.error()};
        if (done.value())
            return Status::success();
        if (waitForIo(*m_io, POLLIN, m_exchangeDeadline) == 0)
            return replyFailure(int(ReplyWait::TimedOut), "read reply", 0);
    }
}
