#pragma once
// ResultsBundle <-> JSON ("versus.results/1"), CSV and Markdown. Writes are atomic.

#include "outcome.h"
#include "resultsbundle.h"
#include <QString>

QByteArray bundleToJson(const ResultsBundle &bundle);
Outcome<ResultsBundle> bundleFromJson(const QByteArray &json, const QString &sourceName);

Status saveBundle(const ResultsBundle &bundle, const QString &path);   // temp file + rename
Outcome<ResultsBundle> loadBundle(const QString &path);

QString bundleToCsv(const ResultsBundle &bundle);        // one row per server × metric × category
QString bundleToMarkdown(const ResultsBundle &bundle);   // the results table
