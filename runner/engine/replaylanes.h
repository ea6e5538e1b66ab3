#pragma once
// The replay's connections to one server, or to each primary of a cluster: one lane per
// connection, several per node with --clients, as several clients of an application would
// each hold one. Each lane has at most one pipeline on the wire; one thread keeps every lane
// busy, sending on whichever is free and reading whichever replies come first (poll()), so the
// server always has the next request waiting while a lane's replies travel back. The encoder
// sends every command on one key down the same lane (batchencoder.h), so order holds per key.
//
// A request's buffers are swapped into the lane, not copied: the lane keeps its bytes (a MOVED
// or ASK reply sends a command again) until the lane is next used. Belongs to one pass's thread.

#include "batchencoder.h"
#include "outcome.h"
#include <chrono>
#include <functional>
#include <poll.h>
#include <vector>

class RedisConnection;
class ReplyScanner;

class ReplayLanes {
public:
    struct Completed {
        size_t lane = 0;
        const NodeRequest &request;      // what was sent: its names and bytes
        const ReplyScanner &replies;     // its error replies, by place
        double roundTripUsec = 0;        // sent to last reply
    };
    using OnCompleted = std::function<void(const Completed &)>;

    // `spin`: before poll() sleeps, look for replies without sleeping for up to kSpin. On this
    // machine's loopback one event's round trip is shorter than that, and the wake-up it saves
    // is a large part of it (docs/PERFORMANCE.md, "Waiting without sleeping").
    ReplayLanes(std::vector<RedisConnection *> connections, bool spin);

    size_t size() const { return m_lanes.size(); }
    bool busy(size_t lane) const { return m_lanes[lane].busy; }
    bool anyBusy() const { return m_busy > 0; }
    RedisConnection &connection(size_t lane) const { return *m_lanes[lane].connection; }

    // Sends `request` on `lane`, which must be idle; `request` gets the lane's old buffers.
    Status send(size_t lane, NodeRequest &request);
    // Until `lane` is free; lanes that complete meanwhile are handed to `done`, each once.
    Status waitFor(size_t lane, const OnCompleted &done);
    // Until every lane is free.
    Status drain(const OnCompleted &done);
    // Time during which at least one lane had a request on the wire.
    double activeSeconds() const;

private:
    using Clock = std::chrono::steady_clock;
    struct Lane {
        RedisConnection *connection = nullptr;
        NodeRequest inflight;
        bool busy = false;
        Clock::time_point sent;
    };
    // Waits until a busy lane has bytes (at most a short slice), reads those that have, and
    // completes every lane whose replies are all in. A lane silent past its connection's
    // timeout is an Error naming it.
    Status collect(const OnCompleted &done);
    // poll() over m_ready: without sleeping for up to kSpin when spinning, then sleeping.
    int pollReady();
    void finish(size_t lane, const OnCompleted &done);

    static constexpr std::chrono::microseconds kSpin{100};

    std::vector<Lane> m_lanes;
    bool m_spin = false;
    std::vector<pollfd> m_ready;       // collect()'s, kept to be reused
    std::vector<size_t> m_readyLanes;
    size_t m_busy = 0;
    Clock::time_point m_activeSince;
    Clock::duration m_active{0};
};
