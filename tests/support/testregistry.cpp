#include "testregistry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, TestRegistry::TestFunction> &tests()
{
    static std::map<std::string, TestRegistry::TestFunction> registered;
    return registered;
}

std::string &current()
{
    static std::string name;
    return name;
}

std::string baseName(const char *path)
{
    const char *slash = std::strrchr(path, '/');
    std::string name = slash ? slash + 1 : path;
    const std::string::size_type dot = name.find('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

int listTests(const char *program)
{
    std::fprintf(stderr, "usage: %s TEST [Qt Test arguments...]\ntests in this program:\n", program);
    for (const auto &test : tests())
        std::fprintf(stderr, "  %s\n", test.first.c_str());
    return 2;
}

} // namespace

namespace TestRegistry {

bool add(const char *sourceFile, TestFunction function)
{
    const std::string name = baseName(sourceFile);
    if (!tests().emplace(name, function).second) {
        std::fprintf(stderr, "%s: two tests registered from one file (one QTEST_MAIN per tst_*.cpp)\n", name.c_str());
        std::abort();
    }
    return true;
}

int run(int argc, char **argv)
{
    const char *program = argc > 0 ? argv[0] : "tests";
    if (argc < 2)
        return listTests(program);
    const auto test = tests().find(argv[1]);
    if (test == tests().end()) {
        std::fprintf(stderr, "%s: no test named %s\n", program, argv[1]);
        return listTests(program);
    }
    current() = test->first;
    // argv[0] in the folder of this program, named after the test.
    const char *slash = std::strrchr(program, '/');
    std::string testProgram = slash ? std::string(program, size_t(slash - program) + 1) : std::string();
    testProgram += test->first;
    std::vector<char *> arguments{testProgram.data()};
    for (int i = 2; i < argc; ++i)
        arguments.push_back(argv[i]);
    arguments.push_back(nullptr);
    int count = argc - 1;
    return test->second(count, arguments.data());
}

QStringList rerunArguments()
{
    return {QString::fromStdString(current())};
}

} // namespace TestRegistry
