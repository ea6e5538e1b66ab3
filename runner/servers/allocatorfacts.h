#pragma once
// What a running server says of its allocator: INFO memory's mem_allocator, and the jemalloc
// quantum MEMORY MALLOC-STATS prints ("Quantum size: 16"). The quantum is what tells a Debian
// package (system jemalloc, 16 bytes on amd64) from an upstream build (bundled jemalloc,
// 8 bytes); --version's malloc=jemalloc-5.3.0 is the same for both. Read once at the start of
// each run, never during a timed pass: MALLOC-STATS is tens of KB of text.

#include "buildorigin.h"
#include <QString>
#include <utility>
#include <vector>

class RedisConnection;

// From the text of INFO memory and of MEMORY MALLOC-STATS. `refusal` is the server's error
// reply to MEMORY MALLOC-STATS (an older server, an ACL), empty when it answered `mallocStats`.
// An unknown quantum (0) always comes with a problem that says why.
AllocatorFacts parseAllocatorFacts(const QString &infoMemory, const QString &mallocStats, const QString &refusal);

// Asks the server over `connection` (bounded like every reply Versus builds). A failure to ask
// is the quantum's problem, not the run's: the figures say it is unknown and why.
AllocatorFacts readAllocatorFacts(RedisConnection &connection);

// A cluster's: its primaries' facts (named "127.0.0.1:7000") when they agree; when they do
// not, the first one's allocator and an unknown quantum whose problem names each primary's.
AllocatorFacts combinedAllocatorFacts(const std::vector<std::pair<QString, AllocatorFacts>> &primaries);
