#include "serverprofile.h"

#include <QFileInfo>
#include <QStringView>
#include <algorithm>

namespace {

struct CategoryNames {
    ProfileCategory category;
    const char *id;
    const char *label;
};

constexpr std::array<CategoryNames, kProfileCategories> kCategoryNames{{
    {ProfileCategory::CommandExecution, "command-execution", "command execution"},
    {ProfileCategory::HashTable, "hash-table", "hash table lookups"},
    {ProfileCategory::Allocation, "memory-allocation", "memory allocation"},
    {ProfileCategory::Networking, "networking", "networking and system calls"},
    {ProfileCategory::RequestParsing, "request-parsing", "reading and parsing requests"},
    {ProfileCategory::ReplyWriting, "reply-writing", "reply writing"},
    {ProfileCategory::Expiry, "expiry", "expiry"},
    {ProfileCategory::Unnamed, "unnamed", "server binary, no symbols"},
    {ProfileCategory::Other, "other", "other"},
}};

enum class NameMatch { Prefix, Contains, Suffix };

struct SymbolRule {
    ProfileCategory category;
    NameMatch match;
    const char *text;
};

// The one table of symbol-name rules, first match wins: expiry before everything (its names
// say so), reply writing and parsing before allocation (freeClientArgv frees a request's
// arguments: parsing's work), hash tables before allocation (dictFreeUnlinkedEntry is a table's
// own work). Names are Valkey's and Redis's own (server.c, networking.c, dict.c, hashtable.c,
// t_*.c) and jemalloc's and glibc's; a name none matches is "other".
constexpr SymbolRule kSymbolRules[] = {
    {ProfileCategory::Expiry, NameMatch::Contains, "xpire"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "addReply"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "_addReply"},
    {ProfileCategory::ReplyWriting, NameMatch::Contains, "writeToClient"},
    {ProfileCategory::ReplyWriting, NameMatch::Contains, "writevToClient"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "sendReplyToClient"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "handleClientsWithPendingWrites"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "prepareClientToWrite"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "setDeferred"},
    {ProfileCategory::ReplyWriting, NameMatch::Prefix, "clientHasPendingReplies"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "readQueryFromClient"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "readToQueryBuf"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "processInputBuffer"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "processMultibulkBuffer"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "processInlineBuffer"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "parseMultibulk"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "parseInline"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "trimClientQueryBuffer"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "freeClientArgv"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "resetClient"},
    {ProfileCategory::RequestParsing, NameMatch::Prefix, "string2ll"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "dict"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "_dict"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "hashtable"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "kvstore"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "lookupKey"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "dbFind"},
    {ProfileCategory::HashTable, NameMatch::Prefix, "siphash"},
    {ProfileCategory::HashTable, NameMatch::Contains, "ehash"},   // rehash, Rehash
    {ProfileCategory::HashTable, NameMatch::Prefix, "keyHashSlot"},
    {ProfileCategory::Allocation, NameMatch::Contains, "malloc"},
    {ProfileCategory::Allocation, NameMatch::Contains, "calloc"},
    {ProfileCategory::Allocation, NameMatch::Contains, "realloc"},
    {ProfileCategory::Allocation, NameMatch::Contains, "dalloc"},
    {ProfileCategory::Allocation, NameMatch::Contains, "allocx"},   // jemalloc's rallocx, sallocx
    {ProfileCategory::Allocation, NameMatch::Contains, "_alloc"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "free"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "zfree"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "_int_free"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "__libc_free"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "cfree"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "je_"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "tcache"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "arena_"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "extent_"},
    {ProfileCategory::Allocation, NameMatch::Prefix, "sdsfree"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__libc_read"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__libc_write"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__GI___libc_read"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__GI___libc_write"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__writev"},
    {ProfileCategory::Networking, NameMatch::Prefix, "writev"},
    {ProfileCategory::Networking, NameMatch::Prefix, "read"},
    {ProfileCategory::Networking, NameMatch::Prefix, "write"},
    {ProfileCategory::Networking, NameMatch::Contains, "epoll"},
    {ProfileCategory::Networking, NameMatch::Prefix, "send"},
    {ProfileCategory::Networking, NameMatch::Prefix, "recv"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__libc_send"},
    {ProfileCategory::Networking, NameMatch::Prefix, "__libc_recv"},
    {ProfileCategory::Networking, NameMatch::Prefix, "syscall"},
    {ProfileCategory::Networking, NameMatch::Contains, "gettime"},   // clock_gettime, gettimeofday
    {ProfileCategory::Networking, NameMatch::Prefix, "conn"},
    {ProfileCategory::Networking, NameMatch::Prefix, "anet"},
    {ProfileCategory::Networking, NameMatch::Prefix, "ae"},
    {ProfileCategory::Networking, NameMatch::Prefix, "beforeSleep"},
    {ProfileCategory::Networking, NameMatch::Prefix, "afterSleep"},
    {ProfileCategory::Networking, NameMatch::Prefix, "SSL_"},
    {ProfileCategory::Networking, NameMatch::Prefix, "ssl"},
    {ProfileCategory::CommandExecution, NameMatch::Suffix, "Command"},
    {ProfileCategory::CommandExecution, NameMatch::Contains, "Command"},   // processCommand, lookupCommand
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "call"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "hashType"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "setType"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "listType"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "zset"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "zzl"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "zsl"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "lp"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "quicklist"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "intset"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "stream"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "setKey"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "dbAdd"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "dbSet"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "dbGeneric"},
    {ProfileCategory::CommandExecution, NameMatch::Contains, "Object"},   // createStringObject, decrRefCount's objects
    {ProfileCategory::CommandExecution, NameMatch::Contains, "RefCount"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "ACL"},
    {ProfileCategory::CommandExecution, NameMatch::Contains, "ropagate"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "notifyKeyspaceEvent"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "signalModifiedKey"},
    {ProfileCategory::CommandExecution, NameMatch::Prefix, "touchWatchedKey"},
};

bool ruleMatches(const SymbolRule &rule, const QString &symbol)
{
    const QLatin1String text(rule.text);
    switch (rule.match) {
    case NameMatch::Prefix:
        return symbol.startsWith(text);
    case NameMatch::Suffix:
        return symbol.endsWith(text);
    case NameMatch::Contains:
        return symbol.contains(text);
    }
    return false;
}

// The kernel's memory work (a page fault, zeroing a fresh page, charging it to a cgroup) is the
// allocation the server's growth costs; the rest of its samples are system calls and sockets.
bool kernelMemoryWork(const QString &symbol)
{
    static const char *const kWords[] = {"page", "fault", "memcg", "folio", "lru", "tlb", "pte", "pmd", "mm_", "alloc",
                                         "rmqueue", "charge", "brk", "mmap"};
    return std::any_of(std::begin(kWords), std::end(kWords),
                       [&symbol](const char *word) { return symbol.contains(QLatin1String(word)); });
}

bool unresolvedSymbol(const QString &symbol)
{
    return symbol.isEmpty() || symbol == QLatin1String("[unknown]");
}

struct PerfLine {
    QString symbol;
    QString dso;
};

// "  55779dc1952d dictFind (/path/valkey-server)": the symbol (which may hold spaces) and the
// dso in the last parentheses; false for a line that is no sample.
bool parsePerfLine(QStringView line, PerfLine &out)
{
    line = line.trimmed();
    const qsizetype space = line.indexOf(QLatin1Char(' '));
    if (space <= 0 || !line.endsWith(QLatin1Char(')')))
        return false;
    bool isHex = false;
    static_cast<void>(line.left(space).toULongLong(&isHex, 16));
    const qsizetype open = line.lastIndexOf(QLatin1String(" ("));
    if (!isHex || open < space)
        return false;
    out.symbol = line.mid(space + 1, open - space - 1).trimmed().toString();
    out.dso = line.mid(open + 2, line.size() - open - 3).toString();
    return true;
}

} // namespace

const std::array<ProfileCategory, kProfileCategories> &profileCategories()
{
    static const std::array<ProfileCategory, kProfileCategories> categories = [] {
        std::array<ProfileCategory, kProfileCategories> all{};
        for (size_t i = 0; i < kCategoryNames.size(); ++i)
            all[i] = kCategoryNames[i].category;
        return all;
    }();
    return categories;
}

QString profileCategoryId(ProfileCategory category)
{
    return QLatin1String(kCategoryNames[size_t(category)].id);
}

QString profileCategoryLabel(ProfileCategory category)
{
    return QString::fromUtf8(kCategoryNames[size_t(category)].label);
}

bool profileCategoryFromId(const QString &id, ProfileCategory &category)
{
    for (const CategoryNames &names : kCategoryNames) {
        if (id == QLatin1String(names.id)) {
            category = names.category;
            return true;
        }
    }
    return false;
}

QString ServerProfile::symbolStatus() const
{
    const double share = namedShare();
    if (share >= 0.9)
        return QStringLiteral("symbols");
    if (share < 0.1)
        return QStringLiteral("stripped: folded by library only");
    return QStringLiteral("partly stripped: %1% of %2's samples named, the rest folded by library")
        .arg(qRound(share * 100))
        .arg(binaryName.isEmpty() ? QStringLiteral("the server binary") : binaryName);
}

QString ServerProfile::unnamedLabel() const
{
    return binaryName.isEmpty() ? profileCategoryLabel(ProfileCategory::Unnamed)
                                : QStringLiteral("%1, no symbols").arg(binaryName);
}

QString ServerProfile::problem() const
{
    if (totalSamples < 0)
        return QStringLiteral("total samples %1 is negative").arg(totalSamples);
    long long sum = 0;
    for (const auto &[category, count] : samples) {
        if (count <= 0)
            return QStringLiteral("%1 holds %2 samples").arg(profileCategoryId(category)).arg(count);
        if (__builtin_add_overflow(sum, count, &sum))
            return QStringLiteral("the samples pass 2^63 − 1");
    }
    if (sum != totalSamples)
        return QStringLiteral("the categories hold %1 samples where the total is %2").arg(sum).arg(totalSamples);
    if (binarySamples < 0 || binaryNamed < 0 || binaryNamed > binarySamples || binarySamples > totalSamples)
        return QStringLiteral("%1 named of %2 samples in the server binary, of %3 in all")
            .arg(binaryNamed).arg(binarySamples).arg(totalSamples);
    if (rateHz < 0)
        return QStringLiteral("rate %1 Hz is negative").arg(rateHz);
    return QString();
}

ProfileCategory categoryOfSample(const QString &symbol, const QString &dso, const QString &binaryName)
{
    if (dso.startsWith(QLatin1String("[kernel")))
        return kernelMemoryWork(symbol) ? ProfileCategory::Allocation : ProfileCategory::Networking;
    if (dso == QLatin1String("[vdso]"))
        return ProfileCategory::Networking;
    if (unresolvedSymbol(symbol)) {
        const QString library = QFileInfo(dso).fileName();
        if (!binaryName.isEmpty() && library == binaryName)
            return ProfileCategory::Unnamed;
        // A library's code without a name: jemalloc's is allocation, libc's and the rest other.
        return library.startsWith(QLatin1String("libjemalloc")) ? ProfileCategory::Allocation : ProfileCategory::Other;
    }
    for (const SymbolRule &rule : kSymbolRules) {
        if (ruleMatches(rule, symbol))
            return rule.category;
    }
    return ProfileCategory::Other;
}

ServerProfile foldPerfSamples(const QString &perfScript, const QString &binaryName)
{
    ServerProfile profile;
    profile.binaryName = binaryName;
    PerfLine sample;
    for (QStringView line : QStringView(perfScript).split(QLatin1Char('\n'))) {
        if (!parsePerfLine(line, sample))
            continue;
        ++profile.samples[categoryOfSample(sample.symbol, sample.dso, binaryName)];
        ++profile.totalSamples;
        if (!binaryName.isEmpty() && QFileInfo(sample.dso).fileName() == binaryName) {
            ++profile.binarySamples;
            if (!unresolvedSymbol(sample.symbol))
                ++profile.binaryNamed;
        }
    }
    return profile;
}
