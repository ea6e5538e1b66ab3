#include "passreplayer.h"

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

// One pipelined batch: the events' commands in RESP, and each command's name to label errors.
struct Batch {
    std::string resp;
    std::vector<std::string> names;
};

// Reads up to options.eventsPerBatch events into `batch`; false when the source is done.
bool fillBatch(CommandSource &source, const PassOptions &options, EventCommands &event, Batch &batch, PassResult &result)
{
    batch.resp.clear();
    batch.names.clear();
    const bool filtered = !options.onlyType.empty();
    for (int events = 0; events < std::max(1, options.eventsPerBatch); ++events) {
        event.clear();
        if (!source.next(event))
            return false;
        ++result.events;
        bool any = false;
        for (const WorkloadCommand &command : event.commands) {
            if (filtered && command.type != options.onlyType)
                continue;
            if (options.filter && !options.filter->empty()) {
                const std::string refused = options.filter->refusalOf(command.args);
                if (!refused.empty()) {
                    ++result.refused[QString::fromStdString(refused)];
                    continue;
                }
            }
            ++result.sent[command.args.front()];
            appendResp(command, batch.resp);
            batch.names.push_back(command.args.front());
            any = true;
        }
        if (any)
            ++result.eventsSent;
    }
    return true;
}

// Sends the batch, reads every reply and counts the errors by command and message.
Status sendAndCheck(RedisConnection &connection, const Batch &batch, std::string &errorText, PassResult &result)
{
    QElapsedTimer roundTrip;
    roundTrip.start();
    Status sent = connection.appendRaw(batch.resp);
    if (sent)
        sent = connection.flush();
    if (!sent)
        return sent;
    for (const std::string &name : batch.names) {
        errorText.clear();
        Outcome<bool> isError = connection.readReplyIsError(&errorText);
        if (!isError)
            return Error{isError.error()};
        if (!isError.value())
            continue;
        if (ReplayRules::isRefusal(errorText)) {
            ++result.refused[refusalLabel(name, errorText)];
            continue;
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
    const qint64 nanoseconds = roundTrip.nsecsElapsed();
    result.batchLatencyUsec.push_back(float(double(nanoseconds) / 1000.0));
    result.commands += static_cast<long long>(batch.names.size());
    result.activeSeconds += double(nanoseconds) / 1e9;
    return Status::success();
}

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
    Outcome<std::unique_ptr<CommandSource>> opened = workload.open();
    if (!opened)
        return Error{opened.error()};
    CommandSource &source = *opened.value();
    PassResult result;
    EventCommands event;
    Batch batch;
    std::string errorText;
    QElapsedTimer clock;
    QElapsedTimer sinceTick;
    clock.start();
    sinceTick.start();
    Turn turn{options.fair, options.workerIndex};
    for (bool more = true; more;) {
        if (options.cancelled && options.cancelled->load()) {
            result.cancelled = true;
            break;
        }
        more = fillBatch(source, options, event, batch, result);
        if (!more && !source.error().isEmpty())
            return Error{source.error()};
        if (batch.names.empty())
            continue;
        if (!takeTurn(turn, options)) {
            result.cancelled = true;
            break;
        }
        if (Status checked = sendAndCheck(connection, batch, errorText, result); !checked)
            return Error{checked.error()};
        if (options.tick && sinceTick.elapsed() >= options.tickIntervalMs) {
            options.tick(result);
            sinceTick.restart();
        }
        // A turn lasts a few batches: handing over after every single one would spend more
        // time waking threads than replaying, and the servers still advance in lockstep.
        if (turn.holding && (++turn.batches >= kBatchesPerTurn || turn.clock.nsecsElapsed() > kTurnNanoseconds))
            turn.release();
    }
    turn.release();
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.tick)
        options.tick(result);
    return result;
}
