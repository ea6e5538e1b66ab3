#pragma once
// The machine a run happens on, recorded in every results bundle.

#include "resultsbundle.h"

// CPU model from /proc/cpuinfo, logical cores, OS name and kernel, host name.
MachineInfo currentMachine();
