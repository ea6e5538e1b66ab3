#pragma once
// Each server version keeps one colour in every chart. Colours come from the Okabe–Ito
// palette, which readers with the common colour-vision deficiencies can tell apart, and are
// assigned by the position of the server in orderedServerIds() of the whole bundle, so a
// filtered view never shifts them.

#include "resultsbundle.h"
#include <QColor>
#include <QString>
#include <map>

QColor paletteColor(int index);
std::map<QString, QColor> serverColors(const ResultsBundle &bundle);
