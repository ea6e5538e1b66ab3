#pragma once
// The Why (time) view's words as report.md and `versus run` print them: what
// Figures::explainTime() made, formatted; nothing computed here.

#include "figures.h"

#include <QString>

// Under the Why (time) section's table: the commands per loop iteration of each server, the
// sentence, the commands unchanged inside and why a server has no parts. Empty without parts.
QString whyTimeMarkdown(const Figures &figures, const QStringList &ids);

// The Why (time) view in one paragraph, for the end of what `versus run` prints: the sentence
// and the commands unchanged inside, or why the pair has no parts. Empty when nothing explains.
QString whyTimeSummary(const Figures &figures);
