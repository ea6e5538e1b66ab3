#pragma once
// Which primary of a cluster each command goes to: the one owning its keys' slot (the cluster
// specification's CRC16 with hash tags, clusterslots.h). A command whose keys fall in different
// slots cannot be sent to a cluster, nor one whose keys cannot be told from its arguments; both
// are found before anything is sent (checkWorkloadForCluster()), naming the command and the
// event. A command without keys (PING) goes to the first primary.

#include "clustertopology.h"
#include "commandkeys.h"
#include "outcome.h"
#include "workload.h"
#include <QString>
#include <string>
#include <vector>

class ClusterRouting {
public:
    ClusterRouting(const CommandKeys &keys, const ClusterTopology &topology);
    // One standalone server, for its lanes (replaylanes.h): every slot is its own, and a
    // command whose keys span slots or cannot be told is no error there.
    static ClusterRouting standalone(const CommandKeys &keys);
    bool isCluster() const { return m_cluster; }

    // The index of the primary (in the topology's order) `args` goes to; an Error naming the
    // command when its keys span slots or cannot be found.
    Outcome<int> primaryOf(const std::vector<std::string> &args) const;
    // The slot of `args`' keys; -1 for a command without keys.
    Outcome<int> slotOf(const std::vector<std::string> &args) const;
    // The primary serving `slot` (0 … 16383), -1 where none does.
    int ownerOfSlot(int slot) const { return m_owner[size_t(slot)]; }
    // A MOVED reply said `slot` is now served by `primary`: later commands go there.
    void moveSlot(int slot, int primary);
    // How many slots have moved: a batch encoded before the last move may hold commands for a
    // slot's old owner (passreplayer.cpp lets them come back before a newer batch is sent).
    long long generation() const { return m_generation; }
    // The slots `primary` serves as far as the routing knows: "0-5460", "0-99,200-5460".
    QString slotRangesOf(int primary) const;

private:
    const CommandKeys &m_keys;
    std::vector<int> m_owner;   // slot -> primary index, -1 where none serves it
    bool m_cluster = true;
    long long m_generation = 0;
};

// Every command name the workload sends, upper case, each once, read from the workload itself
// (a capture's description lists them; the built-in workloads' do not).
Outcome<std::vector<std::string>> commandNamesSent(const Workload &workload);

// Reads the whole workload once and fails at its first command that cannot go to a cluster:
// "event 12: MSET a 1 b 2: its keys are in different slots (15495, 3300)".
Status checkWorkloadForCluster(const Workload &workload, const CommandKeys &keys);
