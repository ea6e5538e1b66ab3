#pragma once
// What --profile found, in words, for report.md's profile section and the `Profile:` paragraph
// at the end of `versus run`: the figures layer's sentence, each profiled build's samples and
// symbol status, and why a server has no profile.

#include "figures.h"

// Lines under the profile section's tables; empty when no shown server has a profile or a reason.
QString profileMarkdown(const Figures &figures, const QStringList &ids);
// One paragraph: the sentence, then each server's samples and symbol status or why it has none;
// empty when the run had no --profile.
QString profileSummary(const Figures &figures);
