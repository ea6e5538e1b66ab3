#include "commands.h"

#include <cstdio>

int runServersCommand(const QStringList &)
{
    std::fprintf(stderr, "versus servers: not built yet\n");
    return 2;
}
