#include "palette.h"

#include "presentation.h"

QColor paletteColor(int index)
{
    // Okabe–Ito, reordered so neighbouring versions contrast most; its yellow is last
    // because it is hard to read on white.
    static const QRgb colors[] = {0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0x56B4E9, 0xCC79A7, 0x999999, 0xF0E442};
    const int count = int(sizeof colors / sizeof colors[0]);
    return QColor::fromRgb(colors[((index % count) + count) % count]);
}

std::map<QString, QColor> serverColors(const ResultsBundle &bundle)
{
    std::map<QString, QColor> colors;
    const QStringList ids = orderedServerIds(bundle);
    for (int i = 0; i < ids.size(); ++i)
        colors[ids[i]] = paletteColor(i);
    return colors;
}
