#pragma once
// Builds a workload from what the user names: "ecommerce", "hash-ttl", or a file whose
// content decides the kind (events JSON Lines, MONITOR output, command file, raw RESP).

#include "outcome.h"
#include "workload.h"
#include <QString>
#include <QStringList>
#include <map>
#include <memory>

// nameOrFile: "ecommerce" (built-in recording), "hash-ttl", or a path.
// parameters: name=value pairs from `--set`; unknown names are an error listing the valid ones.
// attributesFile: attribute configuration for event workloads; empty means the built-in one.
// events: 0 keeps the recording; another count generates that many events from the default
//         seed instead of the built-in recording (only for "ecommerce").
// lenient: capture files skip and count malformed lines instead of failing.
Outcome<std::shared_ptr<Workload>> makeWorkload(const QString &nameOrFile,
                                                const std::map<QString, QString> &parameters,
                                                const QString &attributesFile,
                                                long long events,
                                                bool lenient);

// Names accepted by `--set` for a workload name ("ecommerce", "hash-ttl", "capture").
QStringList workloadParameterNames(const QString &workloadName);

// The built-in workload names, for help texts and menus.
QStringList builtInWorkloadNames();
