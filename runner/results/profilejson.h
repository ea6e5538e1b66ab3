#pragma once
// A server's profile (serverprofile.h) <-> the bundle's "profile" member of a server
// (docs/BUNDLE.md): {"samples": {"hash-table": 41, …}, "total_samples": 120, "rate_hz": 499,
// "binary_samples": 80, "binary_named": 80, "binary": "valkey-server", "user_only": false} or
// {"unavailable": "…"}. Absent: no --profile, or a bundle from before it.

#include "jsonsupport.h"
#include "serverprofile.h"

Json profileToJson(const ServerProfile &profile);
// Reads object["profile"] when present. A count that is not a whole number from 0 to 2^63 − 1,
// an unknown category, or counts that do not add up are refused (failAtJson, naming the field).
void readProfile(const Json &object, ServerProfile &out);
