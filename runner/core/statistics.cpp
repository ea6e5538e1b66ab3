#include "statistics.h"

#include <algorithm>
#include <cmath>

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
