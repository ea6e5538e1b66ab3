#pragma once
// A sweep's points as bundles of their own, and which point a sweep bundle shows.

#include "resultsbundle.h"
#include <QString>

// The run at point `index` as a bundle of its own: the bundle's machine, schedule and repeats,
// the point's workload and servers, no sweep. An index out of range gives the bundle unchanged
// (without its sweep).
ResultsBundle sweepPointBundle(const ResultsBundle &bundle, int index);

// The bundle with point `index` at its top level (workload, servers, complete), the sweep kept.
ResultsBundle showingSweepPoint(const ResultsBundle &bundle, int index);

// The point shown by default: the one at `defaultValue` (the workload's own default of the
// parameter), else the last point; -1 without points.
int defaultSweepPoint(const SweepResults &sweep, const QString &defaultValue);

// "value-size=64 (3 of 7)": a point as progress names it. `index` is 0-based.
QString sweepPointLabel(const QString &parameter, const QString &value, int index, int count);
