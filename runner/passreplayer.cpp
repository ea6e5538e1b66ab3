#include "passreplayer.h"

#include "fairscheduler.h"

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

Outcome<PassResult> replayPass(const Workload &workload, RedisConnection &connection, const PassOptions &options)
{
    Outcome<std::unique_ptr<CommandSource>> opened = workload.open();
    if (!opened)
        return Error{opened.error()};
    CommandSource &source = *opened.value();

    PassResult result;
    EventCommands event;
    std::string buffer;
    std::vector<std::string> namesStorage;   // command name per pipelined command, to label errors
    QElapsedTimer clock;
    QElapsedTimer sinceTick;
    clock.start();
    sinceTick.start();
    const bool filtered = !options.onlyType.empty();
    const int perBatch = std::max(1, options.eventsPerBatch);
    bool sourceDone = false;

    while (!sourceDone) {
        if (options.cancelled && options.cancelled->load()) {
            result.cancelled = true;
            break;
        }
        buffer.clear();
        namesStorage.clear();
        int eventsInBatch = 0;
        while (eventsInBatch < perBatch) {
            event.clear();
            if (!source.next(event)) {
                sourceDone = true;
                break;
            }
            ++result.events;
            ++eventsInBatch;
            bool any = false;
            for (const WorkloadCommand &command : event.commands) {
                if (filtered && command.type != options.onlyType)
                    continue;
                appendResp(command, buffer);
                namesStorage.push_back(command.args.front());
                any = true;
            }
            if (any)
                ++result.eventsSent;
        }
        if (sourceDone && !source.error().isEmpty())
            return Error{source.error()};
        if (namesStorage.empty())
            continue;

        if (options.fair && !options.fair->acquire(options.workerIndex, *options.cancelled)) {
            result.cancelled = true;
            break;
        }
        QElapsedTimer roundTrip;
        roundTrip.start();
        Status sent = connection.appendRaw(buffer);
        if (sent)
            sent = connection.flush();
        if (!sent) {
            if (options.fair)
                options.fair->release(options.workerIndex);
            return Error{sent.error()};
        }
        for (const std::string &name : namesStorage) {
            Outcome<Reply> reply = connection.readReply();
            if (!reply) {
                if (options.fair)
                    options.fair->release(options.workerIndex);
                return Error{reply.error()};
            }
            if (reply->isError()) {
                ++result.errors[errorKey(name, reply->text)];
                if (result.firstUnknownCommandError.isEmpty() && isUnknownCommand(reply->text))
                    result.firstUnknownCommandError = QString::fromStdString(reply->text);
            }
        }
        result.batchLatencyUsec.push_back(float(roundTrip.nsecsElapsed() / 1000.0));
        result.commands += static_cast<long long>(namesStorage.size());
        result.activeSeconds += double(roundTrip.nsecsElapsed()) / 1e9;
        if (options.tick && sinceTick.elapsed() >= options.tickIntervalMs) {
            options.tick(result.events, result.commands);
            sinceTick.restart();
        }
        if (options.fair)
            options.fair->release(options.workerIndex);
    }
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.tick)
        options.tick(result.events, result.commands);
    return result;
}
