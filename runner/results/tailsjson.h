#pragma once
// A timed pass's server-side tails (servertails.h) <-> the bundle's "server_tails" member
// (docs/BUNDLE.md): {"by_command": {"set": [[1, 19876], [2, 114]]}, "command_unavailable":
// {"info": "…"}, "unavailable": "…"}, each bucket [upper bound in µs, calls in it].

#include "jsonsupport.h"
#include "servertails.h"

Json tailsToJson(const ServerTails &tails);
// Reads object["server_tails"] when present. A command whose buckets are no possible reading
// (not pairs of whole numbers, bounds not ascending, a count not above 0, calls past 2^63 − 1)
// is read as unavailable with the reason, never as a figure; a "server_tails" that is not an
// object is read as none.
void readTails(const Json &object, ServerTails &out);
