// Which repeats count for each server, and what each server's run came to (its verdict).

#include "figuresdata.h"
#include "presentation.h"

#include <QLocale>

namespace {

bool hasData(const RepeatResult &repeat)
{
    return repeat.keys > 0 || repeat.timing.totalCalls() > 0 || !repeat.byType.empty();
}

void collectTypes(FiguresData &data)
{
    data.types = data.bundle.workload.types;
    for (const ServerRun &run : data.bundle.servers) {
        for (const RepeatResult &repeat : run.repeats) {
            for (const auto &[type, memory] : repeat.byType) {
                if (!data.types.contains(type))
                    data.types << type;
                if (!memory.timing)
                    continue;
                for (const auto &entry : memory.timing->byCommand) {
                    QStringList &owners = data.typesOfCommand[entry.first];
                    if (!owners.contains(type))
                        owners << type;
                }
            }
        }
    }
}

ServerData dataOf(const FiguresData &data, const ServerRun &run)
{
    ServerData server;
    server.run = &run;
    server.shown = data.shownIds.contains(run.id);
    for (const RepeatResult &repeat : run.repeats) {
        if (repeat.status == RepeatStatus::Ok)
            server.counted.push_back(&repeat);
    }
    if (server.counted.empty()) {
        for (auto it = run.repeats.rbegin(); it != run.repeats.rend(); ++it) {
            if (it->status == RepeatStatus::Incomplete && hasData(*it)) {
                server.partial = &*it;
                break;
            }
        }
    }
    ServerSummary &summary = server.summary;
    summary.id = run.id;
    summary.name = serverDisplayName(data.bundle, run);
    summary.error = run.error;
    summary.endpoint = run.endpoint;
    summary.memoryLimit = memoryLimitOf(run);
    summary.countedRepeats = int(server.counted.size());
    summary.partial = server.partial != nullptr;
    summary.partialRepeat = server.partial ? server.partial->repeat : -1;
    for (const RepeatResult *repeat : server.sources()) {
        for (const auto &[key, count] : repeat->errors)
            summary.errors[key] += count;
        summary.errorCount += repeat->errorCount();
        summary.loss += lossOfRepeat(*repeat);
        if (summary.firstError.isEmpty())
            summary.firstError = repeat->firstError;
    }
    return server;
}

// Errors per finished repeat, so servers with a different number of repeats compare.
double perRepeat(long long count, int repeats)
{
    return repeats > 0 ? double(count) / double(repeats) : 0.0;
}

// Errors the other servers did not get alike. A server alone has nothing to compare with.
long long ownErrors(const ServerData &server, const std::map<QString, ServerData> &servers)
{
    long long own = 0;
    int peers = 0;
    for (const auto &[id, other] : servers)
        peers += other.summary.countedRepeats > 0 && &other != &server ? 1 : 0;
    if (peers == 0 || server.summary.countedRepeats == 0)
        return 0;
    for (const auto &[key, count] : server.summary.errors) {
        const double mine = perRepeat(count, server.summary.countedRepeats);
        bool shared = true;
        for (const auto &[id, other] : servers) {
            if (&other == &server || other.summary.countedRepeats == 0)
                continue;
            const auto theirs = other.summary.errors.find(key);
            shared = shared && theirs != other.summary.errors.end()
                && perRepeat(theirs->second, other.summary.countedRepeats) == mine;
        }
        if (!shared)
            own += count;
    }
    return own;
}

ServerVerdict verdictOf(const ServerRun &run, const ServerSummary &summary, bool running)
{
    if (running && run.status == RunStatus::Incomplete)
        return ServerVerdict::Running;
    if (!running && summary.ownErrorCount > 0)
        return ServerVerdict::RejectedWrites;
    if (run.status == RunStatus::Failed)
        return summary.countedRepeats > 0 ? ServerVerdict::FailedLater : ServerVerdict::Failed;
    if (run.status == RunStatus::Incomplete)
        return ServerVerdict::Cancelled;
    if (summary.loss.any())
        return ServerVerdict::LostData;
    return summary.errorCount > 0 ? ServerVerdict::WorkloadErrors : ServerVerdict::Completed;
}

} // namespace

QString ServerSummary::statusText() const
{
    const QLocale english(QLocale::English);
    switch (verdict) {
    case ServerVerdict::Completed:
        return QStringLiteral("ok");
    case ServerVerdict::WorkloadErrors:
        return QStringLiteral("ok, %1 command errors").arg(english.toString(errorCount));
    case ServerVerdict::RejectedWrites:
        return QStringLiteral("%1 command errors the other servers did not get (first: %2)")
            .arg(english.toString(ownErrorCount), firstError.isEmpty() ? QStringLiteral("?") : firstError);
    case ServerVerdict::LostData:
        return QStringLiteral("lost data: %1").arg(lossText(loss, memoryLimit));
    case ServerVerdict::Failed:
        return QStringLiteral("failed: %1").arg(error);
    case ServerVerdict::FailedLater:
        return QStringLiteral("failed after %1 repeats: %2").arg(countedRepeats).arg(error);
    case ServerVerdict::Cancelled:
        return QStringLiteral("cancelled");
    case ServerVerdict::Running:
        return QStringLiteral("running");
    }
    return {};
}

void summariseServers(FiguresData &data)
{
    collectTypes(data);
    for (const ServerRun &run : data.bundle.servers)
        data.servers.emplace(run.id, dataOf(data, run));
    for (auto &[id, server] : data.servers)
        server.summary.ownErrorCount = ownErrors(server, data.servers);
    for (auto &[id, server] : data.servers)
        server.summary.verdict = verdictOf(*server.run, server.summary, data.bundle.running);
}
