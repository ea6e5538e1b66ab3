#include "statistics.h"

#include <algorithm>
#include <cmath>

namespace {

// The continued fraction of the incomplete beta function (modified Lentz), which converges
// quickly for x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double tiny = 1e-300;
    double c = 1.0;
    double d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / (std::fabs(d) < tiny ? tiny : d);
    double result = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        for (const double step : {m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                                  -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))}) {
            d = 1.0 + step * d;
            d = 1.0 / (std::fabs(d) < tiny ? tiny : d);
            c = 1.0 + step / c;
            c = std::fabs(c) < tiny ? tiny : c;
            result *= d * c;
        }
        if (std::fabs(d * c - 1.0) < 1e-15)
            break;
    }
    return result;
}

// I_x(a, b), the regularised incomplete beta function.
double regularisedBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double meanOf(const std::vector<double> &values)
{
    double sum = 0;
    for (double v : values)
        sum += v;
    return values.empty() ? 0 : sum / double(values.size());
}

// The sample variance (n − 1 in the denominator); 0 with fewer than two values.
double varianceOf(const std::vector<double> &values)
{
    if (values.size() < 2)
        return 0;
    const double mean = meanOf(values);
    double sum = 0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    return sum / double(values.size() - 1);
}

std::vector<double> logsOf(const std::vector<double> &values)
{
    std::vector<double> logs;
    for (double v : values) {
        if (v > 0 && std::isfinite(v))
            logs.push_back(std::log(v));
    }
    return logs;
}

// t(0.975) and t(0.80), the two quantiles every test asks for, for whole degrees of freedom up to
// kMostRepeatsAdvised: computed once (the Figures of one update test hundreds of changes, each
// looking for the repeats that would resolve it), else on demand.
struct TestQuantiles {
    double critical;
    double power;
};

TestQuantiles testQuantiles(double degreesOfFreedom)
{
    static const std::vector<TestQuantiles> table = [] {
        std::vector<TestQuantiles> quantiles(kMostRepeatsAdvised + 1);
        for (int df = 1; df <= kMostRepeatsAdvised; ++df)
            quantiles[size_t(df)] = {studentTQuantile(0.975, df), studentTQuantile(0.80, df)};
        return quantiles;
    }();
    const double whole = std::round(degreesOfFreedom);
    if (whole == degreesOfFreedom && whole >= 1 && whole <= kMostRepeatsAdvised)
        return table[size_t(whole)];
    return {studentTQuantile(0.975, degreesOfFreedom), studentTQuantile(0.80, degreesOfFreedom)};
}

// How many standard errors a change must be for the test to find it 80% of the time.
double detectableErrors(double degreesOfFreedom)
{
    const TestQuantiles quantiles = testQuantiles(degreesOfFreedom);
    return quantiles.critical + quantiles.power;
}

// The repeats per series at which a change of |logChange| would be detectable, the spread per
// repeat staying `variance` (the pairs' own, or the two series' summed) and the degrees of
// freedom `freedomAt(n)`. The normal distribution's quantiles give a lower bound to start from.
template<typename Freedom>
void adviseRepeats(ChangeTest &test, double variance, Freedom freedomAt)
{
    if (test.resolved || test.logChange == 0 || variance <= 0)
        return;
    const double size = std::fabs(test.logChange);
    const double lowest = std::pow((1.959964 + 0.841621) / size, 2.0) * variance;
    if (lowest > kMostRepeatsAdvised) {
        test.repeatsBeyondAdvice = true;
        return;
    }
    for (int n = std::max(test.repeats + 1, int(std::ceil(lowest))); n <= kMostRepeatsAdvised; ++n) {
        if (detectableErrors(freedomAt(n)) * std::sqrt(variance / n) <= size) {
            test.repeatsToResolve = n;
            return;
        }
    }
    test.repeatsBeyondAdvice = true;
}

// The decision and the smallest detectable change, once logChange, standardError and
// degreesOfFreedom are known.
void decide(ChangeTest &test)
{
    if (!test.spreadKnown())
        return;
    const double critical = testQuantiles(test.degreesOfFreedom).critical;
    test.resolved = test.standardError > 0 ? std::fabs(test.logChange) / test.standardError > critical : test.logChange != 0;
    test.detectablePercent = (std::exp(detectableErrors(test.degreesOfFreedom) * test.standardError) - 1.0) * 100.0;
}

} // namespace

double studentTCdf(double t, double degreesOfFreedom)
{
    const double tail = 0.5 * regularisedBeta(degreesOfFreedom / 2.0, 0.5, degreesOfFreedom / (degreesOfFreedom + t * t));
    return t >= 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double probability, double degreesOfFreedom)
{
    if (probability < 0.5)
        return -studentTQuantile(1.0 - probability, degreesOfFreedom);
    if (probability == 0.5 || degreesOfFreedom <= 0)
        return 0;
    double low = 0;
    double high = 1;
    while (studentTCdf(high, degreesOfFreedom) < probability && high < 1e12)
        high *= 2;
    while (high - low > 1e-12 * high) {
        const double middle = (low + high) / 2.0;
        (studentTCdf(middle, degreesOfFreedom) < probability ? low : high) = middle;
    }
    return (low + high) / 2.0;
}

double ChangeTest::percent() const
{
    return (std::exp(logChange) - 1.0) * 100.0;
}

ChangeTest pairedChangeTest(const std::vector<double> &ratios)
{
    ChangeTest test;
    const std::vector<double> logs = logsOf(ratios);
    test.repeats = int(logs.size());
    test.logChange = meanOf(logs);
    if (logs.size() < 2)
        return test;
    const double variance = varianceOf(logs);
    test.degreesOfFreedom = double(logs.size() - 1);
    test.standardError = std::sqrt(variance / double(logs.size()));
    decide(test);
    adviseRepeats(test, variance, [](int n) { return double(n - 1); });
    return test;
}

ChangeTest unpairedChangeTest(const std::vector<double> &values, const std::vector<double> &reference)
{
    ChangeTest test;
    test.paired = false;
    const std::vector<double> these = logsOf(values);
    const std::vector<double> base = logsOf(reference);
    test.repeats = int(std::min(these.size(), base.size()));
    test.otherRepeats = int(std::max(these.size(), base.size()));
    test.logChange = meanOf(these) - meanOf(base);
    if (these.size() < 2 || base.size() < 2)
        return test;
    const double a = varianceOf(these) / double(these.size());
    const double b = varianceOf(base) / double(base.size());
    test.standardError = std::sqrt(a + b);
    // Welch–Satterthwaite; without any spread, the pooled test's n1 + n2 − 2.
    test.degreesOfFreedom = a + b > 0 ? (a + b) * (a + b) / (a * a / double(these.size() - 1) + b * b / double(base.size() - 1))
                                      : double(these.size() + base.size() - 2);
    decide(test);
    const double va = varianceOf(these);
    const double vb = varianceOf(base);
    adviseRepeats(test, va + vb, [va, vb](int n) {
        return va + vb > 0 ? double(n - 1) * (va + vb) * (va + vb) / (va * va + vb * vb) : double(2 * n - 2);
    });
    return test;
}

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
        const double mean = meanOf(values);
        const double half = studentTQuantile(0.975, double(n - 1)) * std::sqrt(varianceOf(values) / double(n));
        spread.ciLow = mean - half;
        spread.ciHigh = mean + half;
    }
    return spread;
}
