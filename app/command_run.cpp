#include "commands.h"

#include <cstdio>

int runRunCommand(const QStringList &)
{
    std::fprintf(stderr, "versus run: not built yet\n");
    return 2;
}
