#pragma once
// A sweep as the user gives it (`versus run --sweep name=v1,v2,…`, the window's Sweep field):
// one workload parameter at several values, or the pipeline depth (`batch`, events per
// pipeline, for every workload), checked before the workload is prepared or any server starts,
// then one workload per value (one for every depth).

#include "outcome.h"
#include "sweepcontroller.h"
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>

struct SweepValues {
    QString parameter;      // "value-size"
    QStringList values;     // "16", "64", "256", as given
};

// The swept parameter that is no workload's: events per pipeline, RunRequest::eventsPerBatch.
inline QString batchSweepParameter() { return QStringLiteral("batch"); }
// The deepest pipeline a batch sweep takes, in events.
constexpr int kMostSweptEventsPerBatch = 10000;

// Parses the --sweep values (an empty list: no sweep). `workload` is --workload's value,
// `parameters` the --set ones. Errors name the option, the parameter and the value at fault:
// more than one --sweep, an unknown parameter, a value that is not a number, fewer than two
// values, a value given twice, or the parameter also given with --set. `batch` takes whole
// numbers 1..kMostSweptEventsPerBatch and is refused when --batch was given too
// (`batchOptionGiven`).
Outcome<SweepValues> parseSweep(const QStringList &options, const QString &workload,
                                const std::map<QString, QString> &parameters, bool batchOptionGiven = false);

// One workload per value, made with `make` from `parameters` plus the swept one, and the
// workload's own value of the parameter (made without it). Errors name the point, or the two
// values the workload reads as one ("16,016": both are 16, the same run twice). A batch sweep
// makes the workload once, from `parameters`, and sets each point's events per pipeline.
using WorkloadMaker = std::function<Outcome<std::shared_ptr<Workload>>(const std::map<QString, QString> &)>;
Outcome<SweepRequest> sweepRequest(const SweepValues &sweep, const std::map<QString, QString> &parameters,
                                   const WorkloadMaker &make);
