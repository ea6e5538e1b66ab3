// What a pass lost to maxmemory, and what that leaves of its figures: keys the server evicted
// change which keys the memory figure divides over (the survivors of an LRU eviction differ from
// run to run), and writes it refused as out of memory were never stored nor timed as the other
// servers' were. Such a pass publishes no memory figure, nor, when writes were refused, a time
// figure: the figure is failed, with the reason as its note (docs/MEASUREMENT.md, "Evictions and
// refused writes").

#include "figuresdata.h"

#include <QLocale>

namespace {

// A maxmemory as redis.conf writes it: "4mb", "1gb", "1536kb", "1000000 bytes".
QString bytesSetting(long long bytes)
{
    static const std::pair<long long, const char *> units[] = {{1LL << 30, "gb"}, {1LL << 20, "mb"}, {1LL << 10, "kb"}};
    for (const auto &[size, unit] : units) {
        if (bytes % size == 0)
            return QString::number(bytes / size) + QLatin1String(unit);
    }
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

QString memoryLimitOf(const ServerRun &run)
{
    const auto limit = run.config.find(QStringLiteral("maxmemory"));
    bool number = false;
    const long long bytes = limit == run.config.end() ? 0 : limit->second.toLongLong(&number);
    if (!number || bytes <= 0)
        return QString();
    const auto policy = run.config.find(QStringLiteral("maxmemory-policy"));
    return policy == run.config.end() || policy->second.isEmpty()
        ? QStringLiteral("maxmemory %1").arg(bytesSetting(bytes))
        : QStringLiteral("maxmemory %1, %2").arg(bytesSetting(bytes), policy->second);
}

bool sharesNoIntegers(const ServerRun &run)
{
    const auto policy = run.config.find(QStringLiteral("maxmemory-policy"));
    const bool approximatesUse = policy != run.config.end()
        && (policy->second.endsWith(QLatin1String("-lru")) || policy->second.endsWith(QLatin1String("-lfu")));
    return approximatesUse && !memoryLimitOf(run).isEmpty();
}

bool lossBlocks(const DataLoss &loss, bool timed)
{
    return timed ? loss.refusedWrites > 0 : loss.any();
}

QString lossText(const DataLoss &loss, const QString &limit)
{
    const QLocale english(QLocale::English);
    QStringList parts;
    if (loss.evictedKeys > 0)
        parts << QStringLiteral("evicted %1 keys").arg(english.toString(loss.evictedKeys));
    if (loss.refusedWrites > 0)
        parts << QStringLiteral("refused %1 writes as out of memory").arg(english.toString(loss.refusedWrites));
    const QString text = parts.join(QStringLiteral(" and "));
    return limit.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(text, limit);
}

DataLoss lossOfTypes(const RepeatResult &repeat, const QStringList &types)
{
    DataLoss loss;
    for (const QString &type : types) {
        const auto found = repeat.byType.find(type);
        if (found != repeat.byType.end())
            loss += found->second.loss;
    }
    return loss;
}

DataLoss lossOfRepeat(const RepeatResult &repeat)
{
    DataLoss loss = repeat.loss;
    for (const auto &entry : repeat.byType)
        loss += entry.second.loss;
    return loss;
}

QString FiguresData::lossNote(const ServerData &server, const FigureRule &rule) const
{
    if (!rule.loss)
        return QString();
    DataLoss lost;
    int repeats = 0;
    for (const RepeatResult *repeat : server.sources()) {
        const DataLoss loss = rule.loss(*repeat);
        if (lossBlocks(loss, rule.timed)) {
            lost += rule.timed ? DataLoss{0, loss.refusedWrites} : loss;
            ++repeats;
        }
    }
    if (repeats == 0)
        return QString();
    const QString during = bundle.repeats > 1 ? QStringLiteral(" during the pass in %1 of %2 repeats").arg(repeats).arg(bundle.repeats)
                                              : QStringLiteral(" during the pass");
    QString text = lossText(lost, QString()) + during;
    if (!server.summary.memoryLimit.isEmpty())
        text += QStringLiteral(" (%1)").arg(server.summary.memoryLimit);
    return QStringLiteral("unavailable: the server ") + text;
}
