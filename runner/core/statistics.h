#pragma once
// Figures over repeats: the median with min–max and, for n >= 5, a 95% interval of the mean;
// Student's t distribution; and whether a change between two series of repeats is resolved.

#include <optional>
#include <vector>

// Spread of one figure over several repeats.
struct Spread {
    double median = 0;
    double min = 0;
    double max = 0;
    double ciLow = 0;                        // 95% interval, only when n >= 5
    double ciHigh = 0;
    int n = 0;
    bool hasInterval() const { return n >= 5; }
};

Spread spreadOf(std::vector<double> values);

// Student's t distribution with `degreesOfFreedom` (> 0, not necessarily whole): the probability
// of a value at most `t`, and the value below which `probability` (0 < p < 1) of it lies. From
// the regularised incomplete beta function, inverted by bisection.
double studentTCdf(double t, double degreesOfFreedom);
double studentTQuantile(double probability, double degreesOfFreedom);

// Whether a change of a figure between two series of repeats is more than the repeats' own
// spread: Student's t-test on the logarithm of the ratio (so a change and its inverse weigh
// alike), two-sided at 95%. Paired: one ratio per repeat, this over the baseline in the same
// repeat (the fair schedule interleaves them, so the machine's drift between moments cancels).
// Unpaired (two runs): Welch's test on the two series' logarithms.
struct ChangeTest {
    bool paired = true;
    int repeats = 0;                 // pairs, or the fewer repeats of the two series
    int otherRepeats = 0;            // unpaired: the other series' repeats
    double logChange = 0;            // mean log ratio, or the difference of the mean logs
    double standardError = 0;        // of logChange
    double degreesOfFreedom = 0;     // 0: fewer than 2 repeats, no spread known
    bool resolved = false;           // rules out no change at 95%, two-sided
    // The smallest change this run could detect with 80% power at 95% two-sided, in percent
    // (an increase; the matching decrease is smaller): (t(0.975) + t(0.80)) standard errors.
    std::optional<double> detectablePercent;
    // How many repeats (of each series) would resolve a change of the observed size with 80%
    // power, at this spread; none when the change is resolved, nothing changed, no spread is
    // known, or more than kMostRepeatsAdvised would be needed (repeatsBeyondAdvice).
    std::optional<int> repeatsToResolve;
    bool repeatsBeyondAdvice = false;
    // The observed change as a percentage: 100 (exp(logChange) - 1).
    double percent() const;
    bool spreadKnown() const { return degreesOfFreedom > 0; }
};

constexpr int kMostRepeatsAdvised = 1000;

ChangeTest pairedChangeTest(const std::vector<double> &ratios);
ChangeTest unpairedChangeTest(const std::vector<double> &values, const std::vector<double> &reference);
