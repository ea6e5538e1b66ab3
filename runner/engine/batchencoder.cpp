#include "batchencoder.h"

#include "clusterrouting.h"
#include "replayaccess.h"

#include <algorithm>

std::string_view NodeRequest::command(size_t index) const
{
    const size_t start = index == 0 ? 0 : ends[index - 1];
    return std::string_view(resp).substr(start, ends[index] - start);
}

void EncodedBatch::clear()
{
    for (NodeRequest &node : nodes) {
        node.resp.clear();
        node.names.clear();
        node.ends.clear();
    }
    refused.clear();
    events = 0;
    eventsSent = 0;
}

size_t EncodedBatch::commandCount() const
{
    size_t count = 0;
    for (const NodeRequest &node : nodes)
        count += node.names.size();
    return count;
}

BatchEncoder::BatchEncoder(CommandSource &source, const EncodeOptions &options) : m_source(source), m_options(options) {}

bool BatchEncoder::stopping(const std::atomic<bool> *stop) const
{
    return (stop && stop->load(std::memory_order_relaxed))
        || (m_options.cancelled && m_options.cancelled->load(std::memory_order_relaxed));
}

QString BatchEncoder::error() const
{
    return m_routingError.isEmpty() ? m_source.error() : m_routingError;
}

int BatchEncoder::nodeOf(const WorkloadCommand &command)
{
    if (!m_options.routing)
        return 0;
    const Outcome<int> node = m_options.routing->primaryOf(command.args);
    if (node && node.value() < int(m_options.nodes))
        return node.value();
    m_routingError = QStringLiteral("event %1: %2").arg(m_eventNumber)
                         .arg(node ? QStringLiteral("primary %1 is not connected").arg(node.value()) : node.error());
    return -1;
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
    batch.nodes.resize(size_t(std::max(1, m_options.nodes)));
    batch.clear();
    const bool byType = !m_options.onlyType.empty();
    const bool filtering = m_options.filter && !m_options.filter->empty();
    const int perBatch = std::max(1, m_options.eventsPerBatch);
    while (batch.empty()) {
        if (stopping(stop))
            return false;
        for (int events = 0; events < perBatch; ++events) {
            m_event.clear();
            if (!m_source.next(m_event))
                return false;
            ++batch.events;
            ++m_eventNumber;
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
                const int node = nodeOf(command);
                if (node < 0)
                    return false;
                NodeRequest &request = batch.nodes[size_t(node)];
                request.names.push_back(indexOf(command.args.front()));
                appendResp(command, request.resp);
                request.ends.push_back(request.resp.size());
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
        if (!m_encoder.error().isEmpty()) {
            m_error = m_encoder.error();
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
    for (NodeRequest &node : slot.nodes) {
        if (m_holding && node.resp.capacity() > kKeptBytes)
            std::string().swap(node.resp);
    }
    m_holding = false;
}

void EncodedBatches::whileWaiting()
{
    if (m_holding)
        encodeAhead();
}
