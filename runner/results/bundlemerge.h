#pragma once
// Puts two results bundles side by side in one, e.g. the same versions measured on two
// machines: every server id gets the bundle's name as a suffix ("valkey-8.1.1 @ laptop"),
// so the charts show both sets of bars and each keeps its own colour.

#include "resultsbundle.h"
#include <QString>

// `nameA`/`nameB` become the suffixes; empty names fall back to the machines' host names,
// then to "A" and "B". The workload is taken from `a`; a differing workload in `b` is noted
// in the merged workload name.
ResultsBundle mergeBundles(const ResultsBundle &a, const QString &nameA, const ResultsBundle &b, const QString &nameB);
