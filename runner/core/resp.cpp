#include "resp.h"

#include <charconv>

namespace {

inline void appendHeader(std::string &out, char marker, size_t length)
{
    char buffer[24];
    buffer[0] = marker;
    const auto result = std::to_chars(buffer + 1, buffer + sizeof buffer - 2, length);
    char *end = result.ptr;
    *end++ = '\r';
    *end++ = '\n';
    out.append(buffer, end);
}

} // namespace

void appendRespCommand(const std::vector<std::string> &args, std::string &out)
{
    size_t needed = 16;
    for (const std::string &arg : args)
        needed += arg.size() + 16;
    out.reserve(out.size() + needed);
    appendHeader(out, '*', args.size());
    for (const std::string &arg : args) {
        appendHeader(out, '$', arg.size());
        out.append(arg);
        out.append("\r\n", 2);
    }
}
