#include "profilemarkdown.h"

#include "markdowntable.h"
#include "presentation.h"

#include <QLocale>

namespace {

// "Valkey 8.0.1: 1,204 samples at 499 Hz, symbols" or "Valkey 8.0.1: no profile: …".
QStringList profileServerLines(const Figures &figures, const QStringList &ids)
{
    QStringList lines;
    for (const QString &id : ids) {
        const ServerRun *run = figures.bundle().server(id);
        if (!run || run->profile.empty())
            continue;
        const ServerProfile &profile = run->profile;
        const QString name = serverDisplayName(figures.bundle(), *run);
        if (!profile.recorded()) {
            lines << QStringLiteral("%1: no profile: %2").arg(name, profile.unavailable);
            continue;
        }
        lines << QStringLiteral("%1: %2 samples at %3 Hz%4, %5")
                     .arg(name, QLocale(QLocale::English).toString(profile.totalSamples))
                     .arg(profile.rateHz)
                     .arg(profile.userOnly ? QStringLiteral(" (user space only: perf_event_paranoid 2)") : QString(),
                          profile.symbolStatus());
    }
    return lines;
}

} // namespace

QString profileMarkdown(const Figures &figures, const QStringList &ids)
{
    const QStringList lines = profileServerLines(figures, ids);
    if (lines.isEmpty())
        return QString();
    QString markdown = QStringLiteral("\n");
    if (const QString sentence = figures.profileSentence(); !sentence.isEmpty())
        markdown += markdownText(sentence) + QStringLiteral("\n\n");
    for (const QString &line : lines)
        markdown += QStringLiteral("- %1\n").arg(markdownText(line));
    return markdown;
}

QString profileSummary(const Figures &figures)
{
    QStringList texts;
    if (const QString sentence = figures.profileSentence(); !sentence.isEmpty())
        texts << sentence;
    for (const QString &line : profileServerLines(figures, figures.serverIds()))
        texts << line + QLatin1Char('.');
    return texts.join(QLatin1Char(' '));
}
