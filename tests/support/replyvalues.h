#pragma once
// Server replies built by hand, for the tests of what Versus reads out of replies a real server
// would not send (MEMORY STATS, LATENCY HISTOGRAM).

#include "redisconnection.h"

#include <string>
#include <vector>

namespace ReplyValues {

inline Reply text(const std::string &value)
{
    Reply reply;
    reply.kind = Reply::Kind::String;
    reply.text = value;
    return reply;
}

inline Reply number(long long value)
{
    Reply reply;
    reply.kind = Reply::Kind::Integer;
    reply.integer = value;
    return reply;
}

inline Reply list(std::vector<Reply> elements)
{
    Reply reply;
    reply.kind = Reply::Kind::Array;
    reply.elements = std::move(elements);
    return reply;
}

} // namespace ReplyValues
