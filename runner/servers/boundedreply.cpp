#include "boundedreply.h"

#include "streamio.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <poll.h>

namespace {

using Clock = std::chrono::steady_clock;

// Writes what went wrong where hiredis keeps it (err, errstr), for the connection's message.
void setFailure(redisContext *context, const StreamIo &io, StreamIo::Result result)
{
    context->err = result == StreamIo::Result::Closed ? REDIS_ERR_EOF : REDIS_ERR_IO;
    const QByteArray reason = io.reason().toLocal8Bit();
    std::snprintf(context->errstr, sizeof context->errstr, "%s", reason.constData());
}

size_t buffered(const redisContext *context)
{
    return context->reader->len - context->reader->pos;
}

// The item the reader has yet to parse starts at pos. A status, error or integer line, or the
// header of a string or array, is one line: hiredis 0.14 searches it from pos again on every
// read, so an endless line costs quadratic time long before it fills memory. A bulk string's
// body holds newlines of its own only if it has any, but its header ends within a few bytes.
bool pendingLineTooLong(const redisContext *context)
{
    const size_t pending = buffered(context);
    if (pending <= maxReplyLine)
        return false;
    return std::memchr(context->reader->buf + context->reader->pos, '\n', maxReplyLine) == nullptr;
}

} // namespace

ReplyWait writeWithin(redisContext *context, StreamIo &io, Clock::time_point deadline)
{
    while (sdslen(context->obuf) > 0) {
        const StreamIo::Moved moved = io.write(context->obuf, sdslen(context->obuf));
        if (moved.result == StreamIo::Result::Done) {
            // sds.h declares sdsrange() without C linkage for C++: the written part is dropped
            // with its inline functions instead.
            const size_t left = sdslen(context->obuf) - moved.bytes;
            std::memmove(context->obuf, context->obuf + moved.bytes, left);
            sdssetlen(context->obuf, left);
            context->obuf[left] = '\0';
            continue;
        }
        if (moved.result != StreamIo::Result::WouldBlock) {
            setFailure(context, io, moved.result);
            return ReplyWait::Failed;
        }
        if (waitForIo(io, io.waitEvents(), deadline) == 0)
            return ReplyWait::TimedOut;
    }
    return ReplyWait::Done;
}

ReplyWait readReplyWithin(redisContext *context, StreamIo &io, void **reply, const ReplyBounds &bounds)
{
    *reply = nullptr;
    if (redisGetReplyFromReader(context, reply) != REDIS_OK)
        return ReplyWait::Failed;
    if (*reply)
        return ReplyWait::Done;
    if (const ReplyWait written = writeWithin(context, io, bounds.deadline); written != ReplyWait::Done)
        return written;
    size_t received = 0;
    char chunk[16 * 1024];
    short events = POLLIN;
    for (;;) {
        if (waitForIo(io, events, bounds.deadline) == 0)
            return ReplyWait::TimedOut;
        const StreamIo::Moved moved = io.read(chunk, sizeof chunk);
        if (moved.result == StreamIo::Result::WouldBlock) {
            events = io.waitEvents();
            continue;
        }
        events = POLLIN;
        if (moved.result != StreamIo::Result::Done) {
            setFailure(context, io, moved.result);
            return ReplyWait::Failed;
        }
        if (redisReaderFeed(context->reader, chunk, moved.bytes) != REDIS_OK) {
            context->err = REDIS_ERR_PROTOCOL;
            std::snprintf(context->errstr, sizeof context->errstr, "%s", context->reader->errstr);
            return ReplyWait::Failed;
        }
        received += moved.bytes;
        if (redisGetReplyFromReader(context, reply) != REDIS_OK)
            return ReplyWait::Failed;
        if (*reply)
            return ReplyWait::Done;
        if (pendingLineTooLong(context))
            return ReplyWait::LineTooLong;
        if (buffered(context) > bounds.maxBuffered || (bounds.maxReceived > 0 && received > bounds.maxReceived))
            return ReplyWait::TooLarge;
    }
}
