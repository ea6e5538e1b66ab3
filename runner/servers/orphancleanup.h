#pragma once
// Start-up housekeeping. Every launched server gets a temp dir
// <tempRoot>/versus-server-XXXXXX (mode 0700) holding owner.pid, the pid of the Versus that
// made it, then versus.conf, the logs and what the server writes into its --dir. A Versus
// killed with SIGKILL cannot remove its dirs (its servers die with it through
// PR_SET_PDEATHSIG); the next Versus removes them here.
//
// The temp root may be a /tmp that every user shares, and Versus may run as root: a name is no
// proof. A dir is removed only when Versus can prove it made it and that it is stale: it is a
// real dir (not a link) of this user with no access for others, its owner.pid is a regular
// file of this user naming a process that is gone, and everything in it is a regular file of
// this user with a name a launched server's dir holds. An empty dir of this user older than a
// minute (a Versus killed before it wrote owner.pid) is removed too; anything else is left.
// The same holds for the --profile pass's folders, <tempRoot>/versus-profile-XXXXXX, which hold
// owner.pid and perf's perf.data (profilepass.h).

#include "outcome.h"

#include <QDir>
#include <QString>

// Returns how many dirs were removed.
int cleanStaleServerDirs(const QString &tempRoot = QDir::tempPath());

// The names a launched server's temp dir may hold (serverprocess.h): owner.pid, versus.conf,
// server.log, console.log, and what a server writes into its --dir (dump.rdb, temp-*.rdb,
// nodes.conf and its temporary copies).
bool isServerDirEntryName(const QString &name);
// The names a profile pass's folder may hold: owner.pid, perf.data and perf's perf.data.old.
bool isProfileDirEntryName(const QString &name);

// Writes owner.pid, this process's pid, into `dir`: what tells a later Versus the dir is stale
// once this one is gone. The error names the file.
Status writeOwnerFile(const QString &dir);
