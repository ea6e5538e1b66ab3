#pragma once
// The entry points app/ adds to the subcommands of runner/cli: the window, and naming the
// application object.

int runWindow(int &argc, char **argv);                 // versus [--autorun …]

// Name, organisation (where settings live) and version of the application object just made.
void nameApplication();
