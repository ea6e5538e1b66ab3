#pragma once
// Replays one pass of a workload into one server, or into a cluster's primaries, over lanes:
// one connection, or --clients connections per node, each with one pipeline on the wire at a
// time (replaylanes.h). Each command goes to its node's lane for its keys' slot (a cluster's
// primary owning it), so the commands on one key keep their order; a command without keys, or
// (standalone) with keys in several slots, waits for every lane and goes alone. A cluster's
// MOVED and ASK replies are followed before anything else is sent (clusterredirects.h).
// Pipelined batches, every reply read and checked, optional lockstep turns (nothing on the wire
// when a turn is handed over), cancellation between batches. The next batch is encoded
// (batchencoder.h) while the lanes are busy, so the server waits on neither parsing nor
// encoding. A command the server's ACL refuses (replayrules.h), or one the send filter keeps
// back on an endpoint without ACL (replayaccess.h), is a refusal: counted by command, not an error.

#include "commandtally.h"
#include "outcome.h"
#include "redisconnection.h"
#include "workload.h"
#include <QString>
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

class ClusterRedirects;
class ClusterRouting;
class FairScheduler;
struct PassResult;
struct SendFilter;

struct PassOptions {
    std::string onlyType;                 // empty: every command; else only commands of this type
    int eventsPerBatch = 1;
    // Connections per node (--clients): `connections` holds this many per node, node by node,
    // and each command goes to the one its keys' slot picks (needs `routing` when more than 1).
    int lanes = 1;
    // Look for replies without sleeping for a short while before poll() sleeps (ReplayLanes):
    // only when the replay thread has a CPU the server does not use (the run's CPU plan),
    // since it keeps that CPU busy while replies travel.
    bool spinForReplies = false;
    FairScheduler *fair = nullptr;        // lockstep turns when set
    int workerIndex = 0;
    const std::atomic<bool> *cancelled = nullptr;
    const SendFilter *filter = nullptr;   // commands Versus refuses to send (an endpoint without ACL)
    const ClusterRouting *routing = nullptr;   // a cluster: one connection per primary, in its order
    ClusterRedirects *redirects = nullptr;     // a cluster: follows MOVED and ASK (moving slots in `routing`)
    // Called between batches while holding the turn, at most every `tickIntervalMs`, with
    // what the pass has done so far; used for progress and the live INFO probe.
    std::function<void(const PassResult &soFar)> tick;
    int tickIntervalMs = 100;
};

struct PassResult {
    long long events = 0;                 // events read from the source
    long long eventsSent = 0;             // events that produced at least one command
    long long commands = 0;
    double seconds = 0;                   // wall clock, including waits for the turn
    double activeSeconds = 0;             // time with a pipeline on the wire: comparable across schedules
    std::vector<float> batchLatencyUsec;  // pipeline round trips, one per request sent on a lane
    // "HSET: WRONGTYPE …" -> count; a command the server does not know is in unknownCommands instead.
    std::map<QString, long long> errors;
    std::map<QString, long long> refused; // "MIGRATE", "CONFIG SET" -> count: the ACL's or the filter's refusals
    std::map<std::string, long long> sent;   // command name as sent -> count, refusals by the server included
    std::map<std::string, long long> errorReplies;   // command name as sent -> error replies, refusals included
    QString firstUnknownCommandError;     // set when the server does not know a command
    std::map<QString, long long> unknownCommands;   // "HSETEX" -> commands the server did not know
    QString firstError;                   // the first error reply, "CMD: message", unknown commands aside
    long long moved = 0;                  // a cluster's MOVED replies, each followed (clusterredirects.h)
    long long asked = 0;                  // its ASK replies, each followed after an ASKING
    long long retried = 0;                // its TRYAGAIN replies, each sent again
    bool cancelled = false;

    double percentileUsec(double fraction) const;
};

// The workload's commands the pass sent so far, by name (commandtally.h).
CommandTally sentTally(const PassResult &pass);
// Those of them answered with an error (a refusal included): the server counts no call for most.
CommandTally errorTally(const PassResult &pass);

Outcome<PassResult> replayPass(const Workload &workload, RedisConnection &connection, const PassOptions &options);
// A cluster's primaries, options.lanes connections each in the routing's order (options.routing
// set), or one server's options.lanes connections.
Outcome<PassResult> replayPass(const Workload &workload, const std::vector<RedisConnection *> &connections,
                               const PassOptions &options);
