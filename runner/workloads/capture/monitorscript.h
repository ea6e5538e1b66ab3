#pragma once
// MONITOR prints the commands a script runs as lines of their own, with `lua` as the client
// ("1700000000.2 [0 lua] \"INCR\" \"c\""), right after the EVAL, EVALSHA or FCALL that ran them
// (a script runs atomically, so no other client's line comes between). Replaying both would
// apply the script twice: the script call is replayed (it runs them again) and its own lines are
// counted under kScriptLineLabel, never sent. `[lua]` lines with no script call before them (a
// capture that began inside a script) are replayed, since nothing else would run them.

#include <string>
#include <string_view>
#include <vector>

inline constexpr const char *kScriptLineLabel = "command run by a replayed script ([lua] line)";

// True when `line` is a MONITOR line whose client field is `lua`.
bool isScriptIssuedMonitorLine(std::string_view line);

// EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, FCALL, FCALL_RO (any case).
bool isScriptCall(std::string_view command);

class ScriptLineFilter {
public:
    // Called with every MONITOR command line in order, `args` as parsed: true when the line is
    // run by the script call replayed just before it.
    bool ranByReplayedScript(std::string_view line, const std::vector<std::string> &args);

private:
    bool m_afterScriptCall = false;
};
