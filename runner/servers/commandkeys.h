#pragma once
// Which arguments of a command are keys, as the server describes its commands (COMMAND INFO:
// first key, last key, step, and the movablekeys flag). Cluster mode needs a command's keys to
// send it to the node owning their slot and to refuse, before anything is sent, a command
// whose keys fall in different slots. Scripts and functions name their keys with a count
// (EVAL script numkeys key…); other commands with movable keys (ZUNIONSTORE, SORT …) are not
// read here: keysOf() says so instead of guessing.

#include "outcome.h"
#include "redisconnection.h"
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct CommandKeySpec {
    int first = 0;        // 0: the command takes no key
    int last = 0;         // negative: counted from the end, -1 the last argument
    int step = 0;
    bool movable = false; // COMMAND INFO flag movablekeys
};

class CommandKeys {
public:
    // COMMAND INFO for `names` (upper or lower case); a name the server does not know is left
    // out (keysOf() then has no answer for it).
    static Outcome<CommandKeys> fromServer(RedisConnection &connection, const std::vector<std::string> &names);

    void add(const std::string &name, const CommandKeySpec &spec);
    // The keys of `args` (args[0] the command name), empty for a command without keys;
    // nothing when the command is unknown here or its keys cannot be found from the spec.
    std::optional<std::vector<std::string_view>> keysOf(const std::vector<std::string> &args) const;
    // Whether the server described `name` (any case); scripts count as known, their keys
    // are in their arguments.
    bool knows(const std::string &name) const;

private:
    std::map<std::string, CommandKeySpec> m_specs;   // by lower-case name
};
