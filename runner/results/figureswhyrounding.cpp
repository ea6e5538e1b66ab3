// The allocator's rounding of a server's key-table entries (figureswhyrounding.h): which
// servers allocate entries one by one, what their allocator serves them from, and the parts
// counted so.

#include "figureswhyrounding.h"

#include "allocationsize.h"

#include <QVersionNumber>
#include <cmath>

namespace {

constexpr long long kDictEntryBytes = 24;        // key, value and next pointers
constexpr long long kSlotLinksBytes = 16;        // the previous and next key of the slot
constexpr double kRoundingShown = 0.05;          // below this a part's rounding prints as 0.0

bool isBefore(const ServerRun &run, int major, int minor)
{
    const QVersionNumber version = QVersionNumber::fromString(run.version);
    return !version.isNull() && version < QVersionNumber(major, minor);
}

bool hasDictEntries(const ServerRun &run)
{
    if (run.product == QLatin1String("valkey"))
        return isBefore(run, 8, 1);
    if (run.product == QLatin1String("redis"))
        return isBefore(run, 8, 2);
    return false;
}

// Valkey 8.0 embeds the key in its main table's entries.
bool mainEntriesAreDictEntries(const ServerRun &run)
{
    return run.product == QLatin1String("redis") || isBefore(run, 8, 0);
}

// Redis before 7.4 and Valkey 7.2 keep a cluster's slot-to-keys links in each entry.
bool hasSlotLinksInEntries(const ServerRun &run)
{
    return run.product == QLatin1String("valkey") ? isBefore(run, 8, 0) : isBefore(run, 7, 4);
}

QString allocatorWords(const AllocatorFacts &facts)
{
    if (facts.memAllocator == QLatin1String("libc"))
        return QStringLiteral("glibc's malloc");
    return QStringLiteral("jemalloc (quantum %1 B)").arg(facts.quantumBytes);
}

QString oneDecimal(double value)
{
    return QString::number(value, 'f', 1);
}

MemoryPart *partOf(std::vector<MemoryPart> &parts, const char *id)
{
    for (MemoryPart &part : parts) {
        if (part.id == QLatin1String(id))
            return &part;
    }
    return nullptr;
}

} // namespace

std::optional<EntryRounding> entryRoundingOf(const ServerRun &run)
{
    if (!hasDictEntries(run))
        return std::nullopt;
    const std::optional<long long> served = servedBytes(run.allocatorFacts, kDictEntryBytes);
    if (!served)
        return std::nullopt;
    EntryRounding rounding;
    rounding.entry = kDictEntryBytes;
    rounding.served = *served;
    rounding.mainTable = mainEntriesAreDictEntries(run);
    if (rounding.mainTable && hasSlotLinksInEntries(run)) {
        rounding.withSlotLinks = kDictEntryBytes + kSlotLinksBytes;
        rounding.servedWithSlotLinks = servedBytes(run.allocatorFacts, rounding.withSlotLinks).value_or(0);
    }
    rounding.allocator = allocatorWords(run.allocatorFacts);
    return rounding;
}

void addEntryRounding(const EntryRounding &rounding, const MemoryAccounting &pass, long long keys,
                      std::vector<MemoryPart> &parts, RoundingNotes &notes)
{
    MemoryPart *main = partOf(parts, "main-table");
    MemoryPart *expires = partOf(parts, "expires-table");
    MemoryPart *data = partOf(parts, "keys-values");
    if (!main || !expires || !data || keys <= 0)
        return;
    // Redis 7.0 reports a slot-to-keys table of 0 B outside cluster mode: only one that grew holds links.
    const bool slotLinks = pass.slotTable() > 0 && rounding.withSlotLinks > 0 && rounding.servedWithSlotLinks > 0;
    const double perMainEntry = !rounding.mainTable ? 0.0
        : double(slotLinks ? rounding.servedWithSlotLinks - rounding.withSlotLinks : rounding.served - rounding.entry);
    const double perExpiresEntry = double(rounding.served - rounding.entry);
    // More keys with a TTL than keys written, or fewer than none, is no count of this pass.
    std::optional<long long> expiring = pass.keysWithExpiry();
    if (expiring && (*expiring < 0 || *expiring > keys))
        expiring.reset();
    notes.expiresUnknown = notes.expiresUnknown || !expiring;
    notes.slotLinks = notes.slotLinks || slotLinks;
    // Over the pass, the main table gained one entry per key written and the expires table one
    // per key given a TTL.
    const double toMain = perMainEntry;
    const double toExpires = expiring ? perExpiresEntry * double(*expiring) / double(keys) : 0.0;
    if (data->bytesPerKey - toMain - toExpires < 0)
        return;
    main->bytesPerKey += toMain;
    main->allocatorRounding += toMain;
    expires->bytesPerKey += toExpires;
    expires->allocatorRounding += toExpires;
    data->bytesPerKey -= toMain + toExpires;
}

QString roundingSentence(const QString &serverName, const EntryRounding &rounding, const MemoryBreakdown &server,
                         const RoundingNotes &notes)
{
    QStringList held;
    for (const MemoryPart &part : server.parts) {
        if (std::fabs(part.allocatorRounding) >= kRoundingShown)
            held << QStringLiteral("the %1 %2%3").arg(part.label, held.isEmpty() ? QStringLiteral("holds ") : QString(),
                                                      oneDecimal(part.allocatorRounding));
    }
    QString sentence;
    if (!held.isEmpty()) {
        sentence = QStringLiteral("Corrected for the allocator: on %1 %2 bytes per key more than MEMORY STATS counts, moved "
                                  "from keys and values, as %3 serves each %4 B table entry from its %5 B class.")
                       .arg(serverName, held.join(QStringLiteral(" and ")), rounding.allocator)
                       .arg(rounding.entry)
                       .arg(rounding.served);
        if (notes.slotLinks)
            sentence.insert(sentence.size() - 1, QStringLiteral(" (a main-table entry with its slot-to-keys links %1 B from %2 B)")
                                                     .arg(rounding.withSlotLinks)
                                                     .arg(rounding.servedWithSlotLinks));
    }
    if (notes.expiresUnknown && rounding.served != rounding.entry)
        sentence += QStringLiteral("%1On %2 the expires table is as MEMORY STATS counts it, %3 B per entry where %4 serves "
                                   "%5 B: these results do not hold how many keys had a TTL.")
                        .arg(sentence.isEmpty() ? QString() : QStringLiteral(" "), serverName)
                        .arg(rounding.entry)
                        .arg(rounding.allocator)
                        .arg(rounding.served);
    return sentence;
}
