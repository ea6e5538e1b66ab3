#include "releasenotesmarkdown.h"

#include "markdowntable.h"
#include "presentation.h"

namespace {

// "ZREMRANGEBYRANK: Valkey 9.1.2 −50.0% against Valkey 8.0.1"
QString releaseNoteCandidatesTitle(const Figures &figures, const ReleaseNoteCandidates &candidates)
{
    return QStringLiteral("%1: %2 %3 against %4")
        .arg(candidates.command, markdownServerName(figures, candidates.serverId),
             candidates.change ? formatPercentChange(*candidates.change) : QString(),
             markdownServerName(figures, candidates.baselineId));
}

// Where the entries come from, or why there are none.
QString releaseNoteCandidatesSource(const ReleaseNoteCandidates &candidates)
{
    if (!candidates.unavailable.isEmpty())
        return candidates.unavailable.at(0).toUpper() + candidates.unavailable.mid(1) + QLatin1Char('.');
    QString line = QStringLiteral("From %1").arg(candidates.source);
    if (!candidates.capped.isEmpty())
        line += QStringLiteral(" (capped: only %1 read)").arg(candidates.capped);
    if (candidates.entries.empty())
        line += QStringLiteral(": no entry between the two versions names %1%2")
                    .arg(candidates.command, candidates.type.isEmpty() ? QString() : QStringLiteral(" or ") + candidates.type);
    return line + QLatin1Char('.');
}

} // namespace

QString releaseNotesMarkdown(const Figures &figures, const QString &heading)
{
    const std::vector<ReleaseNoteCandidates> all = figures.releaseNoteCandidates();
    if (all.empty())
        return {};
    QString markdown = QStringLiteral("\n%1 Release-note candidates\n\n"
                                      "Candidates, not causes: the entries of the newer version's release notes since the older "
                                      "one that name a command whose time changed beyond noise, or its data type.\n")
                           .arg(heading);
    for (const ReleaseNoteCandidates &candidates : all) {
        markdown += QStringLiteral("\n**%1.** %2\n").arg(releaseNoteCandidatesTitle(figures, candidates),
                                                         markdownText(releaseNoteCandidatesSource(candidates)));
        if (!candidates.entries.empty())
            markdown += QLatin1Char('\n');
        for (const ReleaseNoteCandidate &entry : candidates.entries)
            markdown += QStringLiteral("- %1 (names %2): %3\n").arg(entry.version, entry.names, markdownText(entry.text));
    }
    return markdown;
}

QString releaseNotesSummary(const Figures &figures)
{
    QString summary;
    for (const ReleaseNoteCandidates &candidates : figures.releaseNoteCandidates()) {
        summary += QStringLiteral("%1. %2\n").arg(releaseNoteCandidatesTitle(figures, candidates), releaseNoteCandidatesSource(candidates));
        for (const ReleaseNoteCandidate &entry : candidates.entries)
            summary += QStringLiteral("  %1 (names %2): %3\n").arg(entry.version, entry.names, entry.text);
    }
    return summary;
}
