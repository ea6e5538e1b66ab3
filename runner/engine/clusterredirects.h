#pragma once
// A cluster's MOVED and ASK replies during a replay, followed as the cluster specification asks
// of a client: the redirected command is sent again, in the order it was first sent, to the
// primary the reply names, after ASKING for an ASK (a slot being migrated); a MOVED also moves
// its slot in the routing, so later commands go straight to the new owner. A TRYAGAIN (a
// multi-key command whose keys a migration has split) is sent again to the same node a few
// milliseconds later. Every redirect and retry is counted. A redirect to a node that was not a primary when the pass began is an Error: that
// node's memory and commandstats would be missing from the figures. A command redirected more
// than kMostHops times in a row is an Error too (a cluster whose slot map does not settle).
// Belongs to one pass's thread.

#include "outcome.h"
#include <QString>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

class ClusterRouting;
class RedisConnection;

struct NodeEndpoint {
    std::string host;        // as the cluster gives it (CLUSTER SHARDS ip)
    int port = 0;
    std::string announced;   // as MOVED names it when not by `host` (a hostname); may be empty
};

// "MOVED 3999 127.0.0.1:6381" or "ASK 3999 127.0.0.1:6381": what a redirect says.
struct Redirect {
    bool ask = false;
    int slot = -1;
    std::string host;   // "?" when the node's endpoint is unknown: the node that replied
    int port = 0;
};
bool parseRedirect(const std::string &reply, Redirect &redirect);

class ClusterRedirects {
public:
    static constexpr int kMostHops = 5;
    static constexpr int kRetryWaitMs = 10;

    // `nodes` are the pass's connections' nodes, in the routing's primary order.
    ClusterRedirects(ClusterRouting &routing, std::vector<NodeEndpoint> nodes);

    // An error reply to a command sent to `node` (after ASKING when `asking`): when it is a
    // MOVED, ASK or TRYAGAIN, keeps the command (`bytes`, its name's index `name`) to be sent
    // again and returns true.
    bool take(size_t node, std::uint32_t name, std::string_view bytes, const std::string &reply, bool asking = false);
    bool pending() const { return !m_pending.empty() || !m_unknownTarget.isEmpty(); }

    // Sends every command taken, each node's in the order taken, and reads every reply; a reply
    // redirected again is taken again and followed. Other error replies go to `otherError`
    // with the command's name (`names` by the index given to take(); "ASKING" for its own).
    using ErrorSink = std::function<void(const std::string &command, const std::string &reply)>;
    Status follow(const std::vector<RedisConnection *> &connections, const std::vector<std::string> &names,
                  const ErrorSink &otherError);

    long long moved() const { return m_moved; }
    long long asked() const { return m_asked; }
    long long retried() const { return m_retried; }
    // The ASKING commands sent (Versus's own: taken off the server's commandstats).
    long long askingSent() const { return m_askingSent; }

private:
    struct Pending {
        size_t target = 0;
        bool ask = false;
        std::uint32_t name = 0;
        std::string bytes;
        QString reply;    // the last redirect, for an error
    };
    Status followTo(size_t target, const std::vector<Pending> &round, RedisConnection &connection,
                    const std::vector<std::string> &names, const ErrorSink &otherError);
    // Where `redirect`, received from `from`, points; -1 (and m_unknownTarget set) outside the pass.
    int targetOf(const Redirect &redirect, size_t from);

    ClusterRouting &m_routing;
    std::vector<NodeEndpoint> m_nodes;
    std::vector<Pending> m_pending;
    QString m_unknownTarget;   // a redirect to a node outside the pass, once taken
    long long m_moved = 0;
    long long m_asked = 0;
    long long m_retried = 0;
    long long m_askingSent = 0;
    bool m_waitBeforeNext = false;   // a TRYAGAIN is among the pending commands
};

