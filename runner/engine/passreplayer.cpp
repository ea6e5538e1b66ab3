#include "passreplayer.h"

#include "batchencoder.h"
#include "clusterredirects.h"
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

namespace {

// One error reply to `name`: a refusal (the ACL's), or an error counted by command and message.
void countError(const std::string &name, const std::string &errorText, PassResult &result)
{
    if (ReplayRules::isRefusal(errorText)) {
        ++result.refused[refusalLabel(name, errorText)];
        return;
    }
    const QString key = errorKey(name, errorText);
    ++result.errors[key];
    if (result.firstError.isEmpty())
        result.firstError = key;
    if (isUnknownCommand(errorText)) {
        ++result.unknownCommands[QString::fromStdString(name).toUpper()];
        if (result.firstUnknownCommandError.isEmpty())
            result.firstUnknownCommandError = shortUnknownCommandError(errorText);
    }
}

// Sends each node's part of the batch, reads every reply and counts the errors by command and
// message. While the first part is on the wire, `supply` encodes the next batch.
Status sendAndCheck(const std::vector<RedisConnection *> &connections, const EncodedBatch &batch, EncodedBatches &supply,
                    ClusterRedirects *redirects, PassResult &result)
{
    QElapsedTimer roundTrip;
    roundTrip.start();
    bool encodedAhead = false;
    const std::vector<std::string> &names = supply.names();
    const std::function<void()> whileWaiting = [&supply] { supply.whileWaiting(); };
    const std::function<void()> nothing;
    for (size_t node = 0; node < batch.nodes.size(); ++node) {
        const NodeRequest &request = batch.nodes[node];
        if (request.names.empty())
            continue;
        RedisConnection &connection = *connections[node];
        if (Status exchanged = connection.exchange(request.resp, request.names.size(), encodedAhead ? nothing : whileWaiting);
            !exchanged)
            return exchanged;
        encodedAhead = true;
        const ReplyScanner &replies = connection.lastReplies();
        for (size_t i = 0; i < replies.errorCount(); ++i) {
            const ReplyScanner::ErrorReply &reply = replies.error(i);
            const std::uint32_t name = request.names[reply.index];
            if (redirects && redirects->take(node, name, request.command(reply.index), reply.text))
                continue;
            countError(names[name], reply.text, result);
        }
    }
    if (redirects && redirects->pending()) {
        const Status followed = redirects->follow(connections, names, [&result](const std::string &name, const std::string &text) {
            countError(name, text, result);
        });
        result.moved = redirects->moved();
        result.asked = redirects->asked();
        if (!followed)
            return followed;
    }
    const qint64 nanoseconds = roundTrip.nsecsElapsed();
    result.batchLatencyUsec.push_back(float(double(nanoseconds) / 1000.0));
    result.commands += static_cast<long long>(batch.commandCount());
    result.activeSeconds += double(nanoseconds) / 1e9;
    return Status::success();
}

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
    // The next batch is encoded while the one before is awaited (batchencoder.h).
    EncodedBatches producer(*opened.value(),
                            EncodeOptions{options.onlyType, options.eventsPerBatch, options.filter, options.cancelled,
                                          options.routing, int(connections.size())});
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
        const EncodedBatch *batch = producer.next();
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
        if (Status checked = sendAndCheck(connections, *batch, producer, options.redirects, result); !checked)
            return Error{checked.error()};
        sent.add(*batch);
        producer.recycle();
        if (options.tick && sinceTick.elapsed() >= options.tickIntervalMs) {
            sent.copyTo(producer.names(), result);
            options.tick(result);
            sinceTick.restart();
        }
        // A turn lasts a few batches: handing over after every single one would spend more
        // time waking threads than replaying, and the servers still advance in lockstep.
        if (turn.holding && (++turn.batches >= kBatchesPerTurn || turn.clock.nsecsElapsed() > kTurnNanoseconds))
            turn.release();
    }
    turn.release();
    sent.copyTo(producer.names(), result);
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.tick)
        options.tick(result);
    return result;
}
