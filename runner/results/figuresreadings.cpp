// Whether a pass's memory reading could have happened. A proxy that rewrites replies, a broken
// server or a hand-edited bundle can give used_memory changes no server can show: a pass that
// wrote keys into an empty server and freed more than it stored, or grew by more than a process
// can address. Such a reading publishes no memory figure: the figure is failed, and its note
// says what was impossible (docs/MEASUREMENT.md, "Impossible readings").

#include "figuresdata.h"

#include <QLocale>

namespace {

// "2,147,483,648", "−2,147,483,648": a minus sign, as the figures' changes write it.
QString bytesText(long long bytes)
{
    const QString digits = QLocale(QLocale::English).toString(bytes < 0 ? -(bytes + 1) + 1ULL : qulonglong(bytes));
    return bytes < 0 ? QString(QChar(0x2212)) + digits : digits;
}

} // namespace

QString impossibleReading(long long usedMemoryDelta, long long keys)
{
    if (keys <= 0)
        return QString();   // no keys, no figure: nothing is divided by them
    const QString grew = QStringLiteral("used_memory grew by %1 bytes for %2 keys written")
                             .arg(bytesText(usedMemoryDelta), QLocale(QLocale::English).toString(keys));
    if (usedMemoryDelta <= 0)
        return grew + QStringLiteral(": not a possible reading");
    if (usedMemoryDelta > kMostAddressableBytes)
        return grew + QStringLiteral(": more than a process can address (2^57 bytes), not a possible reading");
    return QString();
}

QString impossibleOfTypes(const RepeatResult &repeat, const QStringList &types)
{
    for (const QString &type : types) {
        const auto found = repeat.byType.find(type);
        if (found == repeat.byType.end() || found->second.status != TypeStatus::Ok)
            continue;
        if (const QString why = impossibleReading(found->second.usedMemoryDelta, found->second.keys); !why.isEmpty())
            return types.size() > 1 ? QStringLiteral("%1: %2").arg(type, why) : why;
    }
    return QString();
}

QString impossibleOfCombinedPass(const RepeatResult &repeat)
{
    return impossibleReading(repeat.usedMemoryDelta, repeat.keys);
}

bool FiguresData::countsRepeat(const FigureRule &rule, const RepeatResult &repeat) const
{
    // A pass still running has no figure of its own yet: an impossible live reading is left
    // out (the bar waits for the next one) rather than failing the figure mid-pass.
    return !rule.impossible || (rule.unfinished && rule.unfinished(repeat)) || rule.impossible(repeat).isEmpty();
}

QString FiguresData::impossibleNote(const ServerData &server, const FigureRule &rule) const
{
    if (!rule.impossible)
        return QString();
    QString first;
    int repeats = 0;
    for (const RepeatResult *repeat : server.sources()) {
        if (rule.unfinished && rule.unfinished(*repeat))
            continue;
        if (const QString why = rule.impossible(*repeat); !why.isEmpty()) {
            if (first.isEmpty())
                first = why;
            ++repeats;
        }
    }
    if (repeats == 0)
        return QString();
    const QString where = bundle.repeats > 1 ? QStringLiteral(" (in %1 of %2 repeats)").arg(repeats).arg(bundle.repeats) : QString();
    return QStringLiteral("unavailable: ") + first + where;
}
