#pragma once
// Release-note candidates as report.md and `versus run` print them: what
// Figures::releaseNoteCandidates() listed, formatted; nothing matched here.

#include "figures.h"

#include <QString>

// A section under `heading` ("##"): for each command whose time changed beyond noise, the
// entries naming it or its type, each with its version, or why none are listed. Empty when no
// command's time changed beyond noise.
QString releaseNotesMarkdown(const Figures &figures, const QString &heading);

// The same in a few lines for the end of `versus run`; empty when no command changed.
QString releaseNotesSummary(const Figures &figures);
