#pragma once
// Reading one reply from a blocking hiredis context within bounds of size and time.
//
// hiredis 0.14's redisGetReply() waits as long as each read brings a byte (redisSetTimeout
// bounds every read, not the reply) and buffers without limit: a reply line with no end, or a
// bulk string announcing 4 GB, hangs the caller and grows its memory until it is killed. Here
// the reader is driven by hand (poll, the connection's own StreamIo reads fed to the reader,
// redisGetReplyFromReader), its buffer is checked after every read, and the whole request has
// one deadline. hiredis never touches the socket: its bytes go through the StreamIo, plain or
// TLS (streamio.h), and a failure is written into the context's err and errstr as hiredis
// would have written it.
// Private to the servers library: the header names hiredis types, which nothing else sees.

#include <chrono>
#include <cstddef>

struct redisContext;
class StreamIo;

// No reply line Versus reads comes near this: status and error lines, integers and headers.
constexpr size_t maxReplyLine = size_t(1) << 20;

struct ReplyBounds {
    // Bytes buffered and not yet parsed: bounds the memory of one string or line.
    size_t maxBuffered = 0;
    // Bytes read while waiting for this reply: bounds the memory of a reply tree (0: no bound).
    size_t maxReceived = 0;
    std::chrono::steady_clock::time_point deadline;
};

enum class ReplyWait {
    Done,
    Failed,      // a transport or protocol error: the context's err and errstr say which
    TooLarge,    // a bound of size was passed
    LineTooLong, // a reply line (status, error, integer, or a header) passed maxReplyLine bytes
    TimedOut,    // the deadline passed
};

// Writes whatever the context has queued, then reads one reply into *reply.
ReplyWait readReplyWithin(redisContext *context, StreamIo &io, void **reply, const ReplyBounds &bounds);
// Writes whatever the context has queued before the deadline.
ReplyWait writeWithin(redisContext *context, StreamIo &io, std::chrono::steady_clock::time_point deadline);
