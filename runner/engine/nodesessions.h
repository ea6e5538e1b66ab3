#pragma once
// The measuring side of a server that is one node, or a cluster's primaries: one ServerSession
// per node, each asked in turn, and the figures summed over the nodes (memory, keys,
// commandstats, Versus's own commands), with the per-node readings kept where the bundle keeps
// them. A standalone server is one node and is measured exactly as a ServerSession measures it.
// Belongs to the worker thread that created it.

#include "commandstat.h"
#include "commandtally.h"
#include "credentials.h"
#include "outcome.h"
#include "memoryreport.h"
#include "serversession.h"
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

struct NodeAddress {
    QString host;
    int port = 0;
    Credentials control;   // the measuring connection's login
    Credentials replay;    // the replay connections' login
    TlsSettings tls;       // every connection to the node: plain, or TLS (tlssettings.h)
    QString name;          // "valkey-9.1.2 · cluster ×3 (127.0.0.1:40001)"
    QString slotRanges;         // "0-5460"; empty for a standalone server
    qint64 pid = 0;        // the server's pid where Versus launched it, else 0
    QString announced;     // a cluster node's name in MOVED and ASK replies when not its host (clustertopology.h)
};

class NodeSessions {
public:
    Status connect(const std::vector<NodeAddress> &nodes, int timeoutMs);
    int size() const { return int(m_sessions.size()); }
    ServerSession &node(int index) { return *m_sessions[size_t(index)]; }
    ServerSession &first() { return node(0); }
    const std::vector<NodeAddress> &addresses() const { return m_addresses; }
    // An endpoint's replay login is known only once its access is prepared (replayaccess.h).
    void setReplayCredentials(int index, const Credentials &replay) { m_addresses[size_t(index)].replay = replay; }

    // As ServerSession does, on every node.
    Status resetStats();
    void setResetByDifference(bool byDifference);
    Status forgetNonData();   // ServerSession::forgetNonData() on every node
    Status flushSync(int timeoutMs);
    Status noteIdleClients();
    // Versus's own commands on every node's measuring connection, together.
    CommandTally ownCommands() const;
    // Per node, in the nodes' order.
    Outcome<std::vector<long long>> usedMemory();
    Outcome<std::vector<long long>> settledUsedMemory(int timeoutMs);
    Outcome<std::vector<long long>> dbSizes();
    // Every node's evicted keys and out-of-memory refusals, summed.
    Outcome<ServerSession::LossCounters> lossCounters();
    // INFO commandstats of every node, summed by command.
    Outcome<std::map<QString, CommandStat>> commandStats();
    // Every node's clock (ServerSession::serverClock()), summed.
    Outcome<ServerClock> serverClock();
    // The server time Versus's own reads took while a timed pass ran (the live probe's, read
    // around them), gathered for the pass to take off its own; taking it starts again.
    void addOwnReadTime(const ServerClock &cost);
    std::optional<ServerClock> takeOwnReadTime() { return std::exchange(m_ownReadTime, std::nullopt); }
    // Every node's keys surveyed, the counts and encodings summed.
    Outcome<ServerSession::KeySurvey> surveyKeys();
    // MEMORY STATS and MALLOC-STATS summed over the nodes (memoryreport.h).
    Outcome<MemoryAccounting> memoryAccounting();
    QStringList takeNotes();

private:
    std::vector<NodeAddress> m_addresses;
    std::vector<std::unique_ptr<ServerSession>> m_sessions;
    std::optional<ServerClock> m_ownReadTime;
};

long long sumOf(const std::vector<long long> &values);
