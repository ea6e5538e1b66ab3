#include "batchproducer.h"

#include <algorithm>
#include <pthread.h>

BatchProducer::BatchProducer(CommandSource &source, const ProducerOptions &options)
    : m_source(source), m_encoder(source, options, &m_mutex)
{
    m_thread = std::thread([this] { run(); });
    pthread_setname_np(m_thread.native_handle(), "replay encode");
}

BatchProducer::~BatchProducer()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_stopRequested.store(true);
    }
    m_changed.notify_all();
    m_thread.join();
}

bool BatchProducer::mayFill(bool resuming) const
{
    const int inUse = kSlots - m_free;   // ready, or held by the consumer
    if (m_free == 0)
        return false;
    if (inUse <= 1)
        return true;   // one in flight and this one: always
    return m_aheadBytes < kMaxAheadBytes && (!resuming || m_free >= kSlots / 2);
}

void BatchProducer::run()
{
    int tail = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            if (!mayFill(false)) {
                // Woken for every freed slot, the thread would switch once per batch: it waits
                // until half the ring is free.
                m_producerWaits = true;
                m_changed.wait(lock, [this] { return m_stop || mayFill(true); });
                m_producerWaits = false;
            }
            if (m_stop)
                return;
            --m_free;
        }
        EncodedBatch &batch = m_slots[tail];
        const bool more = m_encoder.fill(batch, &m_stopRequested);
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!more && !m_source.error().isEmpty()) {
            // As before the producer: a source that fails sends nothing of its last batch.
            m_sourceError = m_source.error();
            ++m_free;
        } else {
            tail = (tail + 1) % kSlots;
            ++m_ready;
            m_aheadBytes += batch.resp.size();
        }
        m_done = !more;
        if (m_consumerWaits)
            m_changed.notify_all();
        if (!more)
            return;
    }
}

const EncodedBatch *BatchProducer::next()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_ready == 0 && !m_done) {
        m_consumerWaits = true;
        m_changed.wait(lock, [this] { return m_ready > 0 || m_done; });
        m_consumerWaits = false;
    }
    if (m_ready == 0) {
        m_error = m_sourceError;
        return nullptr;
    }
    // New names only: in the steady state this copies nothing.
    const std::vector<std::string> &names = m_encoder.names();
    for (size_t i = m_taken.size(); i < names.size(); ++i)
        m_taken.push_back(names[i]);
    --m_ready;
    m_holding = true;
    return &m_slots[m_head];
}

void BatchProducer::recycle()
{
    // Still held, so the producer does not touch it. A slot of an unusually large batch gives
    // its memory back: the ring goes round all its slots, and four of them keeping the
    // largest batch would hold four times its size.
    // (m_holding is only ever written by the consumer, this thread.)
    if (!m_holding)
        return;
    EncodedBatch &slot = m_slots[m_head];
    const size_t bytes = slot.resp.size();
    if (slot.resp.capacity() > kMaxAheadBytes / kSlots)
        std::string().swap(slot.resp);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_holding = false;
    m_aheadBytes -= bytes;
    m_head = (m_head + 1) % kSlots;
    ++m_free;
    if (m_producerWaits && mayFill(true))
        m_changed.notify_all();
}
