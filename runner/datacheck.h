#pragma once
// Every server replays the same commands, so every server must end with the same number of
// keys of each type. A server that differs lost or rejected writes.

#include "resultsbundle.h"
#include <QStringList>

// One message per disagreement, naming the server, repeat, type and both counts. Servers
// that failed, and types a server does not support, are left out.
QStringList dataCheckProblems(const ResultsBundle &bundle);
