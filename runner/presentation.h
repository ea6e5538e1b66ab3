#pragma once
// How figures are shown, shared by the Markdown table and the charts so both read the same:
// server order (which also fixes each version's colour), number formatting and changes
// against the baseline.

#include "resultsbundle.h"
#include <QString>
#include <QStringList>

// Server ids in a stable order: Valkey first, then other products, each by ascending
// version (oldest first); ties by id. The same bundle always gives the same order, and a
// filtered view keeps the positions of the full list (see colour assignment in charts/).
QStringList orderedServerIds(const ResultsBundle &bundle);

// A figure with as many decimals as its size needs: "241.7", "1.22", "0.088", "52,341".
QString formatFigure(double value);

// Relative change in percent; 0 when the baseline is 0.
double changePercent(double value, double baseline);
// "−10.0%" (U+2212 minus), "+3.2%", "0.0%".
QString formatChange(double value, double baseline);
// A ratio over the repeats as changes: "−19.2% to −14.1%", its 95% interval when `interval`
// (and it has one), else its lowest to highest.
QString formatChangeRange(const Spread &ratio, bool interval);
