#pragma once
// Puts two results bundles side by side in one, e.g. the same versions measured on two
// machines: every server id gets the bundle's name as a suffix ("valkey-8.1.1 @ laptop") and
// the server's bundleName is set, so the charts show both sets of bars, the names read
// "Valkey 8.1.1 @ laptop" and each version keeps its colour, shaded per bundle.

#include "resultsbundle.h"
#include <QString>

// `nameA`/`nameB` become the suffixes; empty names fall back to the machines' host names,
// then to "A" and "B". The workload is taken from `a`; a differing workload in `b` is noted
// in the merged workload name. Versions stay as the servers reported them. `compared` keeps
// each bundle's own workload, schedule, repeats, machine and date for the provenance.
ResultsBundle mergeBundles(const ResultsBundle &a, const QString &nameA, const ResultsBundle &b, const QString &nameB);
