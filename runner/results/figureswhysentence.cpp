// The sentences of the Why view: which parts carry the difference between two servers' bytes
// per key, the allocations behind it, and for a workload with a reference type, what a type
// costs against it. Numbers are those of the breakdowns (figureswhy.cpp), one decimal.

#include "figureswhy.h"
#include "presentation.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr double kShown = 0.05;   // below this a difference prints as 0.0

QString number(double value)
{
    return QString::number(std::fabs(value), 'f', 1);
}

bool hasAccounting(const MemoryExplanation &explanation, const QString &id)
{
    const MemoryBreakdown *found = explanation.server(id);
    return found && !found->parts.empty();
}

// "a, b and c"
QString listed(const QStringList &items)
{
    if (items.size() < 2)
        return items.join(QString());
    return QStringList(items.mid(0, items.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

QString partNoun(const MemoryPart &part)
{
    if (part.id.endsWith(QLatin1String("-table")))
        return QStringLiteral("the ") + part.label;
    return part.label;
}

// A cluster against a standalone server is no version's change (the cost of cluster mode has a
// table of its own): the pair shares the baseline's topology.
bool sameTopology(const Figures &figures, const QString &id, const QString &otherId)
{
    const ServerRun *run = figures.bundle().server(id);
    const ServerRun *other = figures.bundle().server(otherId);
    return run && other && run->topology == other->topology;
}

void choosePair(const Figures &figures, const FigureTable &memory, MemoryExplanation &explanation)
{
    const std::optional<Headline> headline = figures.headline(memory);
    if (headline && headline->fromId != headline->toId && hasAccounting(explanation, headline->fromId)
        && hasAccounting(explanation, headline->toId) && sameTopology(figures, headline->fromId, headline->toId)) {
        explanation.fromId = headline->fromId;
        explanation.toId = headline->toId;
        return;
    }
    const QString base = figures.baselineId();
    if (!hasAccounting(explanation, base))
        return;
    const QStringList compared = figures.comparedVersionIds();
    for (const MemoryBreakdown &other : explanation.servers) {
        if (other.serverId != base && compared.contains(other.serverId) && !other.parts.empty()
            && sameTopology(figures, base, other.serverId)) {
            explanation.fromId = base;
            explanation.toId = other.serverId;
            return;
        }
    }
}

// "Of the 9.5 bytes per key Valkey 9.1.2 saves over Valkey 8.0.1, 6.1 come from the main table
// and 4.2 from the expires table; keys and values take 0.8 more."
QString differenceSentence(const MemoryBreakdown &from, const MemoryBreakdown &to, const QString &fromName,
                           const QString &toName)
{
    const double total = to.bytesPerKey - from.bytesPerKey;
    if (std::fabs(total) < kShown)
        return QStringLiteral("%1 stores a key in the same bytes as %2 (%3).").arg(toName, fromName, number(to.bytesPerKey));
    std::vector<std::pair<double, MemoryPart>> same;
    std::vector<std::pair<double, MemoryPart>> opposite;
    double unattributed = 0;
    for (const MemoryPart &part : to.parts) {
        const double change = part.bytesPerKey - from.part(part.id);
        if (part.id == QLatin1String("not-attributed"))
            unattributed = change;
        else if (std::fabs(change) >= kShown)
            ((change < 0) == (total < 0) ? same : opposite).emplace_back(change, part);
    }
    auto larger = [](const auto &a, const auto &b) { return std::fabs(a.first) > std::fabs(b.first); };
    std::sort(same.begin(), same.end(), larger);
    std::sort(opposite.begin(), opposite.end(), larger);
    QStringList carried;
    for (const auto &[change, part] : same)
        carried << (carried.isEmpty() ? QStringLiteral("%1 come from %2") : QStringLiteral("%1 from %2")).arg(number(change), partNoun(part));
    QString sentence = QStringLiteral("Of the %1 bytes per key %2 %3 %4, %5")
                           .arg(number(total), toName, total < 0 ? QStringLiteral("saves over") : QStringLiteral("uses more than"),
                                fromName, carried.isEmpty() ? QStringLiteral("none comes from one part alone") : listed(carried));
    // Parts that moved the other way: "; keys and values take 0.8 more and the expires table 0.2 more".
    QStringList against;
    for (const auto &[change, part] : opposite) {
        const QString verb = part.id == QLatin1String("keys-values") ? QStringLiteral("take ") : QStringLiteral("takes ");
        against << QStringLiteral("%1 %2%3 %4")
                       .arg(partNoun(part), against.isEmpty() ? verb : QString(), number(change),
                            change > 0 ? QStringLiteral("more") : QStringLiteral("less"));
    }
    if (!against.isEmpty())
        sentence += QStringLiteral("; ") + listed(against);
    if (std::fabs(unattributed) >= kShown)
        sentence += QStringLiteral("; %1 %2 not attributed")
                        .arg(number(unattributed), (unattributed < 0) == (total < 0) ? QStringLiteral("are")
                                                                                      : QStringLiteral("the other way are"));
    return sentence + QLatin1Char('.');
}

// "1.0 fewer of 32 B", the classes that moved most first, at most `most` of them.
QStringList classChanges(const MemoryBreakdown &from, const MemoryBreakdown &to, int most)
{
    std::map<long long, double> change;
    for (const SizeClassShare &share : to.sizeClasses)
        change[share.bytes] += share.perKey;
    for (const SizeClassShare &share : from.sizeClasses)
        change[share.bytes] -= share.perKey;
    std::vector<std::pair<long long, double>> moved(change.begin(), change.end());
    std::sort(moved.begin(), moved.end(), [](const auto &a, const auto &b) { return std::fabs(a.second) > std::fabs(b.second); });
    QStringList words;
    for (const auto &[size, perKey] : moved) {
        if (std::fabs(perKey) < kShown || words.size() >= most)
            break;
        words << QStringLiteral("%1 %2 of %3 B").arg(number(perKey), perKey < 0 ? QStringLiteral("fewer") : QStringLiteral("more")).arg(size);
    }
    return words;
}

// "1.1 more of 32 B" for the classes where `more` holds more regions per key than `less`.
QStringList classesHeldMore(const MemoryBreakdown &more, const MemoryBreakdown &less)
{
    QStringList words;
    for (const QString &change : classChanges(less, more, 4)) {
        if (change.contains(QLatin1String(" more of ")))
            words << change;
    }
    return words;
}

// What two servers' builds are to each other. The same source is the same recorded source hash
// (a release tarball's sha256, a tree's content hash), never the same version string: a tree
// says 8.0.1 whatever was changed in it.
enum class Sources {
    Same,           // one server, or the same source hash
    SameRelease,    // one release, as Debian's package and the tarball's build record it
    Differ,         // one version, but a source tree or another source hash
    Unrelated,      // other versions, or nothing recorded that tells
};

bool isRecordedRelease(const ServerRun &run)
{
    return run.origin.kind == BuildKind::DebianPackage || run.origin.isReleaseBuild();
}

Sources sourcesOf(const ServerRun *a, const ServerRun *b)
{
    if (!a || !b)
        return Sources::Unrelated;
    if (a == b || (!a->origin.sourceSha256.isEmpty() && a->origin.sourceSha256 == b->origin.sourceSha256))
        return Sources::Same;
    if (a->product != b->product || a->version != b->version)
        return Sources::Unrelated;
    const bool bothHashed = !a->origin.sourceSha256.isEmpty() && !b->origin.sourceSha256.isEmpty();
    if (a->origin.isSourceTree() || b->origin.isSourceTree() || bothHashed)
        return Sources::Differ;
    if (isRecordedRelease(*a) && isRecordedRelease(*b) && !isDevelopmentBuild(*a))
        return Sources::SameRelease;
    return Sources::Unrelated;
}

// "sha256 5425cd4d… against sha256 bccb382a…", "sha256 5425cd4d… against Debian's 8.0.1+dfsg1-1~bpo12+1".
QString sourcesWords(const ServerRun &from, const ServerRun &to)
{
    auto source = [](const ServerRun &run) {
        if (!run.origin.sourceSha256.isEmpty())
            return QStringLiteral("sha256 %1…").arg(run.origin.sourceSha256.left(8));
        if (run.origin.kind == BuildKind::DebianPackage && !run.origin.packageVersion.isEmpty())
            return QStringLiteral("Debian's ") + run.origin.packageVersion;
        return QStringLiteral("an unrecorded source");
    };
    return QStringLiteral("%1 against %2").arg(source(to), source(from));
}

// The part whose bytes per key moved most between the two, attributed ones only: "keys and
// values take 8.0 more". Empty when none moved.
QString largestMove(const MemoryBreakdown &from, const MemoryBreakdown &to)
{
    const MemoryPart *largest = nullptr;
    double largestChange = 0;
    for (const MemoryPart &part : to.parts) {
        const double change = part.bytesPerKey - from.part(part.id);
        if (part.id != QLatin1String("not-attributed") && std::fabs(change) >= kShown && std::fabs(change) > std::fabs(largestChange)) {
            largest = &part;
            largestChange = change;
        }
    }
    if (!largest)
        return QString();
    const QString verb = largest->id == QLatin1String("keys-values") ? QStringLiteral("take") : QStringLiteral("takes");
    return QStringLiteral("%1 %2 %3 bytes per key %4").arg(partNoun(*largest), verb, number(largestChange),
                                                          largestChange > 0 ? QStringLiteral("more") : QStringLiteral("less"));
}

// For one version built from different sources: what the sources are and the part that moved,
// so that the difference is never put on the allocator alone.
QString differentSourcesSentence(const ServerRun &fromRun, const ServerRun &toRun, const MemoryBreakdown &from,
                                 const MemoryBreakdown &to, const QString &toName)
{
    const QString moved = largestMove(from, to);
    const QString sources = QStringLiteral("Their sources differ (%1)").arg(sourcesWords(fromRun, toRun));
    if (moved.isEmpty())
        return sources + QLatin1Char('.');
    // One allocator rounds both alike: what moved is the source's. Two allocators share it.
    const bool oneAllocator = fromRun.allocatorFacts.quantumBytes > 0 && fromRun.allocatorFacts == toRun.allocatorFacts;
    return QStringLiteral("%1, and %2 on %3: %4.")
        .arg(sources, moved, toName,
             oneAllocator ? QStringLiteral("with one allocator, the difference is the source's")
                          : QStringLiteral("the difference may be the source's as well as the allocators' rounding"));
}

QString allocationComparison(const Figures &figures, const MemoryBreakdown &from, const MemoryBreakdown &to,
                             const QString &fromName, const QString &toName);

// The comparison of allocations, with the caveat of a pass of few keys.
QString allocationSentence(const Figures &figures, const MemoryBreakdown &from, const MemoryBreakdown &to,
                           const QString &fromName, const QString &toName)
{
    const QString sentence = allocationComparison(figures, from, to, fromName, toName);
    const long long fewest = std::min(from.keys, to.keys);
    if (sentence.isEmpty() || fewest >= kFewKeysForSizeClasses)
        return sentence;
    return sentence + QStringLiteral(" (With %1 keys these counts may be off by 0.1 per key and size class: jemalloc counts "
                                     "the regions its thread cache holds as live.)").arg(fewest);
}

// Same allocations in other size classes from the same source, or the same release: the bytes
// between them are the allocator's rounding.
QString sameSourceComparison(Sources sources, const ServerRun &toRun, const MemoryBreakdown &from,
                             const MemoryBreakdown &to, const QString &fromName, const QString &toName)
{
    const QString both = sources == Sources::Same
        ? QStringLiteral("Both run the same source")
        : QStringLiteral("Both are builds of release %1").arg(toRun.version);
    const QStringList fromMore = classesHeldMore(from, to);
    const QStringList toMore = classesHeldMore(to, from);
    if (fromMore.isEmpty() || toMore.isEmpty())
        return QStringLiteral("%1 and make the same %2 allocations per key in the same size classes.").arg(both, number(from.allocationsPerKey));
    return QStringLiteral("%1 and make the same %2 allocations per key, in other size classes: per key %3 holds %4, %5 %6. "
                          "The %7 bytes per key between them come from the allocator's size classes (its rounding), not "
                          "from the %8.")
        .arg(both, number(from.allocationsPerKey), fromName, listed(fromMore), toName, listed(toMore),
             number(to.bytesPerKey - from.bytesPerKey), sources == Sources::Same ? QStringLiteral("source") : QStringLiteral("version"));
}

QString allocationComparison(const Figures &figures, const MemoryBreakdown &from, const MemoryBreakdown &to,
                             const QString &fromName, const QString &toName)
{
    if (!from.hasSizeClasses || !to.hasSizeClasses)
        return QString();
    const double change = to.allocationsPerKey - from.allocationsPerKey;
    const bool sameCount = std::fabs(change) < std::max(kShown, 0.02 * std::fabs(from.allocationsPerKey));
    const ServerRun *fromRun = figures.bundle().server(from.serverId);
    const ServerRun *toRun = figures.bundle().server(to.serverId);
    const Sources sources = sourcesOf(fromRun, toRun);
    if (sameCount && (sources == Sources::Same || sources == Sources::SameRelease))
        return sameSourceComparison(sources, *toRun, from, to, fromName, toName);
    QString sentence;
    const QStringList fromMore = classesHeldMore(from, to);
    const QStringList toMore = classesHeldMore(to, from);
    if (sameCount && sources == Sources::Differ && !fromMore.isEmpty() && !toMore.isEmpty()) {
        sentence = QStringLiteral("Both make %1 allocations per key, in other size classes: per key %2 holds %3, %4 %5.")
                       .arg(number(to.allocationsPerKey), fromName, listed(fromMore), toName, listed(toMore));
    } else if (sameCount) {
        sentence = QStringLiteral("Both make %1 allocations per key.").arg(number(to.allocationsPerKey));
    } else {
        const QStringList moved = classChanges(from, to, 4);
        sentence = QStringLiteral("%1 makes %2 allocations per key against %3 on %4%5.")
                       .arg(toName, number(to.allocationsPerKey), number(from.allocationsPerKey), fromName,
                            moved.isEmpty() ? QString() : QStringLiteral(": ") + listed(moved));
    }
    if (sources == Sources::Differ)
        sentence += QLatin1Char(' ') + differentSourcesSentence(*fromRun, *toRun, from, to, toName);
    return sentence;
}

// "hashtable (100%)" or "listpack (62%) and hashtable (38%)".
QString encodingWords(const std::optional<TypeEncodings> &encodings)
{
    if (!encodings || encodings->keys <= 0 || encodings->encodings.empty())
        return QString();
    std::vector<std::pair<long long, QString>> byCount;
    for (const auto &[encoding, count] : encodings->encodings)
        byCount.emplace_back(count, encoding);
    std::sort(byCount.rbegin(), byCount.rend());
    QStringList words;
    for (const auto &[count, encoding] : byCount) {
        if (words.size() < 3)
            words << QStringLiteral("%1 (%2%)").arg(encoding).arg(std::lround(100.0 * double(count) / double(encodings->keys)));
    }
    return listed(words);
}

// On one server, a type against the workload's reference type.
QString referenceSentence(const Figures &figures, const MemoryExplanation &explanation)
{
    const QString reference = figures.referenceType();
    const QString type = explanation.category.id;
    if (reference.isEmpty() || explanation.category.total || type == reference || explanation.servers.empty())
        return QString();
    // The server the answer quotes the ratios on (referenceServer()), so that the Why explains
    // the figure the answer gives; else the pair's newer server.
    QString serverId = figures.referenceServer(figures.referenceRatios());
    if (!explanation.server(serverId))
        serverId = explanation.toId;
    if (serverId.isEmpty())
        return QString();
    const MemoryBreakdown *mine = explanation.server(serverId);
    const MemoryExplanation base = figures.explainMemory(reference);
    const MemoryBreakdown *theirs = base.server(serverId);
    if (!mine || !theirs || mine->parts.empty() || theirs->parts.empty())
        return QString();
    const QString typeKey = QStringLiteral("a %1 key").arg(type);
    QString sentence = differenceSentence(*theirs, *mine, QStringLiteral("a %1 key").arg(reference), typeKey);
    sentence.replace(QStringLiteral(" saves over "), QStringLiteral(" saves against ")).replace(QStringLiteral(" uses more than "), QStringLiteral(" takes beyond "));
    sentence[0] = sentence[0].toLower();
    sentence = QStringLiteral("On %1, %2").arg(figures.summary(serverId).name, sentence);
    const QString mineEncoded = encodingWords(figures.encodings(type, serverId));
    const QString theirsEncoded = encodingWords(figures.encodings(reference, serverId));
    if (!mineEncoded.isEmpty() && !theirsEncoded.isEmpty())
        sentence += QStringLiteral(" Its %1 keys are %2 where %3 keys are %4.").arg(type, mineEncoded, reference, theirsEncoded);
    const QString allocations = allocationSentence(figures, *theirs, *mine, reference, type);
    if (!allocations.isEmpty())
        sentence += QLatin1Char(' ') + allocations;
    return sentence;
}

} // namespace

void explainDifference(const Figures &figures, const FigureTable &memory, MemoryExplanation &explanation)
{
    choosePair(figures, memory, explanation);
    if (!explanation.fromId.isEmpty()) {
        const MemoryBreakdown &from = *explanation.server(explanation.fromId);
        const MemoryBreakdown &to = *explanation.server(explanation.toId);
        const QString fromName = figures.summary(from.serverId).name;
        const QString toName = figures.summary(to.serverId).name;
        explanation.sentence = differenceSentence(from, to, fromName, toName);
        // Parts counted at the allocator's size classes rather than as MEMORY STATS counts them.
        for (const QString &rounding : {from.rounding, to.rounding}) {
            if (!rounding.isEmpty())
                explanation.sentence += QLatin1Char(' ') + rounding;
        }
        explanation.allocations = allocationSentence(figures, from, to, fromName, toName);
    }
    explanation.againstReference = referenceSentence(figures, explanation);
}
