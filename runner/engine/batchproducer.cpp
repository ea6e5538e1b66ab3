#include "batchproducer.h"

#include "replayaccess.h"

#include <algorithm>
#include <pthread.h>

void EncodedBatch::clear()
{
    resp.clear();
    names.clear();
    refused.clear();
    events = 0;
    eventsSent = 0;
}

BatchProducer::BatchProducer(CommandSource &source, const ProducerOptions &options)
    : m_source(source), m_options(options)
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

bool BatchProducer::stopping() const
{
    return m_stopRequested.load(std::memory_order_relaxed)
        || (m_options.cancelled && m_options.cancelled->load(std::memory_order_relaxed));
}

std::uint32_t BatchProducer::indexOf(const std::string &name)
{
    const auto found = m_index.find(name);
    if (found != m_index.end())
        return found->second;
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto index = std::uint32_t(m_names.size());
    m_names.push_back(name);
    m_index.emplace(name, index);
    return index;
}

bool BatchProducer::fill(EncodedBatch &batch)
{
    batch.clear();
    const bool byType = !m_options.onlyType.empty();
    const bool filtering = m_options.filter && !m_options.filter->empty();
    const int perBatch = std::max(1, m_options.eventsPerBatch);
    // A group of events that sends nothing (none of the pass's type) is not a batch: its
    // counts go with the next group that sends something, as one slot.
    while (batch.names.empty()) {
        if (stopping())
            return false;
        for (int events = 0; events < perBatch; ++events) {
            m_event.clear();
            if (!m_source.next(m_event))
                return false;
            ++batch.events;
            bool any = false;
            for (const WorkloadCommand &command : m_event.commands) {
                if (byType && command.type != m_options.onlyType)
                    continue;
                if (filtering) {
                    const std::string refused = m_options.filter->refusalOf(command.args);
                    if (!refused.empty()) {
                        batch.refused.push_back(indexOf(refused));
                        continue;
                    }
                }
                batch.names.push_back(indexOf(command.args.front()));
                appendResp(command, batch.resp);
                any = true;
            }
            if (any)
                ++batch.eventsSent;
        }
    }
    return true;
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
        const bool more = fill(batch);
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
    for (size_t i = m_taken.size(); i < m_names.size(); ++i)
        m_taken.push_back(m_names[i]);
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
