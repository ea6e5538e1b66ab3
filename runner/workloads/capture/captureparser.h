#pragma once
// Parsers for captured traffic (docs/WORKLOADS.md): `valkey-cli MONITOR` output, command files
// with valkey-cli quoting, and raw RESP; and the list of commands a replay must never send.

#include <string>
#include <string_view>
#include <vector>

enum class CaptureFormat {
    Monitor,      // 1700000000.123456 [0 127.0.0.1:6379] "SET" "k" "v\x00"
    CommandFile,  // SET k "v with spaces" 'single quoted'
    Resp,         // *3\r\n$3\r\nSET\r\n…
};

const char *captureFormatName(CaptureFormat format);

// Splits one line with valkey-cli quoting: bare words, "double quotes" with \" \\ \n \r \t
// \a \b \xHH escapes, 'single quotes' with \' only. A closing quote must end the argument.
// Returns false with `error` set (without location) on malformed input.
bool splitCommandLine(std::string_view line, std::vector<std::string> &args, std::string &error);

enum class MonitorLineKind { Command, Ignored, Malformed };
// Parses one MONITOR line. The "OK" valkey-cli prints first and blank lines are Ignored.
MonitorLineKind parseMonitorLine(std::string_view line, std::vector<std::string> &args, std::string &error);

// True when `name` looks like a command name (SET, JSON.SET, …): catches binary garbage early.
bool isCommandName(std::string_view name);

enum class RespParse { Complete, NeedMore, Malformed };
// Parses one command (an array of bulk strings) from the front of `buffer`. On Complete,
// `consumed` is its size in bytes. Bulk strings over `maxBulk` bytes are Malformed, and so is a
// command whose bulk strings add up to more than `maxCommand` bytes, refused as soon as the header
// that passes it is read. The default, 512 MiB, is a default server's proto-max-bulk-len: a command
// is held about three times (file buffer, arguments, the RESP sent), so this keeps it near 1.5 GiB.
constexpr size_t maxRespCommandBytes = size_t(512) << 20;
RespParse parseRespCommand(std::string_view buffer, std::vector<std::string> &args, size_t &consumed,
                           std::string &error, size_t maxBulk, size_t maxCommand = maxRespCommandBytes);

// Empty when the command may be sent; otherwise the label it is skipped and counted under,
// e.g. "FLUSHALL" or "CONFIG SET". Covers data-destroying, server-altering, blocking and
// connection-state commands (the list is in docs/WORKLOADS.md).
std::string refusedCommand(const std::vector<std::string> &args);

// How many of the first meaningful lines vote on the format: MONITOR output when most of them
// look like MONITOR lines, a command file otherwise.
constexpr int formatVoteLines = 50;
// How many bytes of a file the format is told from, after the white space it starts with.
constexpr size_t formatHeadBytes = 64 * 1024;
// Guesses the format from the first bytes of a file; false with `error` when the head is
// empty or binary. JSON Lines events (a first '{') are reported through `isEvents`.
// `whiteSpaceBefore`: bytes of white space the file starts with, skipped before `head` was read
// (blank lines before the first command); RESP starts at the first byte, so a file with any is
// read as text.
bool detectCaptureFormat(std::string_view head, CaptureFormat &format, bool &isEvents, std::string &error,
                         long long whiteSpaceBefore = 0);
