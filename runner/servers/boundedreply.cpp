#include "boundedreply.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>

namespace {

using Clock = std::chrono::steady_clock;

// Waits until the socket is ready for `events`; false when the deadline passed first.
// A signal (EINTR) only makes it look at the clock again.
bool waitReady(int fd, short events, Clock::time_point deadline)
{
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return false;
        pollfd entry{fd, events, 0};
        const int ready = ::poll(&entry, 1, int(std::min<long long>(left, 1000 * 1000)));
        if (ready > 0)
            return true;   // readable, writable, or closed: the next read or write says which
        if (ready < 0 && errno != EINTR)
            return true;   // let hiredis report the error
    }
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

ReplyWait writeWithin(redisContext *context, Clock::time_point deadline)
{
    int done = 0;
    while (!done) {
        if (!waitReady(context->fd, POLLOUT, deadline))
            return ReplyWait::TimedOut;
        if (redisBufferWrite(context, &done) != REDIS_OK)
            return ReplyWait::Failed;
    }
    return ReplyWait::Done;
}

ReplyWait readReplyWithin(redisContext *context, void **reply, const ReplyBounds &bounds)
{
    *reply = nullptr;
    if (redisGetReplyFromReader(context, reply) != REDIS_OK)
        return ReplyWait::Failed;
    if (*reply)
        return ReplyWait::Done;
    if (const ReplyWait written = writeWithin(context, bounds.deadline); written != ReplyWait::Done)
        return written;
    size_t received = 0;
    for (;;) {
        if (!waitReady(context->fd, POLLIN, bounds.deadline))
            return ReplyWait::TimedOut;
        // The reader keeps len - pos unchanged when it compacts, so the growth is what arrived.
        const size_t before = buffered(context);
        if (redisBufferRead(context) != REDIS_OK)
            return ReplyWait::Failed;
        received += buffered(context) - before;
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
