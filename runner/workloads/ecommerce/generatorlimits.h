#pragma once
// How large a generated ecommerce workload may be, and why (docs/WORKLOADS.md, "Limits").
//
// Shoppers: the generator keeps every shopper in memory (an id and favourite categories, plus
// one Zipf weight): about 150 bytes each, measured, so 10 million shoppers take 1.5 GB in
// Versus before anything runs; every launched server then keeps every shopper's attributes.
// Events: they stream in constant memory, but every event is counted before the run and
// replayed into every server on every repeat, and their shoppers scale with them (the
// recording's 1500 per 20000 events, unless --set shoppers says otherwise).
// Above these numbers an allocation would abort Versus (std::bad_alloc) or the kernel would
// kill it; they are refused up front with a message that names the option (exit code 2).

#include "eventgenerator.h"
#include "outcome.h"
#include <QString>

constexpr long long maxGeneratedShoppers = 10LL * 1000 * 1000;
constexpr long long maxGeneratedEvents = 100LL * 1000 * 1000;

// `option` names where the number came from ("--events", "--set shoppers", "--shoppers").
Status checkGeneratedEvents(long long events, const QString &option);
Status checkGeneratedShoppers(long long shoppers, const QString &option);
