#pragma once
// Entry points of the `versus` subcommands. Each returns the process exit code:
// 0 success, 1 a server failed, 2 bad usage or bad input, 130 interrupted.

#include <QStringList>

int runServersCommand(const QStringList &arguments);   // versus servers
int runGenerateCommand(const QStringList &arguments);  // versus generate
int runExportCommand(const QStringList &arguments);    // versus export
int runRunCommand(const QStringList &arguments);       // versus run
int runWindow(int &argc, char **argv);                 // versus [--autorun …]

// Name, organisation (where settings live) and version of the application object just made.
void nameApplication();
