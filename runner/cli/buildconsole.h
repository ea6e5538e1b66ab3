#pragma once
// A source build on the command line (`versus build`, and `--servers src:PATH` of a run): the
// build's steps and progress on stderr, Ctrl-C (SIGINT, SIGTERM, SIGHUP) cancelling it.

#include "sourcebuilder.h"

#include <cstdio>

// Builds `path` into the server cache, printing progress to `stream` (a live line on a
// terminal, a line per step and per tenth otherwise).
Outcome<BuiltServer> buildWithConsoleProgress(const QString &path, std::FILE *stream);
