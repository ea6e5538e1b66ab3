// The build caveat: compared servers whose allocators differ (a Debian package's 16-byte
// jemalloc quantum against an upstream build's 8 bytes, jemalloc against libc) differ in
// memory partly because of the build; and compared servers reached over TLS and over plain
// TCP differ partly because of TLS. Every view prints these sentences beside its headline.

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

QString Figures::buildCaveat() const
{
    QStringList caveats{allocatorCaveat(), transportCaveat(), limitsCaveat()};
    caveats.removeAll(QString());
    return caveats.join(QLatin1Char(' '));
}

QString Figures::allocatorCaveat() const
{
    std::vector<BuildGroup> families, quanta;
    QStringList unknown;
    for (const QString &id : comparedServerIds()) {
        const ServerRun *run = d->bundle.server(id);
        const AllocatorFacts &facts = run->allocatorFacts;
        if (facts == AllocatorFacts())
            continue;   // a bundle from before the allocator was read says nothing of it
        const QString name = summary(id).name;
        const bool jemalloc = facts.memAllocator.isEmpty() || facts.memAllocator.startsWith(QLatin1String("jemalloc"));
        if (!facts.memAllocator.isEmpty())
            addTo(families, jemalloc ? QStringLiteral("jemalloc") : facts.memAllocator, name);
        if (!jemalloc)
            continue;
        if (facts.quantumBytes > 0)
            addTo(quanta, QString::number(facts.quantumBytes), name);
        else
            unknown << QStringLiteral("%1's quantum is unknown (%2)").arg(name, briefProblem(facts.quantumProblem));
    }
    const QString isBuild = QStringLiteral(": part of this difference is the build, not the version.");
    if (families.size() > 1)
        return groupsSentence(families, false) + isBuild;
    if (quanta.size() > 1)
        return groupsSentence(quanta, true) + isBuild;
    if (quanta.size() == 1 && !unknown.isEmpty()) {
        return QStringLiteral("%1; %2: part of this difference may be the build, not the version.")
            .arg(groupsSentence(quanta, true), namesText(unknown));
    }
    return QString();
}
