#pragma once
// The one place a pass's events become batches: it reads the workload's events, keeps the
// pass's commands (its type, the send filter) and appends their RESP to a reusable batch.
// EncodedBatches hands them to the replay (passreplayer.cpp), encoding the next batch on the
// replay's own thread while the one before is on the wire, so the server works while the
// client encodes. (A producer thread of its own was measured against this on the 2-core
// machine and was slower and larger: docs/PERFORMANCE.md.)
//
// The batches hold exactly the bytes appendResp() gives for each command, in the order the
// source yields them, so every server receives byte-identical traffic.

#include "workload.h"
#include <QString>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

class ClusterRouting;
struct SendFilter;

// One node's part of a pipeline: its commands, RESP-encoded, back to back.
struct NodeRequest {
    std::string resp;
    std::vector<std::uint32_t> names; // per command: its name's index in the supplier's names()
    std::vector<size_t> ends;         // per command: where its bytes end in resp
    // The bytes of command `index`, to send it again (a cluster's MOVED or ASK reply).
    std::string_view command(size_t index) const;
};

// One pipeline as it goes on the wire, and what the pass counts of it. A standalone server is
// one node; a cluster's commands are split by the primary that owns their keys' slot, each
// node's in the order the source yields them. With several lanes per node (--clients, 
// replaylanes.h) they are split further by lane, a command going to lane slot % lanes of its
// node, so that every command on one key takes the same lane.
struct EncodedBatch {
    std::vector<NodeRequest> nodes;   // one per target, node by node, each node's lanes in order
    // A command that must not overlap any other (no keys, or keys in several slots on a
    // standalone server, or keys its arguments do not tell): every lane is drained before the
    // batch is sent and after.
    bool fenced = false;
    long long routingGeneration = 0;  // the routing's generation() when the batch was encoded
    std::vector<std::uint32_t> refused; // per command the send filter kept back: its label's index
    long long events = 0;             // events read for this batch (and for empty ones before it)
    long long eventsSent = 0;         // of those, events that produced at least one command

    void clear();
    size_t commandCount() const;
    bool empty() const { return commandCount() == 0; }
};

struct EncodeOptions {
    std::string onlyType;             // empty: every command
    int eventsPerBatch = 1;
    const SendFilter *filter = nullptr;
    const std::atomic<bool> *cancelled = nullptr;   // stops the reading early
    const ClusterRouting *routing = nullptr;   // a cluster's primaries, or a standalone server's lanes; null: one target
    int nodes = 1;                             // the routing's primaries
    int lanes = 1;                             // connections per node (needs `routing` when more than one)
};

class BatchEncoder {
public:
    // `source` must outlive the encoder.
    BatchEncoder(CommandSource &source, const EncodeOptions &options);

    // Fills `batch` with the next events' commands; a group of events that sends nothing is
    // not a batch, its counts go with the next group that sends something. False when the
    // source has nothing more (ended, failed: see error()) or `stop` is set; the batch then
    // holds only the counts of what was read.
    bool fill(EncodedBatch &batch, const std::atomic<bool> *stop = nullptr);

    const std::vector<std::string> &names() const { return m_names; }
    const CommandSource &source() const { return m_source; }
    // The source's error, or a command the routing could not place ("event 12: …").
    QString error() const;

private:
    bool stopping(const std::atomic<bool> *stop) const;
    std::uint32_t indexOf(const std::string &name);
    static constexpr int kSkipped = -2;   // placeEvent(): another type's command
    static constexpr int kRefused = -3;   // placeEvent(): kept back by the send filter
    // The target `command` goes to (node * lanes + lane); -1 (and m_routingError set) when it
    // cannot be placed. Sets `fenced` for a command that must not overlap others.
    int targetOf(const WorkloadCommand &command, bool &fenced) const;
    bool placeEvent(bool *fenced);
    bool inTransaction(const std::string &name);

    CommandSource &m_source;
    const EncodeOptions m_options;
    EventCommands m_event;
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::uint32_t> m_index;
    long long m_eventNumber = 0;
    mutable QString m_routingError;
    std::vector<int> m_targets;   // placeEvent()'s, per command of m_event
    bool m_held = false;          // m_event was read but goes in the next batch (it must go alone)
    bool m_transaction = false;   // between MULTI (or WATCH) and EXEC, DISCARD or UNWATCH
};

// The replay's batches, in order, two at most: the one on the wire and the next, encoded while
// the first is awaited (whileWaiting()). Memory stays bounded however long the workload, and
// nothing is allocated per command once the two batches' buffers have grown; a slot that held
// an unusually large batch gives its memory back.
class EncodedBatches {
public:
    static constexpr size_t kKeptBytes = size_t(16) << 20;

    EncodedBatches(CommandSource &source, const EncodeOptions &options);
    // The next batch, in order; it holds commands, or, at the end or after a cancel, only the
    // counts of events that sent none. Null once there is none left: then error() says
    // whether the source failed. The batch stays valid until recycle().
    EncodedBatch *next();
    void recycle();
    // Called while the batch taken last is on the wire and its replies are awaited: encodes
    // the next one now.
    void whileWaiting();
    // The source's error, once next() returned null; empty when it simply ended.
    const QString &error() const { return m_error; }
    // Command names and refusal labels by index, as the batches use them.
    const std::vector<std::string> &names() const { return m_encoder.names(); }

private:
    // Fills the slot after the current one, once.
    void encodeAhead();

    BatchEncoder m_encoder;
    EncodedBatch m_slots[2];
    int m_current = 0;
    bool m_holding = false;
    bool m_aheadReady = false;   // m_slots[1 - m_current] holds the next batch
    bool m_ended = false;        // the source has nothing more after the batch ahead
    QString m_error;
};
