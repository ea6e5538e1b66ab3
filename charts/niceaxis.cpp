#include "niceaxis.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace {

NiceAxis axisOf(double needed, double mantissa, double magnitude)
{
    NiceAxis axis;
    axis.step = mantissa * magnitude;
    const int intervals = std::max(1, int(std::ceil(needed / axis.step - 1e-9)));
    axis.max = intervals * axis.step;
    axis.tickCount = intervals + 1;
    // 2.5 × 10^k needs one decimal more than its magnitude.
    const double smallestDigit = mantissa == 2.5 ? magnitude / 10 : magnitude;
    axis.decimals = smallestDigit >= 1 ? 0 : int(std::ceil(-std::log10(smallestDigit) - 1e-9));
    return axis;
}

} // namespace

NiceAxis niceAxis(double needed, int maxIntervals)
{
    if (!(needed > 0) || !std::isfinite(needed))
        return {};
    maxIntervals = std::max(1, maxIntervals);
    const int minIntervals = std::max(1, maxIntervals / 2);
    // Steps from needed / maxIntervals (rounded down to a power of ten) up to needed.
    const double lowest = std::pow(10.0, std::floor(std::log10(needed / maxIntervals)));
    const std::array<double, 4> mantissas{1, 2, 2.5, 5};
    NiceAxis best;
    bool found = false;
    for (double magnitude = lowest; magnitude <= needed * 10; magnitude *= 10) {
        for (double mantissa : mantissas) {
            const NiceAxis axis = axisOf(needed, mantissa, magnitude);
            const int intervals = axis.tickCount - 1;
            if (intervals < minIntervals || intervals > maxIntervals)
                continue;
            // The shortest axis wins; of two that end at the same place, the one nearer five
            // intervals (the fewer on a tie: steps are tried smallest first).
            const bool shorter = axis.max < best.max * (1 - 1e-9);
            const bool sameEnd = std::abs(axis.max - best.max) <= best.max * 1e-9;
            const bool nearerFive = std::abs(intervals - 5) <= std::abs(best.tickCount - 1 - 5);
            if (!found || shorter || (sameEnd && nearerFive)) {
                best = axis;
                found = true;
            }
        }
    }
    return found ? best : axisOf(needed, 1, std::pow(10.0, std::ceil(std::log10(needed))));
}
