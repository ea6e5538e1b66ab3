#pragma once
// Value-axis ranges with round ticks: steps of 1, 2, 2.5 or 5 × 10^k, starting at zero.

struct NiceAxis {
    double max = 1;
    double step = 1;
    int tickCount = 2;     // including zero
    int decimals = 0;      // for tick labels
};

// The shortest round range from zero that holds `needed`: the smallest multiple of a round
// step with between maxIntervals / 2 and maxIntervals intervals (of two steps that end at the
// same place, the one nearer five intervals). With up to 8 intervals: 1.84 → 2.0 (steps of
// 0.5), 754 → 800 (200), 1,481 → 1,500 (250), 1,640 → 1,750 (250).
NiceAxis niceAxis(double needed, int maxIntervals = 8);
