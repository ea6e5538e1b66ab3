#include "replyscanner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

ReplyScanner::ReplyScanner(size_t maxLine, size_t maxString) : m_maxLine(maxLine), m_maxString(maxString) {}

void ReplyScanner::start(size_t expected)
{
    m_expected = expected;
    m_replies = 0;
    m_errorCount = 0;
    m_line.clear();
    m_bulkLeft = 0;
    m_depth = 0;
    m_problem.clear();
}

ReplyScanner::Result ReplyScanner::feed(const char *data, size_t length, size_t *consumed)
{
    size_t at = 0;
    Result result = m_replies >= m_expected ? Result::Done : Result::Going;
    while (result == Result::Going && at < length) {
        if (m_bulkLeft > 0) {
            const size_t skip = size_t(std::min<unsigned long long>(m_bulkLeft, length - at));
            at += skip;
            m_bulkLeft -= skip;
            if (m_bulkLeft == 0)
                result = elementDone();
            continue;
        }
        const char *start = data + at;
        const size_t available = length - at;
        const char *newline = static_cast<const char *>(std::memchr(start, '\n', available));
        if (!newline) {
            m_line.append(start, available);
            at = length;
            if (m_line.size() > m_maxLine)
                result = Result::LineTooLong;
            break;
        }
        const size_t piece = size_t(newline - start);   // the bytes before the '\n'
        at += piece + 1;
        const bool crlf = piece > 0 ? start[piece - 1] == '\r' : (!m_line.empty() && m_line.back() == '\r');
        if (!crlf) {
            // A '\n' inside a line: as in hiredis, only CRLF ends one.
            m_line.append(start, piece + 1);
            if (m_line.size() > m_maxLine)
                result = Result::LineTooLong;
            continue;
        }
        if (m_line.empty()) {
            result = line(std::string_view(start, piece - 1));
            continue;
        }
        m_line.append(start, piece);
        m_line.pop_back();   // the '\r'
        result = line(m_line);
        m_line.clear();
    }
    *consumed = at;
    return result;
}

ReplyScanner::Result ReplyScanner::line(std::string_view text)
{
    if (text.size() > m_maxLine)
        return Result::LineTooLong;
    const char type = text.empty() ? '\r' : text[0];
    switch (type) {
    case '+':
    case ':':
        return elementDone();
    case '-':
        if (m_depth == 0)
            recordError(text.substr(1));
        return elementDone();
    case '$':
    case '*':
        return header(text.substr(1), type);
    default:
        break;
    }
    char shown[8];
    if (type >= 0x20 && type < 0x7f)
        std::snprintf(shown, sizeof shown, "\"%c\"", type);
    else
        std::snprintf(shown, sizeof shown, "\"\\x%02x\"", unsigned(static_cast<unsigned char>(type)));
    return protocolError(std::string("Protocol error, got ") + shown + " as reply type byte");
}

ReplyScanner::Result ReplyScanner::header(std::string_view digits, char type)
{
    const bool negative = !digits.empty() && digits.front() == '-';
    if (negative)
        digits.remove_prefix(1);
    const bool valid = !digits.empty() && digits.size() <= 18
        && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!valid)
        return protocolError(type == '$' ? "Protocol error, bad bulk string length" : "Protocol error, bad multi-bulk length");
    unsigned long long value = 0;
    for (const char c : digits)
        value = value * 10 + unsigned(c - '0');
    if (negative)
        return elementDone();   // a nil string or array: $-1, *-1
    if (type == '$') {
        if (value > m_maxString)
            return Result::TooLarge;
        m_bulkLeft = value + 2;   // the string and its CRLF
        return Result::Going;
    }
    if (value == 0)
        return elementDone();
    if (m_depth == kMaxDepth)
        return protocolError("No support for nested multi bulk replies with depth > 7");
    m_left[m_depth++] = value;
    return Result::Going;
}

ReplyScanner::Result ReplyScanner::elementDone()
{
    while (m_depth > 0) {
        if (--m_left[m_depth - 1] > 0)
            return Result::Going;
        --m_depth;
    }
    ++m_replies;
    return m_replies >= m_expected ? Result::Done : Result::Going;
}

ReplyScanner::Result ReplyScanner::protocolError(std::string problem)
{
    m_problem = std::move(problem);
    return Result::ProtocolError;
}

void ReplyScanner::recordError(std::string_view text)
{
    if (m_errorCount == m_errors.size())
        m_errors.emplace_back();
    ErrorReply &error = m_errors[m_errorCount++];
    error.index = m_replies;
    error.text.assign(text.data(), text.size());
}
