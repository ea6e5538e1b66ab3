#include "figuremarks.h"

namespace {

struct MarkWords {
    QString mark;
    QString meaning;   // what the mark says of the figure
    QString reason;    // why, when no server is named; may be empty
};

MarkWords markWords(FigureState state)
{
    switch (state) {
    case FigureState::Incomplete:
        return {QStringLiteral("‡"), QStringLiteral("incomplete"), QStringLiteral("the run stopped before every repeat finished")};
    case FigureState::Provisional:
        return {QStringLiteral("*"), QStringLiteral("provisional"), QStringLiteral("the run is still going")};
    default:
        return {};
    }
}

} // namespace

QString figureMark(FigureState state)
{
    return markWords(state).mark;
}

QString withFigureMark(const QString &text, FigureState state)
{
    const QString mark = figureMark(state);
    return mark.isEmpty() ? text : text + QLatin1Char(' ') + mark;
}

QString figureMarkNote(FigureState state, const QStringList &which)
{
    const MarkWords words = markWords(state);
    if (words.mark.isEmpty())
        return QString();
    const QString lead = words.mark + QLatin1Char(' ') + words.meaning;
    if (!which.isEmpty())
        return lead + QStringLiteral(": ") + which.join(QStringLiteral("; "));
    return words.reason.isEmpty() ? lead + QLatin1Char('.') : lead + QStringLiteral(": ") + words.reason + QLatin1Char('.');
}

QString unresolvedMark(const Figure &figure)
{
    return figure.change && !figure.unresolved.isEmpty() ? QStringLiteral("†") : QString();
}

QString withUnresolvedMark(const QString &changeText, const Figure &figure)
{
    const QString mark = unresolvedMark(figure);
    return mark.isEmpty() ? changeText : changeText + QLatin1Char(' ') + mark;
}

QString unresolvedMarkNote(const QString &example)
{
    const QString lead = QStringLiteral("† not resolved: this run's repeats do not rule out no change at 95% (a t-test over "
                                        "the repeats, paired where they pair), so the change is not stated as one.");
    return example.isEmpty() ? lead : lead + QLatin1Char(' ') + example;
}

QString bottleneckMark()
{
    return QStringLiteral("§");
}

QString withBottleneckMark(const QString &text, const Figure &figure)
{
    return figure.bottleneck.isEmpty() ? text : text + QLatin1Char(' ') + bottleneckMark();
}
