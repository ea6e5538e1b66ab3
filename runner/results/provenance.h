#pragma once
// Where a bundle's figures come from, in words for a reader: the workload and its parameters,
// the repeats and the schedule, each server's exact build, the machine and the date. Chart
// footnotes and report.md print it, so a published figure carries what made it.

#include "resultsbundle.h"
#include <QString>
#include <QStringList>

// "hash-ttl (keys 20,000, ttl 900), 60,000 events"
QString workloadProvenance(const WorkloadInfo &workload);
// The same for a bundle. For the merged results of a comparison (bundlemerge.h) whose two
// bundles ran different workloads or parameters, each bundle's, by its name:
// "laptop: hash-ttl (keys 2,000), 2,000 events; server: hash-ttl (keys 20,000), 20,000 events".
QString workloadProvenance(const ResultsBundle &bundle);
// "median of 3 repeats, fair schedule" or "one run, fair schedule"; for a comparison whose
// bundles differ, each one's: "laptop: one run, fair schedule; server: median of 5 repeats,
// concurrent schedule".
QString repeatsProvenance(const ResultsBundle &bundle);
// "Valkey 8.0.1 (build 39f7c371)", or the display name alone when the build is unknown.
QString serverBuildProvenance(const ServerRun &run);
// "AMD EPYC, 2 cores" (with `os`: ", Debian GNU/Linux 12 …"); empty when nothing is known.
QString machineProvenance(const MachineInfo &machine, bool withOs = false);
// The bundle's machine; for a comparison on two machines, each bundle's, by its name.
QString machineProvenance(const ResultsBundle &bundle, bool withOs = false);
// "2026-12-01"; for a comparison of bundles made on different days, each bundle's.
QString dateProvenance(const ResultsBundle &bundle);
// "Versus 0.1.0"; for a comparison of bundles written by different versions, each bundle's.
QString versusProvenance(const ResultsBundle &bundle);
// The parts above and the machine, date and Versus version, for `serverIds` in that order.
// Every part is true of both bundles of a comparison: said once where they agree, else per bundle.
QStringList provenanceParts(const ResultsBundle &bundle, const QStringList &serverIds);
