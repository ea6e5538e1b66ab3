#pragma once
// The servers of a run in every topology asked for: each launched server once per topology,
// in order server by server (valkey-8.0.1, valkey-8.0.1-cluster-3, valkey-9.1.2, …), each a
// series of its own. An endpoint runs as it is, once: Versus launches no cluster there.

#include "outcome.h"
#include "serverspec.h"
#include "topology.h"
#include <vector>

Outcome<std::vector<ServerSpec>> specsInTopologies(const std::vector<ServerSpec> &servers,
                                                   const std::vector<Topology> &topologies);
