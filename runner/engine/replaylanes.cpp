#include "replaylanes.h"

#include "redisconnection.h"

#include <cerrno>
#include <cstring>
#include <poll.h>

namespace {

// poll() wakes at once for bytes; this only bounds how late a silent lane's timeout is seen.
constexpr int kPollSliceMs = 50;

} // namespace

ReplayLanes::ReplayLanes(std::vector<RedisConnection *> connections, bool spin)
    : m_spin(spin)
{
    m_lanes.resize(connections.size());
    for (size_t lane = 0; lane < connections.size(); ++lane)
        m_lanes[lane].connection = connections[lane];
}

Status ReplayLanes::send(size_t lane, NodeRequest &request)
{
    Lane &target = m_lanes[lane];
    std::swap(target.inflight.resp, request.resp);
    std::swap(target.inflight.names, request.names);
    std::swap(target.inflight.ends, request.ends);
    const Clock::time_point now = Clock::now();
    if (Status started = target.connection->startExchange(target.inflight.resp, target.inflight.names.size()); !started)
        return started;
    target.busy = true;
    target.sent = now;
    if (m_busy++ == 0)
        m_activeSince = now;
    return Status::success();
}

void ReplayLanes::finish(size_t lane, const OnCompleted &done)
{
    Lane &finished = m_lanes[lane];
    const Clock::time_point now = Clock::now();
    finished.busy = false;
    if (--m_busy == 0)
        m_active += now - m_activeSince;
    const double usec = std::chrono::duration<double, std::micro>(now - finished.sent).count();
    done(Completed{lane, finished.inflight, finished.connection->lastReplies(), usec});
}

Status ReplayLanes::collect(const OnCompleted &done)
{
    // Lanes whose replies were all read while their request was written need no wait.
    bool finished = false;
    for (size_t lane = 0; lane < m_lanes.size(); ++lane) {
        if (m_lanes[lane].busy && m_lanes[lane].connection->exchangeComplete()) {
            finish(lane, done);
            finished = true;
        }
    }
    if (finished)
        return Status::success();
    m_ready.clear();
    m_readyLanes.clear();
    for (size_t lane = 0; lane < m_lanes.size(); ++lane) {
        if (!m_lanes[lane].busy)
            continue;
        m_ready.push_back(pollfd{m_lanes[lane].connection->socket(), POLLIN, 0});
        m_readyLanes.push_back(lane);
    }
    if (m_ready.empty())
        return Status::success();
    const int ready = pollReady();
    if (ready < 0 && errno != EINTR)
        return Error{QStringLiteral("poll() on the replay connections failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)))};
    for (size_t i = 0; i < m_ready.size(); ++i) {
        // Nothing came within the slice: every busy lane is asked, so a silent one times out.
        if (ready > 0 && m_ready[i].revents == 0)
            continue;
        const size_t lane = m_readyLanes[i];
        const Outcome<bool> complete = m_lanes[lane].connection->pollExchange();
        if (!complete)
            return Error{complete.error()};
        if (complete.value())
            finish(lane, done);
    }
    return Status::success();
}

int ReplayLanes::pollReady()
{
    const nfds_t count = nfds_t(m_ready.size());
    if (m_spin) {
        const Clock::time_point until = Clock::now() + kSpin;
        int ready = 0;
        do
            ready = ::poll(m_ready.data(), count, 0);
        while (ready == 0 && Clock::now() < until);
        if (ready != 0)
            return ready;
    }
    return ::poll(m_ready.data(), count, kPollSliceMs);
}

Status ReplayLanes::waitFor(size_t lane, const OnCompleted &done)
{
    while (m_lanes[lane].busy) {
        if (Status collected = collect(done); !collected)
            return collected;
    }
    return Status::success();
}

Status ReplayLanes::drain(const OnCompleted &done)
{
    while (m_busy > 0) {
        if (Status collected = collect(done); !collected)
            return collected;
    }
    return Status::success();
}

double ReplayLanes::activeSeconds() const
{
    Clock::duration active = m_active;
    if (m_busy > 0)
        active += Clock::now() - m_activeSince;
    return std::chrono::duration<double>(active).count();
}
