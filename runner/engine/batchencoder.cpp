#include "batchencoder.h"

#include "replayaccess.h"

#include <algorithm>

void EncodedBatch::clear()
{
    resp.clear();
    names.clear();
    refused.clear();
    events = 0;
    eventsSent = 0;
}

BatchEncoder::BatchEncoder(CommandSource &source, const EncodeOptions &options) : m_source(source), m_options(options) {}

bool BatchEncoder::stopping(const std::atomic<bool> *stop) const
{
    return (stop && stop->load(std::memory_order_relaxed))
        || (m_options.cancelled && m_options.cancelled->load(std::memory_order_relaxed));
}

std::uint32_t BatchEncoder::indexOf(const std::string &name)
{
    const auto found = m_index.find(name);
    if (found != m_index.end())
        return found->second;
    const auto index = std::uint32_t(m_names.size());
    m_names.push_back(name);
    m_index.emplace(name, index);
    return index;
}

bool BatchEncoder::fill(EncodedBatch &batch, const std::atomic<bool> *stop)
{
    batch.clear();
    const bool byType = !m_options.onlyType.empty();
    const bool filtering = m_options.filter && !m_options.filter->empty();
    const int perBatch = std::max(1, m_options.eventsPerBatch);
    while (batch.names.empty()) {
        if (stopping(stop))
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

EncodedBatches::EncodedBatches(CommandSource &source, const EncodeOptions &options) : m_encoder(source, options) {}

void EncodedBatches::encodeAhead()
{
    if (m_ended || m_aheadReady)
        return;
    EncodedBatch &ahead = m_slots[1 - m_current];
    const bool more = m_encoder.fill(ahead);
    if (!more) {
        m_ended = true;
        // As the producer does: a source that fails sends nothing of its last batch.
        if (!m_encoder.source().error().isEmpty()) {
            m_error = m_encoder.source().error();
            return;
        }
    }
    m_aheadReady = true;
}

const EncodedBatch *EncodedBatches::next()
{
    encodeAhead();
    if (!m_aheadReady)
        return nullptr;
    m_current = 1 - m_current;
    m_aheadReady = false;
    m_holding = true;
    return &m_slots[m_current];
}

void EncodedBatches::recycle()
{
    EncodedBatch &slot = m_slots[m_current];
    if (m_holding && slot.resp.capacity() > kKeptBytes)
        std::string().swap(slot.resp);
    m_holding = false;
}

void EncodedBatches::whileWaiting()
{
    if (m_holding)
        encodeAhead();
}
