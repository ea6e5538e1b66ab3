#pragma once
// Why a version's server time per command differs: where the main thread's event-loop time per
// command goes, from counters the server reports over each timed pass (serverclock.h), Versus's
// own reads taken off. Made by the figures layer (Figures::timeParts(), figurestimeparts.cpp;
// Figures::explainTime(), figureswhytime.cpp); docs/MEASUREMENT.md ("Why (time)") says what each
// part holds.

#include "figures.h"

#include <QString>
#include <QStringList>

// The categories of Figures::timeParts(), by id. Per command of the timed pass (Σ commandstats
// calls), repeat by repeat:
//   loop           Δeventloop_duration_sum: the main thread's event-loop time in all (the total);
//   inside         Σ commandstats usec: time inside the commands;
//   around         Δeventloop_duration_sum − Δeventloop_duration_cmd_sum: reading, parsing,
//                  replies and the work before sleeping, shared over the pass's commands;
//   not-attributed loop − inside − around: the rest, never spread over the others;
//   cpu            Δused_cpu_{user,sys}_main_thread: the main thread's CPU in all, beside the loop.
// inside + around + not-attributed == loop in every repeat; a server's parts are shown as they
// were in the repeat(s) whose loop time is the shown median, so what a view shows adds up too.
namespace TimePart {
inline const QString Loop = QStringLiteral("loop");
inline const QString Inside = QStringLiteral("inside");
inline const QString Around = QStringLiteral("around");
inline const QString NotAttributed = QStringLiteral("not-attributed");
inline const QString Cpu = QStringLiteral("cpu");
} // namespace TimePart

// The parts of the loop time, in the order a sentence or a stack takes them.
const QStringList &loopPartIds();

struct TimeExplanation {
    FigureTable parts;              // Figures::timeParts()
    FigureTable commandsPerCycle;   // Figures::commandsPerLoopCycle()
    // The two servers the sentence compares: the parts table's headline pair (the baseline and
    // the newest version of its product). Empty when there is no such pair.
    QString fromId;
    QString toId;
    // "Of the 0.34 µs per command Valkey 9.1.2 saves over Valkey 8.0.1, 0.21 are in the event
    // loop around the commands and 0.13 inside them; Valkey 9.1.2 runs 38.2 commands per loop
    // iteration against 14.1." A part whose change the repeats do not resolve is said to be
    // unchanged; empty when the pair lacks the counters (then `missing` says why).
    QString sentence;
    // The commands whose time inside them did not change beyond the noise rule, between the
    // same pair: "Unchanged inside the commands (not resolved by the repeats): EXPIRE, SET."
    QString unchanged;
    QString missing;
};
