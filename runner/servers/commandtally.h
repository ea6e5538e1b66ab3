#pragma once
// Commands Versus sent, counted the way INFO commandstats counts them, and the reconciliation
// of a timed pass: the server's counts less Versus's own control commands are the workload's
// figures, and whatever the server counted beyond what Versus sent is reported, never hidden.
//
// Versus's own commands are told apart by the connection that sent them (every control
// connection keeps a tally), not by their names: a capture's own PING, INFO or SCAN is timed
// like any other command (docs/MEASUREMENT.md, "Versus's own commands").

#include "commandstat.h"
#include <QString>
#include <map>
#include <string>
#include <vector>

class CommandTally {
public:
    // One command: under its name ("info") and, when it has an argument, also under
    // "name|argument" ("client|info"), the row commandstats keeps for a container's subcommand.
    void add(const std::vector<std::string> &args);
    // `count` commands of this name, whatever their arguments.
    void addName(const std::string &name, long long count = 1);
    void merge(const CommandTally &other);
    void clear();
    bool empty() const { return m_commands.empty(); }

    // The commands counted under one commandstats row: "set" → every SET, "object|encoding" →
    // the OBJECT ENCODING commands (known only for commands counted with add()).
    long long ofRow(const QString &row) const;
    // Lower case, without a subcommand: "object" → every OBJECT command.
    long long ofCommand(const QString &name) const;
    const std::map<QString, long long> &byCommand() const { return m_commands; }

private:
    std::map<QString, long long> m_commands;      // lower case
    std::map<QString, long long> m_subcommands;   // "name|argument", lower case
};

struct ReconciledStats {
    // The rows of the commands the workload sent, with Versus's own calls taken out.
    std::map<QString, CommandStat> workload;
    // "SET" (or "CONFIG SET") → calls the server counted beyond what Versus sent.
    std::map<QString, long long> countedNotSent;
};

// `counted` is the server's INFO commandstats since CONFIG RESETSTAT; `workloadSent` the
// workload's commands sent since then; `versusOwn` Versus's control commands since then.
// A row's µs stay as the server counted them: keep Versus's commands off the rows of the
// workload's commands during a timed pass when its µs must be exact.
ReconciledStats reconcileCommandStats(const std::map<QString, CommandStat> &counted, const CommandTally &workloadSent,
                                      const CommandTally &versusOwn);

// "config|set" → "CONFIG SET".
QString commandLabel(const QString &row);
