#include "measurementlimits.h"

void MeasurementLimits::add(const MeasurementLimits &other)
{
    if (settingsUnread.isEmpty())
        settingsUnread = other.settingsUnread;
    if (trackingLeftOn.isEmpty())
        trackingLeftOn = other.trackingLeftOn;
    if (statsNotReset.isEmpty())
        statsNotReset = other.statsNotReset;
}

QStringList MeasurementLimits::describe() const
{
    QStringList parts;
    if (!settingsUnread.isEmpty())
        parts << QStringLiteral("settings not recorded nor changed (%1)").arg(settingsUnread);
    if (!trackingLeftOn.isEmpty()) {
        const QString why = trackingLeftOn == settingsUnread ? QString() : QStringLiteral(" (%1)").arg(trackingLeftOn);
        parts << QStringLiteral("latency tracking left as the owner has it, each command's histogram allocated before the "
                                "first baseline%1")
                     .arg(why);
    }
    if (!statsNotReset.isEmpty())
        parts << QStringLiteral("statistics not reset: server time is the difference of INFO commandstats over each pass (%1)")
                     .arg(statsNotReset);
    return parts;
}
