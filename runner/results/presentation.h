#pragma once
// How figures are written, shared by every view so all read the same: server order, names,
// number formatting and changes. It formats the figures layer's values; it computes none.

#include "resultsbundle.h"
#include "statistics.h"
#include <QString>
#include <QStringList>
#include <optional>

// Server ids in a stable order: Valkey first, then other products, each by ascending
// version (oldest first); ties by bundle in a comparison (the first bundle's first), then by
// id. The same bundle always gives the same order, and a filtered view keeps the positions of
// the full list (see colour assignment in charts/).
QStringList orderedServerIds(const ResultsBundle &bundle);

// "Valkey 8.0.1", "Redis 7.0.15", "Valkey 9.1.2 (127.0.0.1:6379)" for an endpoint; the id when
// product or version is unknown. A development build (v=255.255.255) is "Valkey dev build
// 1a2b3c4d" by its git sha, or "Valkey dev build (valkey-dev-unstable)" by its id.
// An upstream build says so: "Valkey 8.0.1 (upstream build)"; a source tree by its name
// (sourceTreeName): "Valkey 8.0.1 (tree my-branch@1a2b3c4d-dirty)", "Valkey dev build (tree
// unstable@9f8e7d6c)". The window's server list and progress rows name a server by it too.
QString serverDisplayName(const ServerRun &run);
// The same in `bundle`, where a Debian package beside an upstream build of its version says
// so too: "Valkey 8.0.1 (Debian package)", and two trees of one name (builds of one dirty
// commit) add their content hash: "(tree my-branch@1a2b3c4d-dirty, content 5425cd4d)". Every
// view of a bundle names its servers this way.
QString serverDisplayName(const ResultsBundle &bundle, const ServerRun &run);
// A source tree as `git describe --dirty` and cargo name one: its branch (else its folder's
// name), '@', its HEAD's short sha (else its content hash), "-dirty" when the checkout has
// changes: "my-branch@1a2b3c4d-dirty", "valkey-8.0.1@5425cd4d".
QString sourceTreeName(const BuildOrigin &origin);
// What stands for the version where one is shown after a product: "8.0.1", "dev build 1a2b3c4d";
// in a comparison of bundles with the bundle's name after it: "8.0.1 @ laptop".
QString serverVersionText(const ServerRun &run);
QString serverVersionText(const ResultsBundle &bundle, const ServerRun &run);
// v=255.255.255: built from a development branch, no release (and never the newest one).
bool isDevelopmentBuild(const ServerRun &run);

// A figure with as many decimals as its size needs: "241.7", "1.22", "0.088", "52,341".
QString formatFigure(double value);

// A change in percent as "−10.0%" (U+2212 minus), "+3.2%", "0.0%".
QString formatPercentChange(double percent);
// A figure against the baseline as hyperfine writes it: "1.86 ± 0.03 ×", "0.92 ×" (one
// repeat), "1.00 (baseline)" for the baseline itself, "—" without a ratio.
QString formatRatio(const std::optional<double> &ratio, const std::optional<double> &plusMinus);
// A multiple as a reader writes it: "1.86×".
QString formatMultiple(double value);
// A ratio over the repeats as changes: "−19.2% to −14.1%", its 95% interval when `interval`
// (and it has one), else its lowest to highest.
QString formatChangeRange(const Spread &ratio, bool interval);

// A capture's commands that were not replayed, as one sentence; empty when none:
// "Not replayed: SELECT 4 (the capture's databases are merged into one: every command goes to
// database 0), FLUSHALL 1, malformed line 2 (--lenient)."
QString skippedCommandsText(const WorkloadInfo &workload);
