#pragma once
// ResultsBundle <-> JSON ("versus.results/1", docs/BUNDLE.md). The measurements are the
// source of truth; the derived sections are written from the figures layer, for scripts,
// and ignored on reading. Writes are atomic.

#include "outcome.h"
#include "resultsbundle.h"

class Figures;
#include <QByteArray>
#include <QString>

QByteArray bundleToJson(const ResultsBundle &bundle);
// `bundle` with the derived sections (figures, verdicts, data check) of `figures`, whose shown
// servers are the bundle's: what an export writes of what it shows (shownResults()), without
// computing the figures again.
QByteArray bundleToJson(const ResultsBundle &bundle, const Figures &figures);
Outcome<ResultsBundle> bundleFromJson(const QByteArray &json, const QString &sourceName);

Status saveBundle(const ResultsBundle &bundle, const QString &path);   // temp file + rename
// The same with the derived sections of `figures` (of `bundle`), already computed.
Status saveBundle(const ResultsBundle &bundle, const Figures &figures, const QString &path);
// The largest bundle read: a sweep of many points on many servers is a few MB; parsing takes
// about ten times the file's size in memory.
inline constexpr qint64 kLargestBundleBytes = qint64(64) << 20;
// Reads only a regular file of at most kLargestBundleBytes (boundedfile.h).
Outcome<ResultsBundle> loadBundle(const QString &path);

// The names the bundle uses for its enums, converted only here and in the JSON reader.
QString typeStatusName(TypeStatus status);
QString repeatStatusName(RepeatStatus status);
QString runStatusName(RunStatus status);
QString scheduleName(Schedule schedule);
