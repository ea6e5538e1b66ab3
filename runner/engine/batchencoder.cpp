#include "batchencoder.h"

#include "clusterrouting.h"
#include "replayaccess.h"

#include <algorithm>
#include <cctype>
#include <cstring>

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
    fenced = false;
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

int BatchEncoder::targetOf(const WorkloadCommand &command, bool &fenced) const
{
    if (!m_options.routing)
        return 0;
    const ClusterRouting &routing = *m_options.routing;
    const int lanes = std::max(1, m_options.lanes);
    const Outcome<int> slot = routing.slotOf(command.args);
    if (!slot && routing.isCluster()) {
        m_routingError = QStringLiteral("event %1: %2").arg(m_eventNumber).arg(slot.error());
        return -1;
    }
    if (!slot || slot.value() < 0) {
        // No keys, or (standalone) keys in several slots or not told: the first lane, alone.
        fenced = true;
        return 0;
    }
    const int node = routing.ownerOfSlot(slot.value());
    if (node < 0 || node >= m_options.nodes) {
        m_routingError = QStringLiteral("event %1: %2").arg(m_eventNumber)
                             .arg(node < 0 ? QStringLiteral("no primary serves slot %1").arg(slot.value())
                                           : QStringLiteral("primary %1 is not connected").arg(node));
        return -1;
    }
    return node * lanes + slot.value() % lanes;
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

// Where each command of m_event goes: kSkipped (another type), kRefused (the send filter's) or
// its target; false on a command the routing cannot place. *fenced: a command of the event must
// not overlap any other.
bool BatchEncoder::placeEvent(bool *fenced)
{
    const bool byType = !m_options.onlyType.empty();
    const bool filtering = m_options.filter && !m_options.filter->empty();
    m_targets.clear();
    *fenced = false;
    for (const WorkloadCommand &command : m_event.commands) {
        if (byType && command.type != m_options.onlyType) {
            m_targets.push_back(kSkipped);
            continue;
        }
        if (filtering && !m_options.filter->refusalOf(command.args).empty()) {
            m_targets.push_back(kRefused);
            continue;
        }
        const int target = targetOf(command, *fenced);
        if (target < 0)
            return false;
        m_targets.push_back(target);
        *fenced = inTransaction(command.args.front()) || *fenced;
    }
    return true;
}

// A transaction (MULTI … EXEC, or WATCH … EXEC) is one connection's state: from its first
// command to its last, every event goes alone on the first lane, so its commands are queued
// and watched on the connection that runs EXEC. True for a command inside one, or opening or
// closing one. (A capture has one command per event; the transaction spans events.)
bool BatchEncoder::inTransaction(const std::string &name)
{
    auto is = [&name](const char *command) {
        return name.size() == std::strlen(command) && std::equal(name.begin(), name.end(), command, [](char a, char b) {
                   return std::toupper(static_cast<unsigned char>(a)) == b;
               });
    };
    if (is("MULTI") || is("WATCH")) {
        m_transaction = true;
        return true;
    }
    if (is("EXEC") || is("DISCARD") || is("UNWATCH")) {
        m_transaction = false;
        return true;
    }
    return m_transaction;
}

bool BatchEncoder::fill(EncodedBatch &batch, const std::atomic<bool> *stop)
{
    const int lanes = std::max(1, m_options.lanes);
    batch.nodes.resize(size_t(std::max(1, m_options.nodes) * lanes));
    batch.clear();
    batch.routingGeneration = m_options.routing ? m_options.routing->generation() : 0;
    const int perBatch = std::max(1, m_options.eventsPerBatch);
    while (batch.empty()) {
        if (stopping(stop))
            return false;
        for (int events = 0; events < perBatch; ++events) {
            if (!m_held) {
                m_event.clear();
                if (!m_source.next(m_event))
                    return false;
                ++m_eventNumber;
            }
            bool fenced = false;
            if (!placeEvent(&fenced))
                return false;
            // An event that must go alone (several lanes only) starts a batch of its own, on
            // its nodes' first lanes, so that its commands keep their order among themselves.
            fenced = fenced && lanes > 1;
            if (fenced && !batch.empty()) {
                m_held = true;
                return true;
            }
            m_held = false;
            ++batch.events;
            bool any = false;
            for (size_t c = 0; c < m_event.commands.size(); ++c) {
                const WorkloadCommand &command = m_event.commands[c];
                int target = m_targets[c];
                if (target == kSkipped)
                    continue;
                if (target == kRefused) {
                    batch.refused.push_back(indexOf(m_options.filter->refusalOf(command.args)));
                    continue;
                }
                if (fenced)
                    target -= target % lanes;
                NodeRequest &request = batch.nodes[size_t(target)];
                request.names.push_back(indexOf(command.args.front()));
                appendResp(command, request.resp);
                request.ends.push_back(request.resp.size());
                any = true;
            }
            if (any)
                ++batch.eventsSent;
            if (fenced && any) {
                batch.fenced = true;
                return true;
            }
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

EncodedBatch *EncodedBatches::next()
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
