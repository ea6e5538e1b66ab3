#pragma once
// The function libraries a workload loads, so that what a run leaves on an endpoint can be told
// from what another client did there (endpointstate.h): the code of each FUNCTION LOAD.

#include "outcome.h"
#include <QStringList>
#include <set>
#include <string>

class Workload;

// The code (FUNCTION LOAD's last argument) of every library `workload` loads. Reads the workload
// only when `commandNames` (its distinct commands, upper case) has FUNCTION or is unknown (empty).
Outcome<std::set<std::string>> librariesLoadedBy(const Workload &workload, const QStringList &commandNames);
