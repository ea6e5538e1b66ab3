#pragma once
// Value-axis ranges with round ticks: steps of 1, 2, 2.5 or 5 × 10^k, starting at zero.

struct NiceAxis {
    double max = 1;
    double step = 1;
    int tickCount = 2;     // including zero
    int decimals = 0;      // for tick labels
};

// The smallest round range from zero that holds `needed`, with about `targetTicks` intervals.
NiceAxis niceAxis(double needed, int targetTicks = 5);
