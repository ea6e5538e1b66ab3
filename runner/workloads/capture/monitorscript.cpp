#include "monitorscript.h"

#include <algorithm>
#include <cctype>

bool isScriptIssuedMonitorLine(std::string_view line)
{
    // "<timestamp> [<db> <client>] …": the client is the last word before the first ']'.
    const size_t open = line.find(" [");
    const size_t close = line.find("] ");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return false;
    const std::string_view inside = line.substr(open + 2, close - open - 2);
    const size_t space = inside.rfind(' ');
    return space != std::string_view::npos && inside.substr(space + 1) == "lua";
}

bool isScriptCall(std::string_view command)
{
    // Asked for every MONITOR line: upper-cased in place, never copied to the heap.
    char buffer[16];
    if (command.size() > sizeof buffer)
        return false;   // longer than any script command
    std::transform(command.begin(), command.end(), buffer, [](unsigned char c) { return char(std::toupper(c)); });
    const std::string_view upper(buffer, command.size());
    return upper == "EVAL" || upper == "EVALSHA" || upper == "EVAL_RO" || upper == "EVALSHA_RO" || upper == "FCALL"
        || upper == "FCALL_RO";
}

bool ScriptLineFilter::ranByReplayedScript(std::string_view line, const std::vector<std::string> &args)
{
    if (isScriptIssuedMonitorLine(line))
        return m_afterScriptCall;
    m_afterScriptCall = !args.empty() && isScriptCall(args.front());
    return false;
}
