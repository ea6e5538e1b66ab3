#include "generatorlimits.h"

Status checkGeneratedEvents(long long events, const QString &option)
{
    if (events <= maxGeneratedEvents)
        return Status::success();
    return Error{QStringLiteral("%1: %2 events is more than the limit of %3: the events are counted before the run "
                                "and replayed into every server (about 4 minutes per server at the limit), and "
                                "their shoppers scale with them; see docs/WORKLOADS.md")
                     .arg(option)
                     .arg(events)
                     .arg(maxGeneratedEvents)};
}

Status checkGeneratedShoppers(long long shoppers, const QString &option)
{
    if (shoppers <= maxGeneratedShoppers)
        return Status::success();
    return Error{QStringLiteral("%1: %2 shoppers is more than the limit of %3: the generator keeps each shopper "
                                "in memory (about 150 bytes, 1.5 GB at the limit) and every server keeps each "
                                "shopper's attributes; see docs/WORKLOADS.md")
                     .arg(option)
                     .arg(shoppers)
                     .arg(maxGeneratedShoppers)};
}
