#include "resultsstats.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <map>

namespace {

// Two-sided 95% Student t quantiles for 1..30 degrees of freedom.
double tQuantile95(int degreesOfFreedom)
{
    static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                   2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                   2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (degreesOfFreedom < 1)
        return 0;
    if (degreesOfFreedom <= 30)
        return table[degreesOfFreedom - 1];
    return 1.96;
}

} // namespace

Spread spreadOf(std::vector<double> values)
{
    Spread spread;
    spread.n = int(values.size());
    if (values.empty())
        return spread;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    spread.min = values.front();
    spread.max = values.back();
    spread.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    if (n >= 5) {
        double mean = 0;
        for (double v : values)
            mean += v;
        mean /= double(n);
        double variance = 0;
        for (double v : values)
            variance += (v - mean) * (v - mean);
        variance /= double(n - 1);
        const double half = tQuantile95(int(n) - 1) * std::sqrt(variance / double(n));
        spread.ciLow = mean - half;
        spread.ciHigh = mean + half;
    }
    return spread;
}

Spread spreadOver(const ServerRun &run, const std::function<double(const RepeatResult &)> &figure)
{
    std::vector<double> values;
    for (const RepeatResult &repeat : run.repeats) {
        if (repeat.status == QLatin1String("ok"))
            values.push_back(figure(repeat));
    }
    return spreadOf(std::move(values));
}

Spread pairedRatioSpread(const ServerRun &run, const ServerRun &baseline)
{
    std::map<int, double> baselineUsec;
    for (const RepeatResult &repeat : baseline.repeats) {
        if (repeat.status == QLatin1String("ok") && repeat.usecPerCall() > 0)
            baselineUsec[repeat.repeat] = repeat.usecPerCall();
    }
    std::vector<double> ratios;
    for (const RepeatResult &repeat : run.repeats) {
        const auto found = baselineUsec.find(repeat.repeat);
        // A repeat that counted no command time has nothing to compare.
        if (repeat.status == QLatin1String("ok") && found != baselineUsec.end() && repeat.usecPerCall() > 0)
            ratios.push_back(repeat.usecPerCall() / found->second);
    }
    return spreadOf(std::move(ratios));
}

int compareVersions(const QString &a, const QString &b)
{
    const QStringList left = a.split(QLatin1Char('.'));
    const QStringList right = b.split(QLatin1Char('.'));
    for (int i = 0; i < std::max(left.size(), right.size()); ++i) {
        const int l = i < left.size() ? left[i].toInt() : 0;
        const int r = i < right.size() ? right[i].toInt() : 0;
        if (l != r)
            return l < r ? -1 : 1;
    }
    return 0;
}

QString baselineId(const ResultsBundle &bundle)
{
    if (!bundle.baseline.isEmpty() && bundle.server(bundle.baseline))
        return bundle.baseline;
    const ServerRun *oldest = nullptr;
    for (const ServerRun &run : bundle.servers) {
        // Redis is outside the Valkey line; it is a baseline only when nothing else is there.
        const bool better = !oldest
            || (oldest->product != run.product && run.product == QLatin1String("valkey"))
            || (oldest->product == run.product && compareVersions(run.version, oldest->version) < 0);
        if (better)
            oldest = &run;
    }
    return oldest ? oldest->id : QString();
}
