#pragma once
// A sweep as the user gives it (`versus run --sweep name=v1,v2,…`, the window's Sweep field):
// one workload parameter at several values, checked before the workload is prepared or any
// server starts, then one workload per value.

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

// Parses the --sweep values (an empty list: no sweep). `workload` is --workload's value,
// `parameters` the --set ones. Errors name the option, the parameter and the value at fault:
// more than one --sweep, an unknown parameter, a value that is not a number, fewer than two
// values, a value given twice, or the parameter also given with --set.
Outcome<SweepValues> parseSweep(const QStringList &options, const QString &workload,
                                const std::map<QString, QString> &parameters);

// One workload per value, made with `make` from `parameters` plus the swept one, and the
// workload's own value of the parameter (made without it). Errors name the point, or the two
// values the workload reads as one ("16,016": both are 16, the same run twice).
using WorkloadMaker = std::function<Outcome<std::shared_ptr<Workload>>(const std::map<QString, QString> &)>;
Outcome<SweepRequest> sweepRequest(const SweepValues &sweep, const std::map<QString, QString> &parameters,
                                   const WorkloadMaker &make);
