#include "passreplayer.h"

#include "batchencoder.h"
#include "clusterredirects.h"
#include "clusterrouting.h"
#include "replaylanes.h"
#include "fairscheduler.h"
#include "replayaccess.h"
#include "replayrules.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cmath>

namespace {

// Error replies are grouped by command and message; the message is cut so that replies
// carrying key names or values do not make every error its own row.
QString errorKey(const std::string &command, const std::string &message)
{
    std::string upper = command;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    QString text = QString::fromStdString(message);
    if (text.size() > 120)
        text = text.left(117) + QStringLiteral("...");
    return QString::fromStdString(upper) + QStringLiteral(": ") + text;
}

bool isUnknownCommand(const std::string &message)
{
    return message.rfind("ERR unknown command", 0) == 0;
}

// "ERR unknown command 'HSETEX', with args beginning with: 'user:0' …" -> up to the command name.
QString shortUnknownCommandError(const std::string &message)
{
    const size_t cut = message.find(", with args");
    return QString::fromStdString(cut == std::string::npos ? message : message.substr(0, cut));
}

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return text;
}

// The label an ACL refusal is counted under: the command it names ("... to run the
// 'config|set' command" -> "CONFIG SET"), prefixed by the script that called it ("EVAL:
// MIGRATE"), or the command sent when the reply names none (a script's refusal on Redis 7.0).
QString refusalLabel(const std::string &command, const std::string &message)
{
    const std::string sent = upper(command);
    const std::string opening = "run the '";
    const size_t start = message.find(opening);
    const size_t end = start == std::string::npos ? start : message.find("' command", start + opening.size());
    if (end == std::string::npos)
        return QString::fromStdString(sent);
    std::string named = upper(message.substr(start + opening.size(), end - start - opening.size()));
    std::replace(named.begin(), named.end(), '|', ' ');
    if (ReplayRules::isScriptCommand(QString::fromStdString(sent)))
        named = sent + ": " + named;
    return QString::fromStdString(named);
}

constexpr int kBatchesPerTurn = 16;
constexpr qint64 kTurnNanoseconds = 2000000;

// The caller's hold on the fair schedule; released on every way out of the pass.
struct Turn {
    Turn(FairScheduler *scheduler, int index) : fair(scheduler), worker(index) {}
    Turn(const Turn &) = delete;
    Turn &operator=(const Turn &) = delete;
    FairScheduler *fair;
    int worker;
    bool holding = false;
    int batches = 0;
    QElapsedTimer clock;
    ~Turn() { release(); }
    void release()
    {
        if (fair && holding)
            fair->release(worker);
        holding = false;
    }
};

} // namespace

double PassResult::percentileUsec(double fraction) const
{
    if (batchLatencyUsec.empty())
        return 0;
    std::vector<float> sorted = batchLatencyUsec;
    // Nearest rank.
    const double rank = std::ceil(fraction * double(sorted.size()));
    const size_t index = size_t(std::clamp(rank - 1.0, 0.0, double(sorted.size() - 1)));
    std::nth_element(sorted.begin(), sorted.begin() + long(index), sorted.end());
    return sorted[index];
}

CommandTally sentTally(const PassResult &pass)
{
    CommandTally tally;
    for (const auto &[name, count] : pass.sent)
        tally.addName(name, count);
    return tally;
}

CommandTally errorTally(const PassResult &pass)
{
    CommandTally tally;
    for (const auto &[name, count] : pass.errorReplies)
        tally.addName(name, count);
    return tally;
}

namespace {

// One error reply to `name`: a refusal (the ACL's), or an error counted by command and message.
void countError(const std::string &name, const std::string &errorText, PassResult &result)
{
    ++result.errorReplies[name];
    if (ReplayRules::isRefusal(errorText)) {
        ++result.refused[refusalLabel(name, errorText)];
        return;
    }
    // A command the server does not know is no error of the workload: it says the server does
    // not support what the command belongs to. Decided here, once.
    if (isUnknownCommand(errorText)) {
        ++result.unknownCommands[QString::fromStdString(name).toUpper()];
        if (result.firstUnknownCommandError.isEmpty())
            result.firstUnknownCommandError = shortUnknownCommandError(errorText);
        return;
    }
    const QString key = errorKey(name, errorText);
    ++result.errors[key];
    if (result.firstError.isEmpty())
        result.firstError = key;
}

// The pass's lanes and what comes back on them: every reply checked, errors counted by command
// and message, a cluster's redirects taken and followed. Sending goes on while lanes are busy;
// settle() waits until nothing of this server's is on the wire.
class Dispatch {
public:
    Dispatch(const std::vector<RedisConnection *> &connections, const PassOptions &options,
             const std::vector<std::string> &names, PassResult &result)
        : m_lanes(connections, options.spinForReplies), m_lanesPerNode(size_t(std::max(1, options.lanes))),
          m_routing(options.routing), m_redirects(options.redirects),
          m_names(names), m_result(result)
    {
        m_done = [this](const ReplayLanes::Completed &completed) { check(completed); };
    }

    // Each target's part of `batch` on its lane, once the lane is free; a fenced batch alone.
    Status send(EncodedBatch &batch)
    {
        if (batch.fenced || m_redirected) {
            if (Status settled = settle(); !settled)
                return settled;
        }
        for (size_t target = 0; target < batch.nodes.size(); ++target) {
            NodeRequest &part = batch.nodes[target];
            if (part.names.empty())
                continue;
            if (Status free = m_lanes.waitFor(target, m_done); !free)
                return free;
            // A redirect just came back: it is followed before anything else is sent, so that
            // no later command on its key overtakes it.
            if (m_redirected) {
                if (Status settled = settle(); !settled)
                    return settled;
            }
            if (Status sent = m_lanes.send(target, part); !sent)
                return sent;
        }
        // Encoded before a slot moved: its commands for the slot's old owner come back (MOVED)
        // and are followed before any batch placed by the new routing is sent.
        const bool stale = m_routing && batch.routingGeneration != m_routing->generation();
        return batch.fenced || stale ? settle() : Status::success();
    }

    // Every lane's replies in, and every redirect followed.
    Status settle()
    {
        if (Status drained = m_lanes.drain(m_done); !drained)
            return drained;
        m_redirected = false;
        if (!m_redirects || !m_redirects->pending())
            return Status::success();
        std::vector<RedisConnection *> nodes;   // each node's first lane
        for (size_t lane = 0; lane < m_lanes.size(); lane += m_lanesPerNode)
            nodes.push_back(&m_lanes.connection(lane));
        const Status followed = m_redirects->follow(nodes, m_names, [this](const std::string &name, const std::string &text) {
            countError(name, text, m_result);
        });
        m_result.moved = m_redirects->moved();
        m_result.asked = m_redirects->asked();
        m_result.retried = m_redirects->retried();
        return followed;
    }

    double activeSeconds() const { return m_lanes.activeSeconds(); }

private:
    void check(const ReplayLanes::Completed &completed)
    {
        m_result.batchLatencyUsec.push_back(float(completed.roundTripUsec));
        const size_t node = completed.lane / m_lanesPerNode;
        for (size_t i = 0; i < completed.replies.errorCount(); ++i) {
            const ReplyScanner::ErrorReply &reply = completed.replies.error(i);
            const std::uint32_t name = completed.request.names[reply.index];
            if (m_redirects && m_redirects->take(node, name, completed.request.command(reply.index), reply.text)) {
                m_redirected = true;
                continue;
            }
            countError(m_names[name], reply.text, m_result);
        }
    }

    ReplayLanes m_lanes;
    size_t m_lanesPerNode;
    const ClusterRouting *m_routing;
    ClusterRedirects *m_redirects;
    const std::vector<std::string> &m_names;
    PassResult &m_result;
    ReplayLanes::OnCompleted m_done;
    bool m_redirected = false;
};

// What the producer counted while it read the batch's events.
void countRead(const EncodedBatch &batch, const std::vector<std::string> &labels, PassResult &result)
{
    result.events += batch.events;
    result.eventsSent += batch.eventsSent;
    for (const std::uint32_t label : batch.refused)
        ++result.refused[QString::fromStdString(labels[label])];
}

// The commands sent, counted by the producer's name index, and as PassResult::sent has them.
struct SentCounts {
    std::vector<long long> byIndex;

    void add(const EncodedBatch &batch)
    {
        for (const NodeRequest &node : batch.nodes) {
            for (const std::uint32_t name : node.names) {
                if (name >= byIndex.size())
                    byIndex.resize(name + 1, 0);
                ++byIndex[name];
            }
        }
    }
    void copyTo(const std::vector<std::string> &names, PassResult &result) const
    {
        for (size_t i = 0; i < byIndex.size(); ++i)
            if (byIndex[i] > 0)
                result.sent[names[i]] = byIndex[i];
    }
};

// Waits for this worker's turn under the fair schedule; false when cancelled.
bool takeTurn(Turn &turn, const PassOptions &options)
{
    if (!options.fair || turn.holding)
        return true;
    if (!options.fair->acquire(options.workerIndex, *options.cancelled))
        return false;
    turn.holding = true;
    turn.batches = 0;
    turn.clock.start();
    return true;
}

// After a batch, with nothing of the pass on the wire when it acts: the tick (the live probe
// reads the server while no command of the pass runs), at most every tickIntervalMs, and the
// turn handed over after a few batches (after every single one, waking threads would cost more
// than replaying, and the servers still advance in lockstep).
Status betweenBatches(const PassOptions &options, Dispatch &dispatch, Turn &turn, QElapsedTimer &sinceTick,
                      const std::function<void()> &tick)
{
    if (options.tick && sinceTick.elapsed() >= options.tickIntervalMs) {
        if (Status settled = dispatch.settle(); !settled)
            return settled;
        tick();
        sinceTick.restart();
    }
    if (turn.holding && (++turn.batches >= kBatchesPerTurn || turn.clock.nsecsElapsed() > kTurnNanoseconds)) {
        if (Status settled = dispatch.settle(); !settled)
            return settled;
        turn.release();
    }
    return Status::success();
}

} // namespace

Outcome<PassResult> replayPass(const Workload &workload, RedisConnection &connection, const PassOptions &options)
{
    return replayPass(workload, std::vector<RedisConnection *>{&connection}, options);
}

Outcome<PassResult> replayPass(const Workload &workload, const std::vector<RedisConnection *> &connections,
                               const PassOptions &options)
{
    if (connections.empty())
        return Error{QStringLiteral("no connection to replay into")};
    Outcome<std::unique_ptr<CommandSource>> opened = workload.open();
    if (!opened)
        return Error{opened.error()};
    PassResult result;
    const int lanes = std::max(1, options.lanes);
    const int nodes = std::max(1, int(connections.size()) / lanes);
    if (lanes > 1 && !options.routing)
        return Error{QStringLiteral("%1 connections per node need the routing of the keys to them").arg(lanes)};
    // The next batch is encoded while the ones before are on the wire (batchencoder.h).
    EncodedBatches producer(*opened.value(), EncodeOptions{options.onlyType, options.eventsPerBatch, options.filter,
                                                           options.cancelled, options.routing, nodes, lanes});
    Dispatch dispatch(connections, options, producer.names(), result);
    SentCounts sent;
    QElapsedTimer clock;
    QElapsedTimer sinceTick;
    clock.start();
    sinceTick.start();
    Turn turn{options.fair, options.workerIndex};
    for (;;) {
        if (options.cancelled && options.cancelled->load()) {
            result.cancelled = true;
            break;
        }
        EncodedBatch *batch = producer.next();
        if (!batch) {
            if (!producer.error().isEmpty())
                return Error{producer.error()};
            break;
        }
        countRead(*batch, producer.names(), result);
        if (batch->empty()) {
            producer.recycle();
            continue;
        }
        if (!takeTurn(turn, options)) {
            result.cancelled = true;
            break;
        }
        // Counted before the lanes take the batch's buffers.
        sent.add(*batch);
        result.commands += static_cast<long long>(batch->commandCount());
        if (Status dispatched = dispatch.send(*batch); !dispatched)
            return Error{dispatched.error()};
        producer.whileWaiting();
        producer.recycle();
        if (Status between = betweenBatches(options, dispatch, turn, sinceTick, [&] {
                sent.copyTo(producer.names(), result);
                options.tick(result);
            });
            !between)
            return Error{between.error()};
    }
    if (Status settled = dispatch.settle(); !settled)
        return Error{settled.error()};
    result.activeSeconds = dispatch.activeSeconds();
    turn.release();
    sent.copyTo(producer.names(), result);
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.tick)
        options.tick(result);
    return result;
}
