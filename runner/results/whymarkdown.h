#pragma once
// "## Why the memory differs": the Why view as report.md and `versus run` print it. Formats
// what Figures::explainMemory() made; computes nothing.

#include "figures.h"

#include <QString>

// The sentences, one table of each server's parts (bytes per key) and one of its allocations
// per key by size class, for the total; then each type's sentence. `image`, when not empty, is
// the exported Why chart's file name, shown first. Empty when no server reported its accounting.
QString whyMarkdown(const Figures &figures, const QString &image = QString());
