// The main() of each folder's test program: runs the test its first argument names.
#include "testregistry.h"

int main(int argc, char **argv)
{
    return TestRegistry::run(argc, argv);
}
