// --profile (serverprofile.h): each server's share of perf samples per category over its untimed
// profile pass, and the sentence naming the biggest difference between the baseline and each
// version. One profile pass per server: a share has no repeats, no spread and no change against
// the baseline (the sentence says the difference in points); a server without a profile is
// absent with the reason.

#include "figuresdata.h"
#include "presentation.h"

#include <QLocale>
#include <cmath>

namespace {

// The label of the server binary's unnamed samples: its file name when every profile agrees
// ("valkey-server, no symbols").
QString unnamedCategoryLabel(const ResultsBundle &bundle, const QStringList &ids)
{
    QString label;
    for (const QString &id : ids) {
        const ServerRun *run = bundle.server(id);
        if (!run || !run->profile.recorded() || !run->profile.samples.count(ProfileCategory::Unnamed))
            continue;
        if (!label.isEmpty() && label != run->profile.unnamedLabel())
            return profileCategoryLabel(ProfileCategory::Unnamed);
        label = run->profile.unnamedLabel();
    }
    return label.isEmpty() ? profileCategoryLabel(ProfileCategory::Unnamed) : label;
}

Figure profileShareFigure(const ServerProfile &profile, ProfileCategory category)
{
    Figure figure;
    const auto found = profile.samples.find(category);
    figure.state = FigureState::Measured;
    figure.value = found == profile.samples.end() ? 0.0 : 100.0 * double(found->second) / double(profile.totalSamples);
    figure.byRepeat[0] = figure.value;
    figure.spread = spreadOf({figure.value});
    return figure;
}

QString profileAbsence(const ServerProfile &profile)
{
    if (!profile.unavailable.isEmpty())
        return QStringLiteral("no profile: %1").arg(profile.unavailable);
    return QStringLiteral("no profile: run with --profile");
}

bool namedCategory(const QString &id)
{
    return id != profileCategoryId(ProfileCategory::Other) && id != profileCategoryId(ProfileCategory::Unnamed);
}

QString sharePercentText(double share)
{
    return QStringLiteral("%1%").arg(QLocale::c().toString(share, 'f', 0));
}

// After the name of a build whose binary's samples perf could not all name, once per sentence:
// " (stripped: folded by library only)", " (partly stripped: 63% of its samples named)".
QString symbolNote(const ServerProfile &profile)
{
    if (profile.hasSymbols())
        return QString();
    if (profile.namedShare() < 0.1)
        return QStringLiteral(" (%1)").arg(profile.symbolStatus());
    return QStringLiteral(" (partly stripped: %1% of its samples named)").arg(qRound(profile.namedShare() * 100));
}

} // namespace

FigureTable Figures::profileShares() const
{
    return d->cachedTable(QStringLiteral("profile"), [this] {
        FigureTable table;
        table.measure = Measure::ProfileSharePercent;
        table.servers = serverIds();
        const QString unnamed = unnamedCategoryLabel(bundle(), table.servers);
        for (ProfileCategory category : profileCategories()) {
            bool sampled = false;
            for (const QString &id : table.servers) {
                const ServerRun *run = bundle().server(id);
                sampled = sampled || (run && run->profile.samples.count(category));
            }
            if (!sampled)
                continue;
            const QString label = category == ProfileCategory::Unnamed ? unnamed : profileCategoryLabel(category);
            table.categories.push_back({profileCategoryId(category), label, false, QString(), {}, CategoryKind::Type, QString()});
            std::vector<Figure> row;
            for (const QString &id : table.servers) {
                const ServerRun *run = bundle().server(id);
                Figure figure;
                if (run && run->profile.recorded())
                    figure = profileShareFigure(run->profile, category);
                else
                    figure.note = run ? profileAbsence(run->profile) : QString();
                row.push_back(figure);
            }
            table.cells.push_back(std::move(row));
        }
        table.note = QStringLiteral("perf record -e cpu-clock (--profile), leaf frames only: no call graphs; one pass per "
                                    "server, so no spread and no change against the baseline.");
        return table;
    });
}

QString Figures::profileSentence() const
{
    const QStringList versions = comparedVersionIds();
    const ServerRun *base = bundle().server(baselineId());
    if (!base || !base->profile.recorded())
        return QString();
    const FigureTable shares = profileShares();
    QStringList sentences;
    for (const QString &id : versions) {
        const ServerRun *run = bundle().server(id);
        if (id == base->id || !run || !run->profile.recorded())
            continue;
        // The biggest gap in a category that says what the server did: "other" and the unnamed
        // samples only where no named one differs.
        int biggest = -1;
        double biggestGap = -1;
        for (int row = 0; row < int(shares.categories.size()); ++row) {
            if (!namedCategory(shares.categories[size_t(row)].id) && biggest >= 0)
                continue;
            const double gap = std::fabs(shares.at(row, id).value - shares.at(row, base->id).value);
            if (gap > biggestGap) {
                biggest = row;
                biggestGap = gap;
            }
        }
        if (biggest < 0)
            continue;
        // The baseline's symbol status once, in the first sentence that names it.
        sentences << QStringLiteral("%1 spends %2 of its samples in %3 against %4 for %5%6.")
                         .arg(serverDisplayName(bundle(), *run) + symbolNote(run->profile),
                              sharePercentText(shares.at(biggest, id).value), shares.categories[size_t(biggest)].label,
                              sharePercentText(shares.at(biggest, base->id).value), serverDisplayName(bundle(), *base),
                              sentences.isEmpty() ? symbolNote(base->profile) : QString());
    }
    if (sentences.isEmpty() && base->profile.recorded()) {
        // One profile: where it spends most.
        int most = 0;
        for (int row = 1; row < int(shares.categories.size()); ++row) {
            if (shares.at(row, base->id).value > shares.at(most, base->id).value)
                most = row;
        }
        if (!shares.categories.empty())
            sentences << QStringLiteral("%1 spends %2 of its samples in %3%4.")
                             .arg(serverDisplayName(bundle(), *base), sharePercentText(shares.at(most, base->id).value),
                                  shares.categories[size_t(most)].label, symbolNote(base->profile));
    }
    return sentences.join(QLatin1Char(' '));
}
