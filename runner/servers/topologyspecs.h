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

// --self-check: `specs` with a copy of the first one appended, as the A/A series: the same build,
// launched on a server of its own, id "<first>-self-check". Last, so in every repeat of the fair
// schedule it runs the farthest from its original, and the pair holds as much of the machine's
// drift as any pair of the run. Errors when the first is an endpoint (nothing to launch) or
// there is no server.
Outcome<std::vector<ServerSpec>> specsWithSelfCheck(std::vector<ServerSpec> specs);
