#pragma once
// A build's origin as JSON, the same object in the bundle ("build") and in `versus servers
// --json`: {"origin": "debian-package", "suite": …, "package_version": …} with only the fields
// that are set, so an origin nothing is known of writes nothing.

#include "buildorigin.h"
#include "jsonsupport.h"

// The object; an empty one for BuildKind::Unknown with nothing set.
Json buildOriginToJson(const BuildOrigin &origin);
// The inverse. Throws nlohmann's error (with the JSON path) for a value of the wrong type.
void buildOriginFromJson(const Json &json, BuildOrigin &origin);
