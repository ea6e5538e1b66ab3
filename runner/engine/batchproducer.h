#pragma once
// Encodes a pass's batches ahead of the connection that sends them. A thread of its own reads
// the workload's events, filters them (the pass's type, the send filter) and turns their
// commands into RESP, batch after batch, into a ring of kSlots reusable batches, while the
// replay thread sends the one before and reads its replies. Memory stays bounded (at most
// kSlots batches exist, each with its buffers kept from the batch before, and only two once
// they hold kMaxAheadBytes) and nothing is allocated per command once the buffers have grown
// to the workload's batches.
//
// The batches are BatchEncoder's (batchencoder.h), the same bytes InlineBatches gives.
//
// Single consumer: next() and recycle() are called from one thread, the one that owns the
// producer. The destructor stops the thread and waits for it (it ends within one event).

#include "batchencoder.h"
#include <QString>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class BatchProducer : public BatchSupply {
public:
    static constexpr int kSlots = 4;
    // Past this many bytes encoded and not yet handed back, no third batch is started: a
    // large --batch keeps two batches (one in flight, one encoded), not four.
    static constexpr size_t kMaxAheadBytes = size_t(64) << 20;

    // Starts encoding at once. `source` must outlive the producer.
    BatchProducer(CommandSource &source, const ProducerOptions &options);
    ~BatchProducer();
    BatchProducer(const BatchProducer &) = delete;
    BatchProducer &operator=(const BatchProducer &) = delete;

    // The next batch, in order; it holds commands, or, at the end or after a cancel, only the
    // counts of events that sent none. Null once there is none left: then error() says
    // whether the source failed. The batch stays valid until recycle().
    const EncodedBatch *next() override;
    void recycle() override;
    // The source's error, once next() returned null; empty when it simply ended.
    const QString &error() const override { return m_error; }
    // Command names and refusal labels by index, as the batches taken so far use them.
    const std::vector<std::string> &names() const override { return m_taken; }

private:
    void run();
    // Under m_mutex: whether the producer may fill a slot now; `resuming` after a wait asks
    // for half the ring free, so that it is not woken for every batch.
    bool mayFill(bool resuming) const;

    CommandSource &m_source;
    EncodedBatch m_slots[kSlots];

    // Shared under m_mutex. Slots go round: m_head is the consumer's next (or current) slot.
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_head = 0;
    int m_ready = 0;           // filled and not yet taken
    int m_free = kSlots;       // neither filled nor taken
    size_t m_aheadBytes = 0;   // RESP in the slots filled and not yet recycled
    bool m_holding = false;    // the consumer holds the slot at m_head
    bool m_done = false;       // the producer published its last batch
    bool m_stop = false;
    std::atomic<bool> m_stopRequested{false};   // m_stop, read by the encoder without the lock
    bool m_producerWaits = false;
    bool m_consumerWaits = false;
    QString m_sourceError;
    // The producer's own; it appends new names under m_mutex.
    BatchEncoder m_encoder;
    // The consumer's own.
    std::vector<std::string> m_taken;
    QString m_error;

    std::thread m_thread;
};
