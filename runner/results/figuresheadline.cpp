// A table's headline: its first category from the baseline to the newest version of the
// baseline's product or, in a comparison of two bundles, the difference between the bundles
// (the comparison's headline was a change inside the first bundle).

#include "figuresdata.h"
#include "presentation.h"

#include <QVersionNumber>
#include <algorithm>

namespace {

// One version run alike in two bundles: product, version, build (a release or a tree), topology
// (a development build by its sha).
bool sameVersion(const ServerRun &a, const ServerRun &b)
{
    return a.product == b.product && a.version == b.version && a.topology == b.topology
        && a.origin.kind == b.origin.kind && a.origin.isSourceTree() == b.origin.isSourceTree()
        && (!isDevelopmentBuild(a) || a.gitSha == b.gitSha);
}

// A release before a development build, then the higher version.
bool newerThan(const ServerRun &run, const ServerRun &other)
{
    if (isDevelopmentBuild(run) != isDevelopmentBuild(other))
        return !isDevelopmentBuild(run);
    return QVersionNumber::compare(QVersionNumber::fromString(run.version), QVersionNumber::fromString(other.version)) > 0;
}

bool isComparison(const ResultsBundle &bundle)
{
    return std::any_of(bundle.servers.begin(), bundle.servers.end(), [&bundle](const ServerRun &run) {
        return run.bundleName != bundle.servers.front().bundleName;
    });
}

} // namespace

std::optional<Headline> FiguresData::headlineAcrossBundles(const FigureTable &table) const
{
    const ServerRun *base = bundle.server(baseline);
    const ServerRun *from = nullptr;
    const ServerRun *to = nullptr;
    QStringList compared = comparedIds();
    compared.erase(std::remove_if(compared.begin(), compared.end(), [this](const QString &id) { return bundle.server(id)->selfCheck; }),
                   compared.end());
    // The baseline's version from its bundle to the other; else the newest version both ran.
    for (const QString &id : compared) {
        const ServerRun *run = bundle.server(id);
        if (run->bundleName != base->bundleName && sameVersion(*run, *base)) {
            from = base;
            to = run;
            break;
        }
    }
    for (const QString &id : to ? QStringList() : compared) {
        const ServerRun *run = bundle.server(id);
        for (const QString &otherId : compared) {
            const ServerRun *other = bundle.server(otherId);
            const bool pair = run->bundleName == base->bundleName && other->bundleName != base->bundleName
                && sameVersion(*run, *other);
            if (pair && (!from || newerThan(*run, *from))) {
                from = run;
                to = other;
            }
        }
    }
    if (!to)
        return std::nullopt;
    // Against each other, not against the baseline, and never paired: two bundles are two runs.
    Figure difference = table.at(0, to->id);
    compareFigures(difference, table.at(0, from->id), table.measure, false);
    Headline headline;
    headline.fromId = from->id;
    headline.toId = to->id;
    headline.change = difference.change;
    headline.meaning = changeMeaning(table.measure, difference);
    headline.unresolved = difference.unresolved;
    headline.acrossBundles = true;
    headline.provisional = bundle.running;
    headline.categoryLabel = table.categories.front().label;
    return headline;
}

std::optional<Headline> Figures::headline(const FigureTable &table) const
{
    if (!table.leadsWithHeadlineCategory())
        return std::nullopt;
    const ServerRun *from = d->bundle.server(d->baseline);
    if (!from)
        return std::nullopt;
    if (isComparison(d->bundle))
        return d->headlineAcrossBundles(table);
    const ServerRun *to = nullptr;
    for (const QString &id : comparedVersionIds()) {
        const ServerRun *run = d->bundle.server(id);
        if (run == from || run->product != from->product)
            continue;
        // A development build is compared only when no release is: it is not the newest release.
        const bool release = !isDevelopmentBuild(*run);
        const bool toIsRelease = to && !isDevelopmentBuild(*to);
        const int newer = to ? QVersionNumber::compare(QVersionNumber::fromString(run->version),
                                                       QVersionNumber::fromString(to->version))
                             : 1;
        // The same version may be there twice, in two topologies: take the one run as the
        // baseline was.
        const bool closer = to && run->topology == from->topology && to->topology != from->topology;
        if (!to || (release && !toIsRelease) || (release == toIsRelease && (newer > 0 || (newer == 0 && closer))))
            to = run;
    }
    if (!to)
        return std::nullopt;
    Headline headline;
    headline.fromId = from->id;
    headline.toId = to->id;
    headline.change = table.at(0, to->id).change;
    headline.meaning = changeMeaning(table.measure, table.at(0, to->id));
    headline.unresolved = table.at(0, to->id).unresolved;
    headline.provisional = live();
    headline.categoryLabel = table.categories.front().label;
    return headline;
}

QStringList Figures::newestLikeBaselineFirst() const
{
    const ServerRun *base = d->bundle.server(d->baseline);
    QStringList like, unlike;
    for (const QString &id : comparedVersionIds()) {
        const ServerRun *run = d->bundle.server(id);
        const bool same = base && run && run->product == base->product && run->topology == base->topology;
        (same ? like : unlike).prepend(id);
    }
    return like + unlike;
}

QString Figures::referenceServer(const FigureTable &ratios) const
{
    for (const QString &id : newestLikeBaselineFirst()) {
        for (size_t c = 0; c < ratios.categories.size(); ++c) {
            if (ratios.at(int(c), id).settled())
                return id;
        }
    }
    return QString();
}
