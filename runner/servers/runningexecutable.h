#pragma once
// Which program a running server really is, read from /proc while it runs, so that a bundle
// records what was measured, not what the catalog expected: a wrapper script, a binary replaced
// since it was listed, or a loader running another binary would otherwise go unseen.

#include <QString>

struct RunningExecutable {
    QString path;     // e.g. /home/u/.cache/versus/servers/valkey-8.0.1/bin/valkey-server
    QString sha256;   // of what the process maps, read through /proc; empty when unreadable
    QString problem;  // why it could not be read; empty when path and sha256 are set
};

// /proc/<pid>/exe. When that is a dynamic loader run explicitly (ld-linux-x86-64.so.2
// --library-path … binary, as the fetched servers are), the program it loaded: the first
// executable mapping that is neither the loader nor a shared library.
RunningExecutable runningExecutableOf(qint64 pid);

// What the log says about it: empty when it is the binary the catalog hashed (`expectedSha256`);
// otherwise that it could not be read, or that the running program differs from it.
QString runningExecutableNote(const RunningExecutable &running, const QString &expectedSha256);
