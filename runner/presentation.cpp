#include "presentation.h"

#include "resultsstats.h"
#include <QLocale>
#include <algorithm>
#include <cmath>

QStringList orderedServerIds(const ResultsBundle &bundle)
{
    std::vector<const ServerRun *> runs;
    for (const ServerRun &run : bundle.servers)
        runs.push_back(&run);
    std::sort(runs.begin(), runs.end(), [](const ServerRun *a, const ServerRun *b) {
        const bool aValkey = a->product == QLatin1String("valkey");
        const bool bValkey = b->product == QLatin1String("valkey");
        if (aValkey != bValkey)
            return aValkey;
        if (a->product != b->product)
            return a->product < b->product;
        const int byVersion = compareVersions(a->version, b->version);
        if (byVersion != 0)
            return byVersion < 0;
        return a->id < b->id;
    });
    QStringList ids;
    for (const ServerRun *run : runs)
        ids << run->id;
    return ids;
}

QString formatFigure(double value)
{
    const double magnitude = std::fabs(value);
    if (magnitude >= 1000)
        return QLocale(QLocale::English).toString(value, 'f', 0);
    if (magnitude >= 10 || value == 0)
        return QString::number(value, 'f', value == 0 ? 0 : 1);
    if (magnitude >= 0.1)
        return QString::number(value, 'f', 2);
    // Small figures keep two significant digits.
    const int decimals = std::min(6, 1 - int(std::floor(std::log10(magnitude))));
    return QString::number(value, 'f', decimals);
}

double changePercent(double value, double baseline)
{
    if (baseline == 0)
        return 0;
    return (value - baseline) / baseline * 100.0;
}

QString formatChange(double value, double baseline)
{
    const double percent = changePercent(value, baseline);
    QString text = QString::number(std::fabs(percent), 'f', 1) + QLatin1Char('%');
    if (text == QLatin1String("0.0%"))
        return text;
    return (percent < 0 ? QString(QChar(0x2212)) : QStringLiteral("+")) + text;
}

QString formatChangeRange(const Spread &ratio, bool interval)
{
    const bool useInterval = interval && ratio.hasInterval();
    return formatChange(useInterval ? ratio.ciLow : ratio.min, 1.0) + QStringLiteral(" to ")
        + formatChange(useInterval ? ratio.ciHigh : ratio.max, 1.0);
}
