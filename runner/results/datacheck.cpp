// The data check: every server replays the same commands, so every server must end each
// pass with the same key counts. A server that rejected writes says so in its own error
// counts, one that evicted keys or refused writes as out of memory in its own INFO; the check
// names it from those, never from a majority of key counts.

#include "figuresdata.h"

#include <QLocale>
#include <map>

namespace {

struct Count {
    QString server;
    long long keys = 0;
};

// (repeat, category) -> the key count of every server that finished it.
std::map<std::pair<int, QString>, std::vector<Count>> keyCounts(const FiguresData &data)
{
    std::map<std::pair<int, QString>, std::vector<Count>> counts;
    for (const QString &id : data.allIds) {
        const ServerData &server = data.server(id);
        for (const RepeatResult *repeat : server.counted) {
            if (data.combined() && repeat->keys > 0)
                counts[{repeat->repeat, QString()}].push_back({id, repeat->keys});
            for (const auto &[type, memory] : repeat->byType) {
                if (memory.status == TypeStatus::Ok)
                    counts[{repeat->repeat, type}].push_back({id, memory.keys});
            }
        }
    }
    return counts;
}

// Counts compare only between servers that ran the same commands: the combined pass's overall
// count between servers that support the same types, and every count between servers that
// knew the same commands of a capture.
bool sameSupport(const FiguresData &data, const std::vector<Count> &counts, bool byType)
{
    QString first;
    for (size_t i = 0; i < counts.size(); ++i) {
        const ServerRun &run = *data.server(counts[i].server).run;
        QString refused;
        for (const QString &type : data.types) {
            if (byType)
                refused += FiguresData::unsupportedText(run, type).isEmpty() ? "0" : "1";
        }
        for (const auto &entry : FiguresData::unsupportedCommandsOf(run))
            refused += QLatin1Char(' ') + entry.first;
        if (i == 0)
            first = refused;
        else if (refused != first)
            return false;
    }
    return true;
}

QString disagreement(const FiguresData &data, int repeat, const QString &type, const std::vector<Count> &counts)
{
    const QLocale english(QLocale::English);
    QStringList blamed, lost, listed;
    for (const Count &count : counts) {
        listed << QStringLiteral("%1 %2").arg(count.server, english.toString(count.keys));
        if (data.server(count.server).summary.ownErrorCount > 0)
            blamed << count.server;
        else if (data.server(count.server).summary.loss.any())
            lost << count.server;
    }
    const QString what = QStringLiteral("repeat %1: %2 keys differ between servers (%3)")
                             .arg(repeat + 1)
                             .arg(type.isEmpty() ? QStringLiteral("all") : type, listed.join(QStringLiteral(", ")));
    if (!blamed.isEmpty())
        return QStringLiteral("%1 — %2 rejected writes").arg(what, blamed.join(QStringLiteral(", ")));
    if (!lost.isEmpty())
        return QStringLiteral("%1 — %2 lost data to maxmemory").arg(what, lost.join(QStringLiteral(", ")));
    return what + QStringLiteral(" — no server reported an error, so none is blamed (keys may have expired or been evicted)");
}

} // namespace

QStringList dataProblemsOf(const FiguresData &data)
{
    QStringList problems;
    const QLocale english(QLocale::English);
    for (const QString &id : data.allIds) {
        const ServerSummary &summary = data.server(id).summary;
        if (summary.verdict == ServerVerdict::RejectedWrites)
            problems << QStringLiteral("%1 rejected writes: %2").arg(id, summary.statusText());
        if (summary.loss.any())
            problems << QStringLiteral("%1 lost data: %2").arg(id, lossText(summary.loss, summary.memoryLimit));
    }
    for (const auto &[key, counts] : keyCounts(data)) {
        if (counts.size() < 2 || !sameSupport(data, counts, key.second.isEmpty()))
            continue;
        bool differ = false;
        for (const Count &count : counts)
            differ = differ || count.keys != counts.front().keys;
        if (differ)
            problems << disagreement(data, key.first, key.second, counts);
    }
    return problems;
}
