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
// "over TLS" when every one of `serverIds` was reached over TLS ("over TLS, certificates not
// checked" when one was not), empty otherwise: a run of TLS endpoints alone has no transport
// caveat (nothing to compare it with), yet its client figures include TLS's work.
QString transportProvenance(const ResultsBundle &bundle, const QStringList &serverIds);
// Where a server came from, as the catalog knows it before it runs: "Debian package
// (bookworm-backports)", "upstream build", "source tree my-branch@1a2b3c4d-dirty", "user binary",
// "endpoint"; empty when unknown.
QString buildOriginSummary(const BuildOrigin &origin);
// "quantum 16 B"; "quantum unknown"; empty for an allocator that has none (libc).
QString quantumText(const AllocatorFacts &facts);
// The origin in full: "Debian package (trixie 8.1.1+dfsg1-3+deb13u3)", "upstream build of
// valkey-8.0.1.tar.gz (sha256 bccb382a…)", "binary /opt/x/valkey-server", "endpoint"; empty
// when unknown (an older bundle).
QString buildOriginText(const ServerRun &run);
// A server's build in full, for a reader: "Debian package (trixie 8.1.1+dfsg1-3+deb13u3),
// jemalloc-5.3.0, quantum 16 B", "upstream build of valkey-8.0.1.tar.gz (sha256 bccb382a…),
// jemalloc-5.3.0, quantum 8 B", "binary /opt/x/valkey-server, libc", "endpoint, quantum unknown".
QString buildProvenance(const ServerRun &run);
// "Valkey 8.0.1 (Debian package, build 39f7c371, quantum 16 B)": the display name and what of
// origin, build id and quantum is known; the display name alone when nothing is.
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
