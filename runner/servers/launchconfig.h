#pragma once
// The config file a launched server reads before its command-line options: the default user's
// password and the replay user (replayrules.h), so that no password is ever on a command line,
// where every local user can read it in /proc/<pid>/cmdline. Written with mode 0600 into the
// server's own temp folder (itself 0700) and removed with it.

#include "credentials.h"
#include "outcome.h"
#include <QByteArray>
#include <QString>

struct LaunchConfig {
    Credentials control;   // the default user: Versus's own control connections
    Credentials replay;    // ReplayRules::launchedUserName(): the replay connections
};

// Fresh random passwords (ReplayRules::randomPassword()).
LaunchConfig newLaunchConfig();
// The file's text: "requirepass …" and "user versus-replay on >… <rules>".
QByteArray launchConfigText(const LaunchConfig &config);
// Creates `path` (it must not exist) with mode 0600 and writes the text.
Status writeLaunchConfig(const QString &path, const LaunchConfig &config);
