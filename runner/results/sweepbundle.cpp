#include "sweepbundle.h"

ResultsBundle sweepPointBundle(const ResultsBundle &bundle, int index)
{
    ResultsBundle point;
    point.created = bundle.created;
    point.machine = bundle.machine;
    point.versusVersion = bundle.versusVersion;
    point.schedule = bundle.schedule;
    point.repeats = bundle.repeats;
    point.eventsPerBatch = bundle.eventsPerBatch;
    point.clients = bundle.clients;
    point.running = bundle.running;
    point.baseline = bundle.baseline;
    if (index < 0 || index >= int(bundle.sweep.points.size())) {
        point.workload = bundle.workload;
        point.complete = bundle.complete;
        point.servers = bundle.servers;
        return point;
    }
    const SweepPoint &at = bundle.sweep.points[size_t(index)];
    point.workload = at.workload;
    point.complete = at.complete;
    point.servers = at.servers;
    if (at.eventsPerBatch > 0)
        point.eventsPerBatch = at.eventsPerBatch;
    return point;
}

ResultsBundle showingSweepPoint(const ResultsBundle &bundle, int index)
{
    ResultsBundle shown = bundle;
    if (index < 0 || index >= int(bundle.sweep.points.size()))
        return shown;
    const SweepPoint &at = bundle.sweep.points[size_t(index)];
    shown.workload = at.workload;
    shown.complete = at.complete;
    shown.servers = at.servers;
    if (at.eventsPerBatch > 0)
        shown.eventsPerBatch = at.eventsPerBatch;
    shown.sweep.shown = index;
    return shown;
}

int defaultSweepPoint(const SweepResults &sweep, const QString &defaultValue)
{
    for (size_t i = 0; i < sweep.points.size(); ++i) {
        if (sweep.points[i].value == defaultValue)
            return int(i);
    }
    return int(sweep.points.size()) - 1;
}

QString sweepPointLabel(const QString &parameter, const QString &value, int index, int count)
{
    return QStringLiteral("%1=%2 (%3 of %4)").arg(parameter, value).arg(index + 1).arg(count);
}
