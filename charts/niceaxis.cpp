#include "niceaxis.h"

#include <algorithm>
#include <cmath>

NiceAxis niceAxis(double needed, int targetTicks)
{
    NiceAxis axis;
    if (!(needed > 0) || !std::isfinite(needed))
        return axis;
    targetTicks = std::max(1, targetTicks);
    const double rough = needed / targetTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    const double fraction = rough / magnitude;
    const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
    axis.step = nice * magnitude;
    const double intervals = std::ceil(needed / axis.step - 1e-9);
    axis.max = intervals * axis.step;
    axis.tickCount = int(intervals) + 1;
    // 2.5 × 10^k needs one decimal more than its magnitude.
    const double smallestDigit = nice == 2.5 ? magnitude / 10 : magnitude;
    axis.decimals = smallestDigit >= 1 ? 0 : int(std::ceil(-std::log10(smallestDigit) - 1e-9));
    return axis;
}
