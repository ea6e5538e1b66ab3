#pragma once
// Where a bundle's figures come from, in words for a reader: the workload and its parameters,
// the repeats and the schedule, each server's exact build, the machine and the date. Chart
// footnotes and report.md print it, so a published figure carries what made it.

#include "resultsbundle.h"
#include <QString>
#include <QStringList>

// "hash-ttl (keys 20,000, ttl 900), 60,000 events"
QString workloadProvenance(const WorkloadInfo &workload);
// "median of 3 repeats, fair schedule" or "one run, fair schedule"
QString repeatsProvenance(const ResultsBundle &bundle);
// "Valkey 8.0.1 (build 39f7c371)", or the display name alone when the build is unknown.
QString serverBuildProvenance(const ServerRun &run);
// "AMD EPYC, 2 cores" (with `os`: ", Debian GNU/Linux 12 …"); empty when nothing is known.
QString machineProvenance(const MachineInfo &machine, bool withOs = false);
// The parts above and the machine, date and Versus version, for `serverIds` in that order.
QStringList provenanceParts(const ResultsBundle &bundle, const QStringList &serverIds);
