#pragma once
// Each server version keeps one colour in every chart, export and comparison. Colours come
// from the Okabe–Ito palette, which readers with the common colour-vision deficiencies can tell
// apart. The colour follows the version line (product and major.minor): the lines compared
// most have a colour of their own, any other line a stable one derived from its name. A second
// server of the same line (two builds of 9.1) gets a shade of that colour; a different line
// whose colour is taken gets the next free one. In a comparison of two bundles
// (ServerRun::bundleName) the first bundle's servers have the colours they have on their own
// and the second bundle's a shade of the same colour (lighter, or darker for light colours).

#include "resultsbundle.h"
#include <QColor>
#include <QString>
#include <map>

QColor paletteColor(int index);
std::map<QString, QColor> serverColors(const ResultsBundle &bundle);
