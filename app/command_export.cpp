#include "commands.h"

#include <cstdio>

int runExportCommand(const QStringList &)
{
    std::fprintf(stderr, "versus export: not built yet\n");
    return 2;
}
