#pragma once
// The one place a pass's events become batches: it reads the workload's events, keeps the
// pass's commands (its type, the send filter) and appends their RESP to a reusable batch.
// Two suppliers hand those batches to the replay (passreplayer.cpp): BatchProducer encodes
// ahead on a thread of its own (large pipelines), InlineBatches on the replay's own thread
// while the batch before is on the wire (small ones, where handing each batch from one thread
// to another costs more than encoding it).
//
// The batches hold exactly the bytes appendResp() gives for each command, in the order the
// source yields them, so every server receives byte-identical traffic whichever supplier runs.

#include "workload.h"
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

struct SendFilter;

// One pipeline as it goes on the wire, and what the pass counts of it.
struct EncodedBatch {
    std::string resp;                 // the commands, RESP-encoded, back to back
    std::vector<std::uint32_t> names; // per command: its name's index in the supplier's names()
    std::vector<std::uint32_t> refused; // per command the send filter kept back: its label's index
    long long events = 0;             // events read for this batch (and for empty ones before it)
    long long eventsSent = 0;         // of those, events that produced at least one command

    void clear();
};

struct ProducerOptions {
    std::string onlyType;             // empty: every command
    int eventsPerBatch = 1;
    const SendFilter *filter = nullptr;
    const std::atomic<bool> *cancelled = nullptr;   // stops the reading early
};

class BatchEncoder {
public:
    // `namesLock`, when given, is taken while a new name is appended to names(): another
    // thread reads them under it. `source` must outlive the encoder.
    BatchEncoder(CommandSource &source, const ProducerOptions &options, std::mutex *namesLock = nullptr);

    // Fills `batch` with the next events' commands; a group of events that sends nothing is
    // not a batch, its counts go with the next group that sends something. False when the
    // source has nothing more (ended, failed: see source().error()) or `stop` is set; the
    // batch then holds only the counts of what was read.
    bool fill(EncodedBatch &batch, const std::atomic<bool> *stop = nullptr);

    const std::vector<std::string> &names() const { return m_names; }
    const CommandSource &source() const { return m_source; }

private:
    bool stopping(const std::atomic<bool> *stop) const;
    std::uint32_t indexOf(const std::string &name);

    CommandSource &m_source;
    const ProducerOptions m_options;
    std::mutex *m_namesLock;
    EventCommands m_event;
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::uint32_t> m_index;
};

// What the replay takes its batches from. Single consumer: every call from one thread.
class BatchSupply {
public:
    virtual ~BatchSupply() = default;
    // The next batch, in order; it holds commands, or, at the end or after a cancel, only the
    // counts of events that sent none. Null once there is none left: then error() says
    // whether the source failed. The batch stays valid until recycle().
    virtual const EncodedBatch *next() = 0;
    virtual void recycle() = 0;
    // Called while the batch taken last is on the wire and its replies are awaited: a supplier
    // on this thread encodes the next one now.
    virtual void whileWaiting() {}
    // The source's error, once next() returned null; empty when it simply ended.
    virtual const QString &error() const = 0;
    // Command names and refusal labels by index, as the batches taken so far use them.
    virtual const std::vector<std::string> &names() const = 0;
};

// Encodes on the caller's thread: the next batch while the one before is awaited
// (whileWaiting()), so the server works while the client encodes, with no second thread.
class InlineBatches : public BatchSupply {
public:
    InlineBatches(CommandSource &source, const ProducerOptions &options);
    const EncodedBatch *next() override;
    void recycle() override;
    void whileWaiting() override;
    const QString &error() const override { return m_error; }
    const std::vector<std::string> &names() const override { return m_encoder.names(); }

private:
    // Fills the slot after the current one, once; false when nothing more came.
    void encodeAhead();

    BatchEncoder m_encoder;
    EncodedBatch m_slots[2];
    int m_current = 0;
    bool m_holding = false;
    bool m_aheadReady = false;   // m_slots[1 - m_current] holds the next batch
    bool m_ended = false;        // the source has nothing more after the batch ahead
    QString m_error;
};

// The supplier for a pass: inline for pipelines of up to kInlineEventsPerBatch events, the
// producer thread (batchproducer.h) for larger ones.
constexpr int kInlineEventsPerBatch = 16;
std::unique_ptr<BatchSupply> makeBatchSupply(CommandSource &source, const ProducerOptions &options);
