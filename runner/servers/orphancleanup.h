#pragma once
// Start-up housekeeping. Every launched server gets a temp dir
// <tempRoot>/versus-server-XXXXXX holding owner.pid, the pid of the Versus that made it.
// A Versus killed with SIGKILL cannot remove its dirs (its servers die with it through
// PR_SET_PDEATHSIG); the next Versus removes them here.

#include <QDir>
#include <QString>

// Removes each versus-server-* dir under tempRoot whose owner process is gone. A dir without a
// readable owner.pid is removed only when older than a minute, so a dir that another Versus is
// creating right now is left alone. Returns how many dirs were removed.
int cleanStaleServerDirs(const QString &tempRoot = QDir::tempPath());
