#pragma once
// A sweep's figures as Markdown tables: one row per server and category, one column per value
// of the swept parameter. Formats the figures layer's sweep tables (figuressweep.h).

#include "resultsbundle.h"
#include <QString>

// "### Memory per key against value-size" and, with a reference category, "### Memory against
// set-ex, against value-size". Empty for a bundle that is not a sweep.
QString sweepToMarkdown(const ResultsBundle &bundle, const QString &heading = QStringLiteral("###"));
