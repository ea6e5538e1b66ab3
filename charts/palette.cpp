#include "palette.h"

#include "presentation.h"

#include <QVersionNumber>
#include <array>

namespace {

constexpr int paletteSize = 8;

// The lines Versus fetches; the rest share the last three colours by their name.
int preferredIndex(const QString &line)
{
    static const std::map<QString, int> known = {
        {QStringLiteral("valkey 8.0"), 0}, {QStringLiteral("valkey 8.1"), 1}, {QStringLiteral("valkey 9.1"), 2},
        {QStringLiteral("redis 7.0"), 3},  {QStringLiteral("redis 8.0"), 4},
    };
    const auto found = known.find(line);
    if (found != known.end())
        return found->second;
    // FNV-1a, not qHash: qHash is seeded per process, and the colour must not change between runs.
    quint32 hash = 2166136261u;
    for (const char byte : line.toUtf8()) {
        hash ^= quint8(byte);
        hash *= 16777619u;
    }
    return 5 + int(hash % 3);
}

// "valkey 9.1" for Valkey 9.1.2.
QString versionLine(const QString &product, const QString &version)
{
    const QVersionNumber number = QVersionNumber::fromString(version);
    return QStringLiteral("%1 %2.%3").arg(product.toLower()).arg(number.majorVersion()).arg(number.minorVersion());
}

// The n-th further server of a line (n from 0): alternately lighter and darker, further each
// time. Light colours (sky blue, yellow) go darker first, so the shade still reads on white.
QColor shadeOf(const QColor &color, int n)
{
    const int step = 130 + 25 * (n / 2);
    const bool lighterFirst = color.lightnessF() < 0.55;
    return (n % 2 == 0) == lighterFirst ? color.lighter(step) : color.darker(step);
}

} // namespace

QColor paletteColor(int index)
{
    // Okabe–Ito, reordered so neighbouring versions contrast most; its yellow is last
    // because it is hard to read on white.
    static const QRgb colors[paletteSize] = {0x0072B2, 0xE69F00, 0x009E73, 0xD55E00,
                                             0x56B4E9, 0xCC79A7, 0x999999, 0xF0E442};
    return QColor::fromRgb(colors[((index % paletteSize) + paletteSize) % paletteSize]);
}

std::map<QString, QColor> serverColors(const ResultsBundle &bundle)
{
    // A comparison's bundles, first one first: its servers keep the version's own colour,
    // the second bundle's get a shade of it.
    QStringList bundles;
    for (const ServerRun &run : bundle.servers) {
        if (!bundles.contains(run.bundleName))
            bundles << run.bundleName;
    }
    std::map<QString, QColor> colors;
    std::array<bool, paletteSize> taken{};
    std::map<QString, int> lineColor;                       // line → palette index
    std::map<std::pair<QString, QString>, int> seen;        // (line, bundle) → servers so far
    for (const QString &id : orderedServerIds(bundle)) {
        const ServerRun *run = bundle.server(id);
        const QString line = run ? versionLine(run->product, run->version) : id;
        if (lineColor.find(line) == lineColor.end()) {
            int index = preferredIndex(line);
            for (int tries = 0; taken[size_t(index)] && tries < paletteSize; ++tries)
                index = (index + 1) % paletteSize;
            taken[size_t(index)] = true;
            lineColor[line] = index;
        }
        const QString from = run ? run->bundleName : QString();
        const int rank = seen[{line, from}]++;
        const int shade = rank * int(bundles.size()) + int(bundles.indexOf(from));
        const QColor color = paletteColor(lineColor[line]);
        colors[id] = shade <= 0 ? color : shadeOf(color, shade - 1);
    }
    return colors;
}
