#pragma once
// The endpoints' password may come from the environment (VERSUS_PASSWORD, or valkey-cli's
// VALKEYCLI_AUTH and REDISCLI_AUTH). Every child Versus starts (servers, --version probes,
// make) inherits the environment, and a server's is readable in /proc/<pid>/environ: the
// variables are read once at start and taken out of the process's environment.

#include <QString>
#include <optional>

// The password variables, in the order they are looked at.
inline constexpr const char *kSecretVariables[] = {"VERSUS_PASSWORD", "VALKEYCLI_AUTH", "REDISCLI_AUTH"};

// Keeps each password variable's value and unsets it, so that no child inherits it. Called
// first thing in main(); calling it again keeps what the first call took.
void takeSecretVariables();
// The value `name` had (set but empty is an empty string), whether taken by
// takeSecretVariables() or still in the environment; nothing when it was not set.
std::optional<QString> secretVariable(const char *name);
