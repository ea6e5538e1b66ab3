// Why the servers' time per command differs, in words: of the event-loop time per command one
// version saves (or spends more) against the other, how much is in the loop around the commands
// and how much inside them, the largest first, and how many commands one loop iteration ran. A
// part is said to move only when the run's repeats resolve its change (figuresnoise.cpp);
// otherwise it is said to be unchanged, and so is each command whose time inside it did not
// change beyond that rule.

#include "figuresdata.h"
#include "presentation.h"
#include "timeexplanation.h"

#include <algorithm>
#include <cmath>

namespace {

// µs per command as the sentence adds them up: two decimals, so its parts add up as written.
QString partUsecText(double usec) { return QString::number(std::fabs(usec), 'f', 2); }

bool changeResolved(const Figure &figure)
{
    return figure.change && !figure.withinNoise && figure.unresolved.isEmpty();
}

struct PartMove {
    QString id;
    double saved = 0;     // from − to, µs per command
    bool resolved = false;
};

// How a part's move is said within the sentence on the loop's total, which moved by `saved`.
QString partClause(const PartMove &move, double saved)
{
    const bool inside = move.id == TimePart::Inside;
    if (!move.resolved)
        return inside ? QStringLiteral("while the time inside them did not change beyond the noise")
                      : QStringLiteral("while the event loop around them did not change beyond the noise");
    if ((move.saved > 0) == (saved > 0))
        return QStringLiteral("%1 %2").arg(partUsecText(move.saved),
                                           inside ? QStringLiteral("inside them") : QStringLiteral("in the event loop around the commands"));
    return QStringLiteral("while %1 %2 by %3")
        .arg(inside ? QStringLiteral("the time inside them") : QStringLiteral("the event loop around them"),
             move.saved > 0 ? QStringLiteral("fell") : QStringLiteral("grew"), partUsecText(move.saved));
}

// With the total unresolved, the parts the repeats do resolve: "; of its parts, the time
// inside the commands fell by 0.09 µs per command". Empty when none is.
QString resolvedPartsClause(const std::vector<PartMove> &moves)
{
    QStringList clauses;
    for (const PartMove &move : moves) {
        if (move.resolved)
            clauses << QStringLiteral("%1 %2 by %3 µs per command")
                           .arg(move.id == TimePart::Inside ? QStringLiteral("the time inside the commands") : QStringLiteral("the event loop around them"),
                                move.saved > 0 ? QStringLiteral("fell") : QStringLiteral("grew"), partUsecText(move.saved));
    }
    return clauses.isEmpty() ? QString() : QStringLiteral("; of its parts, ") + joinedList(clauses);
}

QString loopSentence(const Figures &figures, const TimeExplanation &explanation)
{
    const FigureTable &parts = explanation.parts;
    const int loop = parts.categoryIndex(TimePart::Loop);
    const Figure &from = parts.at(loop, explanation.fromId);
    const Figure &to = parts.at(loop, explanation.toId);
    const QString fromName = figures.summary(explanation.fromId).name;
    const QString toName = figures.summary(explanation.toId).name;
    std::vector<PartMove> moves;
    for (const QString &id : {TimePart::Around, TimePart::Inside}) {
        const int index = parts.categoryIndex(id);
        moves.push_back({id, parts.at(index, explanation.fromId).value - parts.at(index, explanation.toId).value,
                         changeResolved(parts.at(index, explanation.toId))});
    }
    if (!changeResolved(to))
        return QStringLiteral("%1's event-loop time per command, %3 µs against %4 on %2, did not change beyond the noise (%5)%6")
            .arg(toName, fromName, formatFigure(to.value), formatFigure(from.value),
                 to.unresolved.isEmpty() ? QStringLiteral("within noise") : to.unresolved, resolvedPartsClause(moves));
    const double saved = from.value - to.value;
    // The resolved parts, the largest first; the unresolved ones after them.
    std::stable_sort(moves.begin(), moves.end(), [](const PartMove &a, const PartMove &b) {
        return a.resolved != b.resolved ? a.resolved : std::fabs(a.saved) > std::fabs(b.saved);
    });
    // The parts that make up the total, joined with "and"; a part that moved the other way or
    // did not move after them, each as a "while" of its own.
    QStringList shares;
    QStringList others;
    double said = 0;
    for (const PartMove &move : moves) {
        QString clause = partClause(move, saved);
        const bool share = move.resolved && (move.saved > 0) == (saved > 0);
        // "0.21 are in the event loop …": the first part said as a share of the total.
        if (share && shares.isEmpty())
            clause.insert(clause.indexOf(QLatin1Char(' ')), QStringLiteral(" are"));
        (share ? shares : others) << clause;
        if (move.resolved)
            said += move.saved;
    }
    // What the named parts leave of the total is the rest, not attributed to either.
    const bool allResolved = std::all_of(moves.begin(), moves.end(), [](const PartMove &move) { return move.resolved; });
    if (const double rest = saved - said; allResolved && std::fabs(rest) >= 0.005 && (rest > 0) == (saved > 0))
        shares << QStringLiteral("%1 not attributed").arg(partUsecText(rest));
    QStringList clauses = {joinedList(shares)};
    clauses += others;
    clauses.removeAll(QString());
    const QString lead = saved > 0
        ? QStringLiteral("Of the %1 µs per command of event-loop time %2 saves over %3 (%4 against %5)")
        : QStringLiteral("Of the %1 µs per command of event-loop time %2 spends beyond %3 (%4 against %5)");
    return lead.arg(partUsecText(saved), toName, fromName, formatFigure(to.value), formatFigure(from.value)) + QStringLiteral(", ")
        + clauses.join(QStringLiteral(", "));
}

// "; Valkey 9.1.2 runs 38.2 commands per loop iteration against 14.1": how much each loop
// iteration batches, when both report it.
QString cyclesClause(const Figures &figures, const TimeExplanation &explanation)
{
    const FigureTable &cycles = explanation.commandsPerCycle;
    if (cycles.categories.empty())
        return QString();
    const Figure &from = cycles.at(0, explanation.fromId);
    const Figure &to = cycles.at(0, explanation.toId);
    if (!from.settled() || !to.settled())
        return QString();
    return QStringLiteral("; %1 runs %2 commands per loop iteration against %3")
        .arg(figures.summary(explanation.toId).name, formatFigure(to.value), formatFigure(from.value));
}

// The commands whose time inside them the run does not resolve a change in, between the pair.
QString unchangedCommands(const Figures &figures, const TimeExplanation &explanation)
{
    const FigureTable times = figures.allCommandTimes();
    QStringList names;
    for (size_t c = 0; c < times.categories.size(); ++c) {
        if (times.categories[c].kind != CategoryKind::Command)
            continue;
        const Figure &to = times.at(int(c), explanation.toId);
        if (to.settled() && times.at(int(c), explanation.fromId).settled() && to.change && !changeResolved(to))
            names << times.categories[c].label;
    }
    if (names.isEmpty())
        return QString();
    return QStringLiteral("Unchanged inside the commands between %1 and %2 (no change the repeats resolve): %3.")
        .arg(figures.summary(explanation.fromId).name, figures.summary(explanation.toId).name, names.join(QStringLiteral(", ")));
}

} // namespace

TimeExplanation Figures::explainTime() const
{
    TimeExplanation explanation;
    explanation.parts = timeParts();
    explanation.commandsPerCycle = commandsPerLoopCycle();
    const std::optional<Headline> pair = headline(explanation.parts);
    if (!pair)
        return explanation;
    explanation.fromId = pair->fromId;
    explanation.toId = pair->toId;
    explanation.unchanged = unchangedCommands(*this, explanation);
    const int loop = explanation.parts.categoryIndex(TimePart::Loop);
    for (const QString &id : {pair->fromId, pair->toId}) {
        const Figure &figure = explanation.parts.at(loop, id);
        if (!figure.settled()) {
            explanation.missing = QStringLiteral("%1: event-loop time %2.")
                                      .arg(summary(id).name, figure.note.isEmpty() ? figureStateName(figure.state) : figure.note);
            return explanation;
        }
    }
    explanation.sentence = loopSentence(*this, explanation) + cyclesClause(*this, explanation) + QLatin1Char('.');
    return explanation;
}
