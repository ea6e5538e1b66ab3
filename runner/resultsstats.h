#pragma once
// Figures over repeats: medians with min–max and, for n >= 5, a 95% interval.

#include "resultsbundle.h"
#include <functional>
#include <vector>

Spread spreadOf(std::vector<double> values);
Spread spreadOver(const ServerRun &run, const std::function<double(const RepeatResult &)> &figure);
// µs per command over the baseline's in the same repeat, for every repeat both completed.
// The versions of a repeat are timed side by side, so a change in the machine's own speed
// between repeats moves them together and drops out of this ratio.
Spread pairedRatioSpread(const ServerRun &run, const ServerRun &baseline);

// The baseline server id: bundle.baseline if set and present, else the oldest version.
QString baselineId(const ResultsBundle &bundle);
// Compares dotted versions numerically ("8.1.1" < "9.1.2" < "255.255.255").
int compareVersions(const QString &a, const QString &b);
