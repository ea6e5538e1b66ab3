#pragma once
// A timed pass's server time (serverclock.h) <-> the bundle's "server_time" member, and its load
// (passload.h) <-> its "load" member (docs/BUNDLE.md).

#include "jsonsupport.h"
#include "passload.h"
#include "serverclock.h"

#include <optional>

Json serverTimeToJson(const ServerClock &clock);
// Reads object["server_time"] when present. A counter that is not a whole number of 0 or
// more (negative, fractional, text, out of range) is read as absent, never as a figure; so is
// a "server_time" that is not an object.
void readServerTime(const Json &object, std::optional<ServerClock> &out);

Json passLoadToJson(const PassLoad &load);
// Reads object["load"] when present, as readServerTime() reads its member.
void readPassLoad(const Json &object, std::optional<PassLoad> &out);
