#include "whytimemarkdown.h"

#include "markdowntable.h"
#include "timeexplanation.h"

QString whyTimeMarkdown(const Figures &figures, const QStringList &ids)
{
    const TimeExplanation why = figures.explainTime();
    if (why.parts.categories.empty())
        return QString();
    QString markdown;
    if (!why.commandsPerCycle.categories.empty()) {
        MarkdownNotes notes;
        markdown += QLatin1Char('\n') + markdownHeader(QStringLiteral("Loop"), markdownServerNames(figures, ids));
        appendMarkdownRows(markdown, why.commandsPerCycle, ids, notes);
    }
    for (const QString &text : {why.sentence, why.unchanged, why.missing}) {
        if (!text.isEmpty())
            markdown += QLatin1Char('\n') + markdownText(text) + QLatin1Char('\n');
    }
    return markdown;
}

QString whyTimeSummary(const Figures &figures)
{
    const TimeExplanation why = figures.explainTime();
    QStringList texts;
    for (const QString &text : {why.sentence, why.unchanged, why.missing}) {
        if (!text.isEmpty())
            texts << text;
    }
    return texts.join(QLatin1Char(' '));
}
