#pragma once
// "## Why the memory differs": the Why view as report.md and `versus run` print it. Formats
// what Figures::explainMemory() made; computes nothing.

#include "figures.h"

#include <QString>

// The sentences, one table of each server's parts (bytes per key) and one of its allocations
// per key by size class, for the total; then each type's sentence. `image`, when not empty, is
// the exported Why chart's file name, shown first. Empty when no server reported its accounting.
QString whyMarkdown(const Figures &figures, const QString &image = QString());

// The Why view in one paragraph, for the end of what `versus run` prints: the sentence and the
// allocations of the memory table's first category, or, for a workload measured against a
// reference type (no total), its first type against the reference. Empty when nothing explains.
QString whySummary(const Figures &figures);
