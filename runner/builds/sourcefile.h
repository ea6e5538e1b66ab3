#pragma once
// Reading the files of a source a build builds: only regular files (a FIFO would hang the open,
// a device node never ends), each refused by name otherwise, and a request to stop honoured
// between chunks. Hashing a file and copying it into the work tree read it the same way, so the
// copy's hash is the hash of the bytes make will compile.

#include "outcome.h"

#include <QString>
#include <functional>

using StopRequested = std::function<bool()>;

// The sha256 (hex) of the regular file `path`.
Outcome<QString> hashSourceFile(const QString &path, const StopRequested &stop);
// Copies the regular file `from` to `to` (replaced, never written through a link; mode 0644 or
// 0755), returning the sha256 of what was written.
Outcome<QString> copySourceFile(const QString &from, const QString &to, bool executable, const StopRequested &stop);
