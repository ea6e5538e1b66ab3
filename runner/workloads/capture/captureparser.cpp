#include "captureparser.h"

#include <algorithm>
#include <charconv>

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string upper(std::string_view text)
{
    std::string result(text);
    for (char &c : result)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return result;
}

std::string printable(std::string_view text)
{
    std::string result;
    for (const char c : text.substr(0, 40)) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            result.push_back(c);
        } else {
            static const char hex[] = "0123456789abcdef";
            result += "\\x";
            result.push_back(hex[u >> 4]);
            result.push_back(hex[u & 15]);
        }
    }
    if (text.size() > 40)
        result += "...";
    return result;
}

// Commands refused whatever their arguments.
const char *const refusedAlways[] = {
    // data and server state
    "FLUSHALL", "FLUSHDB", "SWAPDB", "SHUTDOWN", "CONFIG", "DEBUG", "SAVE", "BGSAVE", "BGREWRITEAOF",
    "REPLICAOF", "SLAVEOF", "CLUSTER", "MODULE", "SYNC", "PSYNC", "FAILOVER", "ACL", "MONITOR",
    "LATENCY", "SLOWLOG", "MEMORY",
    // connection state the replay relies on (database, protocol, replies, auth)
    "SELECT", "HELLO", "AUTH", "CLIENT", "RESET", "QUIT", "READONLY", "READWRITE",
    // blocking or subscribing: they would stall the pipeline
    "BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP",
    "WAIT", "WAITAOF", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE",
};

// Containers refused for some subcommands only.
struct RefusedSub {
    const char *command;
    const char *subcommand;
};
const RefusedSub refusedSubcommands[] = {
    {"SCRIPT", "FLUSH"}, {"SCRIPT", "KILL"},
    {"FUNCTION", "FLUSH"}, {"FUNCTION", "DELETE"}, {"FUNCTION", "RESTORE"}, {"FUNCTION", "KILL"},
};

} // namespace

const char *captureFormatName(CaptureFormat format)
{
    switch (format) {
    case CaptureFormat::Monitor: return "monitor";
    case CaptureFormat::CommandFile: return "commands";
    case CaptureFormat::Resp: return "resp";
    }
    return "commands";
}

namespace {

// The closing quote of an argument must end it.
bool endsAtQuote(std::string_view line, size_t &i, std::string &error)
{
    ++i;
    if (i < line.size() && !isSpace(line[i])) {
        error = "closing quote must be followed by a space";
        return false;
    }
    return true;
}

// A "double quoted" argument, with valkey-cli's escapes (\n, \xHH, …); `i` is past the quote.
bool readDoubleQuoted(std::string_view line, size_t &i, std::string &current, std::string &error)
{
    const size_t n = line.size();
    for (;;) {
        if (i >= n) {
            error = "unbalanced double quotes";
            return false;
        }
        const char q = line[i];
        if (q == '\\' && i + 3 < n && line[i + 1] == 'x' && hexValue(line[i + 2]) >= 0 && hexValue(line[i + 3]) >= 0) {
            current.push_back(char(hexValue(line[i + 2]) * 16 + hexValue(line[i + 3])));
            i += 4;
        } else if (q == '\\' && i + 1 < n) {
            const char e = line[i + 1];
            switch (e) {
            case 'n': current.push_back('\n'); break;
            case 'r': current.push_back('\r'); break;
            case 't': current.push_back('\t'); break;
            case 'b': current.push_back('\b'); break;
            case 'a': current.push_back('\a'); break;
            default: current.push_back(e); break;
            }
            i += 2;
        } else if (q == '"') {
            return endsAtQuote(line, i, error);
        } else {
            current.push_back(q);
            ++i;
        }
    }
}

// A 'single quoted' argument, where only \' is an escape; `i` is past the quote.
bool readSingleQuoted(std::string_view line, size_t &i, std::string &current, std::string &error)
{
    const size_t n = line.size();
    for (;;) {
        if (i >= n) {
            error = "unbalanced single quotes";
            return false;
        }
        const char q = line[i];
        if (q == '\\' && i + 1 < n && line[i + 1] == '\'') {
            current.push_back('\'');
            i += 2;
        } else if (q == '\'') {
            return endsAtQuote(line, i, error);
        } else {
            current.push_back(q);
            ++i;
        }
    }
}

// One argument starting at `i` (not a space); `i` ends past it.
bool readArgument(std::string_view line, size_t &i, std::string &current, std::string &error)
{
    const size_t n = line.size();
    while (i < n) {
        const char c = line[i];
        if (c == '"') {
            ++i;
            return readDoubleQuoted(line, i, current, error);
        }
        if (c == '\'') {
            ++i;
            return readSingleQuoted(line, i, current, error);
        }
        if (isSpace(c))
            return true;
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            error = "binary data outside quotes at column " + std::to_string(i + 1);
            return false;
        }
        current.push_back(c);
        ++i;
    }
    return true;
}

// The arguments a parser fills, reusing the strings (and their memory) already in the vector:
// a capture source parses command after command into the same one. On the way out the
// vector holds exactly the arguments parsed.
class ArgumentSlots {
public:
    explicit ArgumentSlots(std::vector<std::string> &args) : m_args(args) {}
    ~ArgumentSlots() { m_args.resize(m_used); }
    ArgumentSlots(const ArgumentSlots &) = delete;
    ArgumentSlots &operator=(const ArgumentSlots &) = delete;
    // The next argument, empty.
    std::string &next()
    {
        if (m_used == m_args.size())
            m_args.emplace_back();
        std::string &slot = m_args[m_used];
        slot.clear();
        return slot;
    }
    void keep() { ++m_used; }

private:
    std::vector<std::string> &m_args;
    size_t m_used = 0;
};

} // namespace

bool splitCommandLine(std::string_view line, std::vector<std::string> &args, std::string &error)
{
    ArgumentSlots argumentSlots(args);
    size_t i = 0;
    for (;;) {
        while (i < line.size() && isSpace(line[i]))
            ++i;
        if (i >= line.size())
            return true;
        if (!readArgument(line, i, argumentSlots.next(), error))
            return false;
        argumentSlots.keep();
    }
}

MonitorLineKind parseMonitorLine(std::string_view line, std::vector<std::string> &args, std::string &error)
{
    // The arguments are only replaced by splitCommandLine(), which reuses their strings; a line
    // that has none leaves none.
    const auto without = [&args](MonitorLineKind kind) {
        args.clear();
        return kind;
    };
    size_t start = 0;
    while (start < line.size() && isSpace(line[start]))
        ++start;
    line.remove_prefix(start);
    if (line.empty() || line == "OK")
        return without(MonitorLineKind::Ignored);
    // <seconds>.<micros> [<db> <client>] "arg" "arg" …
    size_t i = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        ++i;
    const size_t digits = i;
    if (i < line.size() && line[i] == '.') {
        ++i;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9')
            ++i;
    }
    if (digits == 0 || i >= line.size() || line[i] != ' ' || i + 1 >= line.size() || line[i + 1] != '[') {
        error = "expected '<timestamp> [<db> <client>]' at the start of a MONITOR line, got '" + printable(line) + "'";
        return without(MonitorLineKind::Malformed);
    }
    const size_t close = line.find("] ", i);
    if (close == std::string_view::npos) {
        error = "missing ']' after the client address";
        return without(MonitorLineKind::Malformed);
    }
    const std::string_view rest = line.substr(close + 2);
    size_t first = 0;
    while (first < rest.size() && isSpace(rest[first]))
        ++first;
    if (first >= rest.size() || rest[first] != '"') {
        error = "MONITOR arguments must be double-quoted";
        return without(MonitorLineKind::Malformed);
    }
    if (!splitCommandLine(rest, args, error))
        return MonitorLineKind::Malformed;
    if (args.empty()) {
        error = "no command after the client address";
        return MonitorLineKind::Malformed;
    }
    return MonitorLineKind::Command;
}

bool isCommandName(std::string_view name)
{
    if (name.empty() || name.size() > 64)
        return false;
    const char c0 = name[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z')))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
            || c == '-' || c == '|';
    });
}

RespParse parseRespCommand(std::string_view buffer, std::vector<std::string> &args, size_t &consumed,
                           std::string &error, size_t maxBulk, size_t maxCommand)
{
    ArgumentSlots argumentSlots(args);
    size_t p = 0;
    // Reads "<marker><integer>\r\n" at p.
    auto readHeader = [&](char marker, long long &value) -> RespParse {
        if (p >= buffer.size())
            return RespParse::NeedMore;
        if (buffer[p] != marker) {
            error = std::string("expected '") + marker + "', got '" + printable(buffer.substr(p, 1)) + "'";
            return RespParse::Malformed;
        }
        const size_t lineEnd = buffer.find("\r\n", p);
        if (lineEnd == std::string_view::npos)
            return buffer.size() - p > 32 ? (error = "header without CRLF", RespParse::Malformed) : RespParse::NeedMore;
        const auto result = std::from_chars(buffer.data() + p + 1, buffer.data() + lineEnd, value);
        if (result.ec != std::errc() || result.ptr != buffer.data() + lineEnd || value < 0) {
            error = std::string("invalid length after '") + marker + "'";
            return RespParse::Malformed;
        }
        p = lineEnd + 2;
        return RespParse::Complete;
    };
    long long count = 0;
    RespParse state = readHeader('*', count);
    if (state != RespParse::Complete)
        return state;
    if (count == 0 || count > 1000000) {
        error = "array of " + std::to_string(count) + " elements is not a command";
        return RespParse::Malformed;
    }
    size_t announced = 0;
    for (long long k = 0; k < count; ++k) {
        long long length = 0;
        state = readHeader('$', length);
        if (state != RespParse::Complete)
            return state;
        if (size_t(length) > maxBulk) {
            error = "bulk string of " + std::to_string(length) + " bytes exceeds the limit of " + std::to_string(maxBulk);
            return RespParse::Malformed;
        }
        // Checked as each header is read, before its bytes are: a command is held about three
        // times (file buffer, arguments, the RESP sent), so the bound keeps that near 1.5 GiB.
        announced += size_t(length);
        if (announced > maxCommand) {
            error = "command larger than the limit of " + std::to_string(maxCommand) + " bytes: its first "
                + std::to_string(k + 1) + " of " + std::to_string(count) + " arguments announce "
                + std::to_string(announced) + " bytes";
            return RespParse::Malformed;
        }
        if (buffer.size() - p < size_t(length) + 2)
            return RespParse::NeedMore;
        if (buffer[p + size_t(length)] != '\r' || buffer[p + size_t(length) + 1] != '\n') {
            error = "bulk string not followed by CRLF";
            return RespParse::Malformed;
        }
        const std::string_view argument = buffer.substr(p, size_t(length));
        argumentSlots.next().assign(argument.data(), argument.size());
        argumentSlots.keep();
        p += size_t(length) + 2;
    }
    consumed = p;
    return RespParse::Complete;
}

std::string refusedCommand(const std::vector<std::string> &args)
{
    // Asked for every command a capture sends: the name is upper-cased in place, not copied.
    char buffer[24];
    if (args.empty() || args[0].size() >= sizeof buffer)
        return {};   // no refused command has a name that long
    std::transform(args[0].begin(), args[0].end(), buffer, [](unsigned char c) { return char(std::toupper(c)); });
    const std::string_view upperName(buffer, args[0].size());
    for (const char *refused : refusedAlways) {
        if (upperName == refused) {
            const std::string name(upperName);
            if ((name == "CONFIG" || name == "CLIENT" || name == "ACL" || name == "CLUSTER" || name == "DEBUG"
                 || name == "MODULE" || name == "MEMORY" || name == "LATENCY" || name == "SLOWLOG")
                && args.size() > 1)
                return name + " " + upper(args[1]);
            return name;
        }
    }
    if (args.size() > 1 && (upperName == "SCRIPT" || upperName == "FUNCTION")) {
        const std::string sub = upper(args[1]);
        for (const RefusedSub &refused : refusedSubcommands)
            if (upperName == refused.command && sub == refused.subcommand)
                return std::string(upperName) + " " + sub;
    }
    // XREAD/XREADGROUP only block with BLOCK.
    if (upperName == "XREAD" || upperName == "XREADGROUP") {
        for (size_t i = 1; i < args.size(); ++i)
            if (upper(args[i]) == "BLOCK")
                return std::string(upperName) + " BLOCK";
    }
    return {};
}

namespace {

// "<seconds>.<micros> [" near the start: the shape of a MONITOR line.
bool looksLikeMonitorLine(std::string_view line)
{
    size_t i = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        ++i;
    const size_t bracket = line.find(" [");
    return i > 0 && i < line.size() && line[i] == '.' && bracket != std::string_view::npos && bracket < 32;
}

} // namespace

bool detectCaptureFormat(std::string_view head, CaptureFormat &format, bool &isEvents, std::string &error,
                         long long whiteSpaceBefore)
{
    isEvents = false;
    size_t start = 0;
    while (start < head.size() && isSpace(head[start]))
        ++start;
    if (start >= head.size()) {
        error = head.empty() && whiteSpaceBefore == 0 ? "the file is empty" : "the file holds only white space";
        return false;
    }
    if (head[0] == '*' && whiteSpaceBefore == 0) {
        format = CaptureFormat::Resp;
        return true;
    }
    // Text formats: any NUL or a run of control bytes in the head means binary data.
    size_t control = 0;
    for (size_t i = 0; i < head.size(); ++i) {
        const unsigned char u = static_cast<unsigned char>(head[i]);
        if (u == 0 || (u < 0x20 && !isSpace(char(u)))) {
            if (u == 0 || ++control > 8) {
                error = "binary data at byte " + std::to_string(whiteSpaceBefore + (long long)i) + " (expected events as JSON Lines, MONITOR "
                        "output, a command file, or RESP starting with '*')";
                return false;
            }
        }
    }
    if (head[start] == '{') {
        isEvents = true;
        return true;
    }
    // The first meaningful lines vote between MONITOR output and a command file: one damaged
    // line at the top must not turn a MONITOR capture into commands named after timestamps.
    int monitorLines = 0;
    int lines = 0;
    size_t lineStart = start;
    while (lineStart < head.size() && lines < formatVoteLines) {
        size_t lineEnd = head.find('\n', lineStart);
        const bool cut = lineEnd == std::string_view::npos;   // the head may end inside a line
        if (cut)
            lineEnd = head.size();
        std::string_view line = head.substr(lineStart, lineEnd - lineStart);
        while (!line.empty() && isSpace(line.back()))
            line.remove_suffix(1);
        if ((!cut || lines == 0) && !line.empty() && line != "OK" && line[0] != '#') {
            ++lines;
            if (looksLikeMonitorLine(line))
                ++monitorLines;
        }
        lineStart = lineEnd + 1;
    }
    format = monitorLines * 2 > lines ? CaptureFormat::Monitor : CaptureFormat::CommandFile;
    return true;
}
