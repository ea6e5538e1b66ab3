#include "memoryreport.h"

#include "infoparser.h"
#include "messagetext.h"

#include <QRegularExpression>
#include <QStringList>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace {

// The fields the Why view splits bytes into (docs/MEASUREMENT.md, "Why"), as an allow-list
// (memoryaccounting.h, MemoryStatsField).
using MemoryStatsField::kDatabaseFields;
using MemoryStatsField::kServerFields;

template <size_t N>
bool listed(const std::string &name, const char *const (&names)[N])
{
    for (const char *known : names) {
        if (name == known)
            return true;
    }
    return false;
}

bool isDatabase(const std::string &name)
{
    if (name.size() < 4 || name.compare(0, 3, "db.") != 0)
        return false;
    return name.find_first_not_of("0123456789", 3) == std::string::npos;
}

// A MEMORY STATS byte count no server can report: below −2^57 or above 2^57 bytes (a field
// such as dataset.bytes is a difference and may dip below 0; none passes what a process can
// address). Kept, such values would overflow the changes and sums made of them.
Status checkBytes(const Reply &value, const std::string &name)
{
    if (value.integer >= -kMostAddressableBytes && value.integer <= kMostAddressableBytes)
        return Status::success();
    return Error{QStringLiteral("MEMORY STATS: %1 is %2 bytes, more than a process can address (2^57): not a possible reading")
                     .arg(quotedForMessage(QString::fromStdString(name))).arg(value.integer)};
}

Status addDatabase(const Reply &fields, const std::string &database, std::map<QString, long long> &out)
{
    if (fields.kind != Reply::Kind::Array || fields.elements.size() % 2 != 0)
        return Error{QStringLiteral("MEMORY STATS: %1 is not a list of names and values").arg(quotedForMessage(QString::fromStdString(database)))};
    for (size_t i = 0; i + 1 < fields.elements.size(); i += 2) {
        const Reply &name = fields.elements[i];
        const Reply &value = fields.elements[i + 1];
        if (value.kind != Reply::Kind::Integer || !listed(name.text, kDatabaseFields))
            continue;
        if (Status possible = checkBytes(value, database + "." + name.text); !possible)
            return possible;
        long long &sum = out[QLatin1String(MemoryStatsField::kDatabasePrefix) + QString::fromStdString(name.text)];
        if (__builtin_add_overflow(sum, value.integer, &sum) || sum > kMostAddressableBytes)
            return checkBytes(Reply{Reply::Kind::Integer, sum, {}, {}}, "the databases' " + name.text);
    }
    return Status::success();
}

// The next whitespace-separated words of a line.
std::vector<std::string> wordsOf(const std::string &line)
{
    std::istringstream stream(line);
    std::vector<std::string> words;
    for (std::string word; stream >> word;)
        words.push_back(word);
    return words;
}

// A table's column, as its header names it: the header starts with the table's name ("bins:"),
// the rows do not, so a row's word i is under the header's word i + 1. -1 when absent.
int columnOf(const std::vector<std::string> &header, const char *name)
{
    for (size_t i = 1; i < header.size(); ++i) {
        if (header[i] == name)
            return int(i) - 1;
    }
    return -1;
}

bool wholeNumber(const std::string &word, long long &value)
{
    if (word.empty() || word.size() > 18 || word.find_first_not_of("0123456789") != std::string::npos)
        return false;
    value = std::strtoll(word.c_str(), nullptr, 10);
    return true;
}

// The rows under one header, until a line that is no row ("---" separators are skipped).
void readTable(std::istringstream &text, const std::vector<std::string> &header, const char *countColumn,
               std::map<long long, long long> &regions, std::string &next)
{
    const int sizeAt = columnOf(header, "size");
    const int countAt = columnOf(header, countColumn);
    next.clear();
    for (std::string line; std::getline(text, line);) {
        const std::vector<std::string> words = wordsOf(line);
        if (words.size() == 1 && words.front() == "---")
            continue;
        long long size = 0;
        long long count = 0;
        if (sizeAt < 0 || countAt < 0 || int(words.size()) <= std::max(sizeAt, countAt) || !wholeNumber(words[size_t(sizeAt)], size)
            || !wholeNumber(words[size_t(countAt)], count)) {
            next = line;
            return;
        }
        if (count > 0)
            regions[size] += count;
    }
}

bool startsTable(const std::vector<std::string> &words, const char *table)
{
    return words.size() > 2 && words[0] == table && words[1] == "size";
}

// A "name=value" field of one CLIENT INFO or CLIENT LIST line.
QString clientField(const QString &line, const QString &name)
{
    for (const QStringView word : QStringView(line).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (word.size() > name.size() && word.startsWith(name) && word.at(name.size()) == QLatin1Char('='))
            return word.mid(name.size() + 1).toString();
    }
    return QString();
}

std::optional<long long> byteCount(const QString &line, const QString &name)
{
    long long value = 0;
    if (!wholeNumber(clientField(line, name).toStdString(), value) || value > kMostAddressableBytes)
        return std::nullopt;
    return value;
}

QString refusalOf(const char *command, const Reply &reply)
{
    return QStringLiteral("%1: %2").arg(QLatin1String(command), quotedForMessage(QString::fromStdString(reply.text)));
}

} // namespace

Outcome<std::map<QString, long long>> memoryStatsFields(const Reply &reply)
{
    if (reply.kind != Reply::Kind::Array || reply.elements.size() % 2 != 0)
        return Error{QStringLiteral("MEMORY STATS: the reply is not a list of names and values")};
    std::map<QString, long long> fields;
    for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        const Reply &name = reply.elements[i];
        const Reply &value = reply.elements[i + 1];
        if (name.kind != Reply::Kind::String && name.kind != Reply::Kind::Status)
            return Error{QStringLiteral("MEMORY STATS: element %1 is no field name").arg(i)};
        if (isDatabase(name.text)) {
            if (Status added = addDatabase(value, name.text, fields); !added)
                return Error{added.error()};
        } else if (value.kind == Reply::Kind::Integer && listed(name.text, kServerFields)) {
            if (Status possible = checkBytes(value, name.text); !possible)
                return Error{possible.error()};
            fields[QString::fromStdString(name.text)] = value.integer;
        }
    }
    if (!fields.count(QLatin1String(MemoryStatsField::kTotalAllocated)) || !fields.count(QLatin1String(MemoryStatsField::kDataset)))
        return Error{QStringLiteral("MEMORY STATS: the reply has no %1 or %2").arg(QLatin1String(MemoryStatsField::kTotalAllocated),
                                                                                 QLatin1String(MemoryStatsField::kDataset))};
    return fields;
}

long long connectionMemoryBeforeReplies(const std::string &clientInfo)
{
    const QString line = QString::fromStdString(clientInfo).trimmed();
    const std::optional<long long> total = byteCount(line, QStringLiteral("tot-mem"));
    if (!total)
        return 0;
    return *total - byteCount(line, QStringLiteral("omem")).value_or(0);
}

std::optional<long long> clientsMemoryNow(const std::string &clientInfo, const std::string &clientList)
{
    const QString own = QString::fromStdString(clientInfo).trimmed();
    const QString ownId = clientField(own, QStringLiteral("id"));
    if (ownId.isEmpty() || !byteCount(own, QStringLiteral("tot-mem")))
        return std::nullopt;
    long long sum = connectionMemoryBeforeReplies(clientInfo);
    bool ownListed = false;
    for (const QString &line : QString::fromStdString(clientList).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString client = line.trimmed();
        if (client.isEmpty())
            continue;
        const QString id = clientField(client, QStringLiteral("id"));
        const std::optional<long long> memory = byteCount(client, QStringLiteral("tot-mem"));
        if (id.isEmpty() || !memory)
            return std::nullopt;
        if (id == ownId) {
            ownListed = true;
            continue;
        }
        // A replica's buffers are clients.slaves, counted apart (and as they are).
        if (clientField(client, QStringLiteral("flags")).contains(QLatin1Char('S')))
            continue;
        if (__builtin_add_overflow(sum, *memory, &sum) || sum > kMostAddressableBytes)
            return std::nullopt;
    }
    return ownListed ? std::optional<long long>(sum) : std::nullopt;
}

Outcome<std::map<long long, long long>> jemallocRegions(const std::string &text)
{
    std::istringstream lines(text);
    std::map<long long, long long> regions;
    bool bins = false;
    bool large = false;
    std::string line;
    while (!(bins && large) && std::getline(lines, line)) {
        for (;;) {
            const std::vector<std::string> words = wordsOf(line);
            const bool binsHere = !bins && startsTable(words, "bins:");
            const bool largeHere = bins && !large && startsTable(words, "large:");
            if (!binsHere && !largeHere)
                break;
            (binsHere ? bins : large) = true;
            readTable(lines, words, binsHere ? "curregs" : "curlextents", regions, line);
        }
    }
    if (!bins)
        return Error{QStringLiteral("MEMORY MALLOC-STATS: no jemalloc size classes in the reply")};
    return regions;
}

std::optional<long long> keysWithExpiry(const QString &keyspace)
{
    static const QRegularExpression line(QStringLiteral("^db\\d+:.*\\bexpires=([^,\\s]*)"), QRegularExpression::MultilineOption);
    long long sum = 0;
    for (auto it = line.globalMatch(keyspace); it.hasNext();) {
        const std::optional<long long> count = parseInfoCount(it.next().capturedView(1));
        if (!count || __builtin_add_overflow(sum, *count, &sum))
            return std::nullopt;
    }
    return sum;
}

Outcome<MemoryAccounting> readMemoryAccounting(RedisConnection &connection)
{
    MemoryAccounting accounting;
    // One pipeline, answered in one turn of the server's event loop: the clients are listed as
    // they were when MEMORY STATS added up its memory (MemoryStatsField::kClientsLag).
    const Outcome<std::vector<Reply>> replies = connection.pipeline({{"MEMORY", "STATS"}, {"CLIENT", "INFO"}, {"CLIENT", "LIST"}});
    if (!replies)
        return Error{replies.error()};
    const Reply &stats = replies->at(0);
    const Reply &ownClient = replies->at(1);
    const Reply &clientList = replies->at(2);
    if (stats.isError()) {
        accounting.statsUnavailable = refusalOf("MEMORY STATS", stats);
    } else if (Outcome<std::map<QString, long long>> fields = memoryStatsFields(stats); fields) {
        accounting.stats = std::move(fields.value());
        const std::optional<long long> clientsNow = ownClient.isError() || clientList.isError()
                                                        ? std::nullopt
                                                        : clientsMemoryNow(ownClient.text, clientList.text);
        const auto counted = accounting.stats.find(QLatin1String(MemoryStatsField::kNormalClients));
        if (clientsNow && counted != accounting.stats.end())
            accounting.stats[QLatin1String(MemoryStatsField::kClientsLag)] = counted->second - *clientsNow;
        // Without it the expires table stays as MEMORY STATS counts it (the Why says so).
        const Outcome<QString> keyspace = connection.info(QStringLiteral("keyspace"));
        const std::optional<long long> expiring = keyspace ? keysWithExpiry(keyspace.value()) : std::nullopt;
        if (expiring)
            accounting.stats[QLatin1String(MemoryStatsField::kKeysWithExpiry)] = *expiring;
    } else {
        accounting.statsUnavailable = fields.error();
    }
    Outcome<Reply> malloc = connection.command({"MEMORY", "MALLOC-STATS"});
    if (!malloc)
        return Error{malloc.error()};
    if (malloc->isError()) {
        accounting.regionsUnavailable = refusalOf("MEMORY MALLOC-STATS", malloc.value());
    } else if (Outcome<std::map<long long, long long>> regions = jemallocRegions(malloc->text); regions) {
        accounting.regions = std::move(regions.value());
    } else {
        // Another allocator answers with a line of its own ("Stats not supported for the
        // current allocator"): said, not kept.
        accounting.regionsUnavailable = QStringLiteral("MEMORY MALLOC-STATS: the allocator is not jemalloc (%1)")
                                            .arg(quotedForMessage(QString::fromStdString(malloc->text.substr(0, 200))));
    }
    return accounting;
}
