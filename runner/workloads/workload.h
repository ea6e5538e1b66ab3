#pragma once
// A workload is a deterministic stream of events, each translated into one pipeline of
// commands. Every server gets byte-identical commands, so the only variable is the server.

#include "outcome.h"
#include "workloadinfo.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

struct WorkloadCommand {
    std::vector<std::string> args;  // args[0] is the command name, as sent
    std::string type;               // attribute type (or hash-ttl pattern) the command writes to;
                                    // recorded at translation time, never guessed from key names
};

// The commands of one event: sent as one pipeline unless the engine batches several events.
// An EventCommands filled event after event allocates only while its events still grow:
// clear() keeps the commands, their argument strings and the memory those hold, and add()
// hands them out again, the first command's to the first command.
struct EventCommands {
    std::vector<WorkloadCommand> commands;

    void clear();
    // A command at the end with `type` and `args` copied in.
    WorkloadCommand &add(std::string_view type, std::initializer_list<std::string_view> args);
    // A command at the end as clear() kept it (its earlier type and arguments still in it),
    // or a new one: for a source that swaps arguments in.
    WorkloadCommand &add();

private:
    std::vector<WorkloadCommand> m_spare;   // kept by clear(), last one first out
    std::vector<std::string> m_spareArgs;
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

// Reads one pass of `workload` event by event (numbered from 1), stopping at the first error of
// `visit` or of the workload itself, which it returns.
Status forEachEvent(const Workload &workload, const std::function<Status(long long number, const EventCommands &event)> &visit);
