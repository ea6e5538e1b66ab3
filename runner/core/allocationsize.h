#pragma once
// What an allocation of n bytes takes from the allocator, as used_memory counts it: jemalloc
// serves it from the smallest size class that holds it, glibc's malloc from a chunk of 16-byte
// steps with an 8-byte header. MEMORY STATS counts a server's tables at their structures' sizes;
// the difference is the allocator's rounding, which lands in dataset.bytes (figureswhyrounding.cpp).

#include "buildorigin.h"

#include <optional>

// jemalloc's size class for `bytes` (1 to 2^40) with a quantum of `quantumBytes` (8 or 16 on
// amd64): powers of two from 8 below the quantum, then quantum steps up to 8 quanta, then four
// classes per doubling, each group covering (base, 2·base]. nullopt for other arguments.
std::optional<long long> jemallocSizeClass(long long bytes, int quantumBytes);

// glibc malloc's usable size for `bytes` (what malloc_usable_size and so used_memory report):
// a chunk of the request plus its 8-byte header rounded up to 16, at least 32, less the header.
std::optional<long long> glibcUsableSize(long long bytes);

// The bytes used_memory counts for an allocation of `bytes` on a server with these facts:
// jemalloc with a known quantum, or libc. nullopt when the allocator or its quantum is unknown.
std::optional<long long> servedBytes(const AllocatorFacts &facts, long long bytes);
