#pragma once
// Figures over repeats: the median with min–max and, for n >= 5, a 95% interval of the mean.

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
