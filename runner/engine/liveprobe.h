#pragma once
// The live figures of a pass still running: the same figures as the final ones, read mid-pass
// on the measuring connection, in a copy of the repeat marked with the pass that has not
// finished. A pattern the server refuses is marked unsupported from its first refusal.

#include "outcome.h"
#include "passreplayer.h"
#include "resultsbundle.h"

class NodeSessions;

struct LivePass {
    QString type;                 // empty: the combined timed pass
    bool timed = false;
    long long baselineBytes = 0;  // used_memory before the pass
    bool readsServer = true;      // false: suspended for this pass (PassRunner::liveProbeSuspended)
    bool unsupportedByCommand = false;   // WorkloadInfo::unsupportedByCommand
};

// What a pass's "unknown command" replies mean, for the final figures and the live ones alike:
// with `byCommand` (captures), those commands are recorded in the repeat and the type keeps
// its figures unless the server knew none of its commands; otherwise the type is unsupported.
// `memory` is the type's figures, or null for the combined pass. True when it is unsupported.
bool recordUnknownCommands(const PassResult &pass, bool byCommand, TypeMemory *memory, RepeatResult &result);

// The commands readLiveFigures() sends: INFO, CLIENT (INFO) and DBSIZE.
QStringList liveProbeCommands();

// Reads the server (a cluster's primaries, summed) now. Memory passes leave the command counts alone: CONFIG RESETSTAT only
// precedes timed passes, so a memory pass's commandstats would mix passes. The counts are the
// workload's: Versus's own commands since the reset are taken out (commandtally.h).
Outcome<RepeatResult> readLiveFigures(NodeSessions &sessions, const RepeatResult &finished, const LivePass &pass,
                                      const PassResult &soFar);
