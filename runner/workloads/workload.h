#pragma once
// A workload is a deterministic stream of events, each translated into one pipeline of
// commands. Every server gets byte-identical commands, so the only variable is the server.

#include "outcome.h"
#include "workloadinfo.h"
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct WorkloadCommand {
    std::vector<std::string> args;  // args[0] is the command name, as sent
    std::string type;               // attribute type (or hash-ttl pattern) the command writes to;
                                    // recorded at translation time, never guessed from key names
};

// The commands of one event: sent as one pipeline unless the engine batches several events.
struct EventCommands {
    std::vector<WorkloadCommand> commands;
    void clear() { commands.clear(); }
};

// One pass over the workload. Sources stream: they never hold the whole recording in memory.
class CommandSource {
public:
    virtual ~CommandSource() = default;
    // Fills `out` with the next event's commands. Returns false at the end of the stream,
    // or on error, in which case error() names the file and line.
    virtual bool next(EventCommands &out) = 0;
    virtual QString error() const { return {}; }
    // Counters a capture keeps for commands it refused to send or lines it skipped.
    virtual std::map<std::string, long long> skipped() const { return {}; }
};

class Workload {
public:
    virtual ~Workload() = default;
    virtual WorkloadInfo describe() const = 0;
    // A fresh pass from the start. Each call yields the same bytes.
    virtual Outcome<std::unique_ptr<CommandSource>> open() const = 0;
};

// RESP encoding of one command, appended to `out`. Shared by the replay engine and the
// tests that hash the stream.
void appendResp(const WorkloadCommand &command, std::string &out);
