#pragma once
// The marks a figure's state puts after its value, and the sentences under a table or chart that
// say what they mean: written here once, so the charts, the Markdown and the results table mark
// a figure alike and explain the mark in the same words.

#include "figures.h"

#include <QString>
#include <QStringList>

// "‡" incomplete, "*" provisional; empty for every other state.
QString figureMark(FigureState state);
// `text` (a figure's value) with its state's mark after it: "217.6 ‡"; `text` alone without one.
QString withFigureMark(const QString &text, FigureState state);
// What a mark means, on a line of its own: "‡ incomplete: the run stopped before every repeat
// finished." With `which` (the servers it marks, and why), they stand in place of the general
// reason: "‡ incomplete: Valkey 8.0.1, cancelled; Valkey 9.1.2, cancelled". Empty for a state
// without a mark.
QString figureMarkNote(FigureState state, const QStringList &which = {});

// "†" after a time change the run's repeats do not resolve (Figure::unresolved), so no view
// states it as a change without saying so; empty for any other figure.
QString unresolvedMark(const Figure &figure);
// `changeText` ("−0.7%") with that mark: "−0.7% †".
QString withUnresolvedMark(const QString &changeText, const Figure &figure);
// "§" after a time figure some of whose timed passes were not server-bound (Figure::bottleneck);
// the sentence that says why is Figures::bottleneckNote(), which starts with the mark.
QString bottleneckMark();
// `text` (a time figure's value) with that mark: "0.88 §"; `text` alone without one.
QString withBottleneckMark(const QString &text, const Figure &figure);

// What the mark means, on a line of its own, with the headline figure's reason when there is one:
// "† not resolved: the repeats, paired, do not rule out no change at 95%. Valkey 9.1.2, All
// writes: not resolvable with 2 repeats: …".
QString unresolvedMarkNote(const QString &example = QString());
