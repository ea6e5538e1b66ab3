// The build caveat: compared servers whose allocators differ (a Debian package's 16-byte
// jemalloc quantum against an upstream build's 8 bytes, jemalloc against libc) differ in
// memory partly because of the build, and wholly when they are one version; and compared
// servers reached over TLS and over plain TCP differ partly because of TLS. Each sentence names
// the comparison it concerns (a server against the baseline, or the answer's pair), and a time
// difference gets one only when the run resolved it. Every view prints these sentences beside
// its headline.

#include "figures.h"
#include "figuresdata.h"

namespace {

// The servers of one allocator family or quantum, in display order, and what they share.
struct BuildGroup {
    QString what;         // "jemalloc", "libc", "16"
    QStringList names;
};

void addTo(std::vector<BuildGroup> &groups, const QString &what, const QString &name)
{
    for (BuildGroup &group : groups) {
        if (group.what == what) {
            group.names << name;
            return;
        }
    }
    groups.push_back(BuildGroup{what, {name}});
}

QString namesText(const QStringList &names)
{
    if (names.size() < 2)
        return names.join(QString());
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + names.last();
}

// "an 8-byte", "a 16-byte": by how the number is read out.
QString quantumPhrase(const QString &bytes)
{
    const bool vowel = bytes.startsWith(QLatin1Char('8')) || bytes == QLatin1String("11") || bytes == QLatin1String("18");
    return QStringLiteral("%1 %2-byte").arg(vowel ? QStringLiteral("an") : QStringLiteral("a"), bytes);
}

// "A allocates with a 16-byte quantum and B with an 8-byte one", or with families:
// "A and B allocate with jemalloc and C with libc".
QString groupsSentence(const std::vector<BuildGroup> &groups, bool quanta)
{
    QStringList parts;
    for (size_t i = 0; i < groups.size(); ++i) {
        const BuildGroup &group = groups[i];
        const QString what = quanta ? quantumPhrase(group.what) + (i == 0 ? QStringLiteral(" quantum") : QStringLiteral(" one"))
                                    : group.what;
        if (i == 0) {
            parts << QStringLiteral("%1 %2 with %3")
                         .arg(namesText(group.names), group.names.size() > 1 ? QStringLiteral("allocate") : QStringLiteral("allocates"), what);
        } else {
            parts << QStringLiteral("%1 with %2").arg(namesText(group.names), what);
        }
    }
    return namesText(parts);
}

// "MEMORY MALLOC-STATS refused: ERR unknown command" -> "MEMORY MALLOC-STATS refused".
QString briefProblem(const QString &problem)
{
    const int colon = problem.indexOf(QStringLiteral(": "));
    return colon > 0 ? problem.left(colon) : problem;
}

} // namespace

QString Figures::transportCaveat() const
{
    QStringList tls, plain;
    for (const QString &id : comparedServerIds()) {
        const ServerRun *run = d->bundle.server(id);
        (run->overTls() ? tls : plain) << summary(id).name;
    }
    if (tls.isEmpty() || plain.isEmpty())
        return QString();
    return QStringLiteral("%1 %2 over TLS and %3 over plain TCP: part of this difference may be TLS, not the version "
                          "(most in the client's figures: events per second and latency).")
        .arg(namesText(tls), tls.size() > 1 ? QStringLiteral("were reached") : QStringLiteral("was reached"), namesText(plain));
}

QString Figures::limitsCaveat() const
{
    QStringList sentences;
    std::map<QString, QStringList> withoutSharedIntegers;   // "maxmemory 4mb, allkeys-lru" -> names
    for (const QString &id : comparedServerIds()) {
        const MeasurementLimits &limits = d->bundle.server(id)->limits;
        QStringList how;
        if (!limits.statsNotReset.isEmpty())
            how << QStringLiteral("its server time is the difference of commandstats over each pass, not counted from a reset");
        if (!limits.trackingLeftOn.isEmpty())
            how << QStringLiteral("its latency tracking stayed on, each command's histogram allocated before the first baseline");
        if (!limits.settingsUnread.isEmpty())
            how << QStringLiteral("its settings were not recorded");
        if (!how.isEmpty())
            sentences << QStringLiteral("%1 %2 and was measured around it: %3.")
                             .arg(summary(id).name,
                                  limits.trackingUnknown() && limits.settingsUnread.isEmpty()
                                      ? QStringLiteral("did not list latency-tracking in its settings")
                                      : QStringLiteral("refused CONFIG"),
                                  how.join(QStringLiteral("; ")));
        if (sharesNoIntegers(*d->bundle.server(id)))
            withoutSharedIntegers[summary(id).memoryLimit] << summary(id).name;
    }
    for (const auto &[limit, names] : withoutSharedIntegers)
        sentences << QStringLiteral("%1 ran with %2: under an LRU or LFU policy a server shares no small integers, so each "
                                    "takes an object of its own and the memory figures are not those without a limit.")
                         .arg(namesText(names), limit);
    return sentences.join(QLatin1Char(' '));
}

namespace {

// What the allocators of `ids` are, grouped: families (jemalloc, libc), jemalloc quanta, and the
// servers whose quantum is unknown.
struct AllocatorGroups {
    std::vector<BuildGroup> families;
    std::vector<BuildGroup> quanta;
    QStringList unknown;
};

AllocatorGroups allocatorGroupsOf(const Figures &figures, const QStringList &ids)
{
    AllocatorGroups groups;
    for (const QString &id : ids) {
        const AllocatorFacts &facts = figures.bundle().server(id)->allocatorFacts;
        if (facts == AllocatorFacts())
            continue;   // a bundle from before the allocator was read says nothing of it
        const QString name = figures.summary(id).name;
        const bool jemalloc = facts.memAllocator.isEmpty() || facts.memAllocator.startsWith(QLatin1String("jemalloc"));
        if (!facts.memAllocator.isEmpty())
            addTo(groups.families, jemalloc ? QStringLiteral("jemalloc") : facts.memAllocator, name);
        if (!jemalloc)
            continue;
        if (facts.quantumBytes > 0)
            addTo(groups.quanta, QString::number(facts.quantumBytes), name);
        else
            groups.unknown << QStringLiteral("%1's quantum is unknown (%2)").arg(name, briefProblem(facts.quantumProblem));
    }
    return groups;
}

// "Valkey 8.0.1 allocates with a 16-byte quantum and Valkey 9.1.2 (upstream build) with an 8-byte
// one", or empty when the allocators agree or nothing is known; `maybe` when one quantum is unknown.
QString allocatorDifference(const AllocatorGroups &groups, bool &maybe)
{
    maybe = false;
    if (groups.families.size() > 1)
        return groupsSentence(groups.families, false);
    if (groups.quanta.size() > 1)
        return groupsSentence(groups.quanta, true);
    if (groups.quanta.size() == 1 && !groups.unknown.isEmpty()) {
        maybe = true;
        return QStringLiteral("%1; %2").arg(groupsSentence(groups.quanta, true), namesText(groups.unknown));
    }
    return QString();
}

bool sameProductAndVersion(const ServerRun &a, const ServerRun &b)
{
    return a.product == b.product && a.version == b.version;
}

// The sentence for one comparison, the baseline `from` against `to`, in memory: what their
// allocators are and how much of their difference that makes the build's. Empty when they agree.
QString memoryBuildSentence(const Figures &figures, const QString &from, const QString &to)
{
    bool maybe = false;
    const QString difference = allocatorDifference(allocatorGroupsOf(figures, {from, to}), maybe);
    if (difference.isEmpty())
        return QString();
    if (sameProductAndVersion(*figures.bundle().server(from), *figures.bundle().server(to)))
        return difference + QStringLiteral(": one version in two builds, so all of their difference in memory is the build.");
    return difference + (maybe ? QStringLiteral(": part of their difference in memory may be the build, not the version.")
                               : QStringLiteral(": part of their difference in memory is the build, not the version."));
}

// The sentence for one comparison in time, only when the run resolved their time difference
// (figuresnoise.cpp) and they are different builds (where they came from, or their allocators).
QString timeBuildSentence(const Figures &figures, const FigureTable &times, const QString &from, const QString &to)
{
    const Figure &change = times.at(0, to);
    if (!times.leadsWithHeadlineCategory() || !change.change || change.withinNoise)
        return QString();
    const ServerRun &a = *figures.bundle().server(from);
    const ServerRun &b = *figures.bundle().server(to);
    bool maybe = false;
    const bool allocators = !allocatorDifference(allocatorGroupsOf(figures, {from, to}), maybe).isEmpty();
    const bool origins = a.origin.kind != BuildKind::Unknown && b.origin.kind != BuildKind::Unknown && a.origin.kind != b.origin.kind;
    if (!allocators && !origins)
        return QString();
    const QString names = QStringLiteral("%1 and %2").arg(figures.summary(to).name, figures.summary(from).name);
    if (sameProductAndVersion(a, b))
        return QStringLiteral("%1 are one version in two builds: all of their resolved difference in time is the build.").arg(names);
    return QStringLiteral("%1 are different builds: part of their difference in time may be the build, not the version.").arg(names);
}

} // namespace

QString Figures::buildCaveat(CaveatOf of) const
{
    QStringList caveats{of == CaveatOf::Memory ? allocatorCaveat() : timeBuildCaveat(), transportCaveat(), limitsCaveat()};
    // Every time view quotes the machine's noise floor, when a self-check measured it.
    if (of == CaveatOf::Time)
        caveats << selfCheckSentence() << bottleneckBrief();
    caveats.removeAll(QString());
    return caveats.join(QLatin1Char(' '));
}

QString Figures::allocatorCaveat() const
{
    QStringList sentences;
    for (const QString &id : comparedVersionIds()) {
        if (id != baselineId() && comparedServerIds().contains(baselineId()))
            sentences << memoryBuildSentence(*this, baselineId(), id);
    }
    sentences.removeAll(QString());
    return sentences.join(QLatin1Char(' '));
}

QString Figures::timeBuildCaveat() const
{
    const FigureTable times = commandTime();
    QStringList sentences;
    for (const QString &id : comparedVersionIds()) {
        if (id != baselineId() && comparedServerIds().contains(baselineId()))
            sentences << timeBuildSentence(*this, times, baselineId(), id);
    }
    sentences.removeAll(QString());
    return sentences.join(QLatin1Char(' '));
}

QString Figures::answerCaveat() const
{
    QStringList caveats;
    const FigureTable memory = this->memory();
    if (const std::optional<Headline> stored = headline(memory); stored && stored->change)
        caveats << memoryBuildSentence(*this, stored->fromId, stored->toId);
    const FigureTable times = commandTime();
    if (const std::optional<Headline> timed = headline(times); timed && timed->change && !timed->acrossBundles)
        caveats << timeBuildSentence(*this, times, timed->fromId, timed->toId);
    caveats << transportCaveat() << limitsCaveat();
    // The answer's time rests on every compared server's timed passes.
    if (const std::optional<Headline> timed = headline(times); timed && timed->change)
        caveats << bottleneckBrief();
    caveats.removeAll(QString());
    return caveats.join(QLatin1Char(' '));
}
