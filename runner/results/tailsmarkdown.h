#pragma once
// The server-side tails per command as Markdown (Figures::serverTails), for what `versus run`
// prints and report.md: one row per command and percentile, one column per server, each figure
// as its bucket reads ("≤ 16 µs"), and why a server has none said once under the table.

#include "figures.h"
#include <QString>
#include <QStringList>

// Empty when no server has a tail and none says why (a bundle from before Versus read them).
// `heading` is "##" or "###"; `image` the tails chart's file, embedded when not empty.
QString serverTailsMarkdown(const Figures &figures, const QStringList &ids, const QString &heading,
                            const QString &image = QString());
