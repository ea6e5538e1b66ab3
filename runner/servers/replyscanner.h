#pragma once
// Counts the RESP2 replies of a pipeline in the bytes as they arrive and keeps only what the
// replay needs to know of them: which ones are server errors, and their text. Nothing is built
// and no string is buffered: each byte is looked at once, in whatever pieces the socket gives,
// so the memory is the same for any reply. A reply is an error when it is a top-level '-' line
// (an error inside an array, as in a script's reply, is part of a reply, not the reply).
//
// Bounded like every reply Versus reads (boundedreply.h): a line (status, error, integer or a
// header) longer than `maxLine` without its CRLF, a bulk string announcing more than
// `maxString` bytes, and arrays nested deeper than hiredis 0.14 reads (7) end the scan.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

class ReplyScanner {
public:
    enum class Result {
        Going,         // more bytes are needed
        Done,          // every expected reply was seen
        ProtocolError, // not RESP2: problem() says what
        TooLarge,      // a bulk string announced more than maxString bytes
        LineTooLong,   // a line passed maxLine bytes without its end
    };
    struct ErrorReply {
        size_t index = 0;   // the reply's place in the exchange, from 0
        std::string text;   // without the leading '-' and the CRLF
    };

    ReplyScanner(size_t maxLine, size_t maxString);

    // Starts an exchange of `expected` replies. The error texts kept from earlier exchanges are
    // reused, with their memory.
    void start(size_t expected);
    // Scans up to `length` bytes and stops at the end of the last expected reply; *consumed
    // says how many bytes belonged to this exchange. After anything but Going or Done the
    // scanner must be started again.
    Result feed(const char *data, size_t length, size_t *consumed);

    size_t expected() const { return m_expected; }
    size_t replies() const { return m_replies; }
    size_t errorCount() const { return m_errorCount; }
    const ErrorReply &error(size_t i) const { return m_errors[i]; }
    const std::string &problem() const { return m_problem; }
    size_t maxString() const { return m_maxString; }

private:
    static constexpr int kMaxDepth = 7;

    Result line(std::string_view text);
    Result header(std::string_view text, char type);
    Result elementDone();
    Result protocolError(std::string problem);
    void recordError(std::string_view text);

    size_t m_maxLine;
    size_t m_maxString;
    size_t m_expected = 0;
    size_t m_replies = 0;
    size_t m_errorCount = 0;
    std::vector<ErrorReply> m_errors;
    std::string m_line;            // a line split between two pieces, up to its '\n'
    unsigned long long m_bulkLeft = 0;   // bytes of a bulk string (and its CRLF) still to skip
    unsigned long long m_left[kMaxDepth] = {};   // elements still to come in each open array
    int m_depth = 0;
    std::string m_problem;
};
