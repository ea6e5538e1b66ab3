#include "commands.h"

#include <cstdio>

int runGenerateCommand(const QStringList &)
{
    std::fprintf(stderr, "versus generate: not built yet\n");
    return 2;
}
