#pragma once
// The figures as Markdown tables, as `versus run` prints them and Copy ▸ Markdown copies them
// (docs/BUNDLE.md).

#include "figures.h"
#include "markdowntable.h"
#include <QString>

QString bundleToMarkdown(const Figures &figures);
QString bundleToMarkdown(const ResultsBundle &bundle);
