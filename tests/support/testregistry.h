#pragma once
// One test program per folder (tests/CMakeLists.txt): every tst_*.cpp of the folder is built
// into it, and each registers the function that runs its test class under the file's name
// (tst_figures for tst_figures.cpp). The program runs the one named by its first argument:
//
//   tests_results tst_figures [Qt Test arguments...]
//
// QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN register the class they name
// (foldertest.h, included before each file). A file with a main of its own names it a test
// function instead, with the same signature:
//
//   static int serverProcessMain(int argc, char **argv) { ... return QTest::qExec(&test, argc, argv); }
//   VERSUS_TEST_FUNCTION(serverProcessMain)

#include <QStringList>

namespace TestRegistry {

using TestFunction = int (*)(int argc, char **argv);

// Registers the test of a source file under its base name; the result is only for a static.
bool add(const char *sourceFile, TestFunction function);

// The folder program's main: runs the test its first argument names, as if it were a program of
// its own (argv[0] ends with its name, so its application name is unchanged), with the
// remaining arguments. Without a known name it lists the tests and fails.
int run(int argc, char **argv);

// The arguments that run the test now running again, in a new process of this same program
// (QCoreApplication::applicationFilePath()): for tests that start themselves as a helper.
QStringList rerunArguments();

} // namespace TestRegistry

#define VERSUS_TEST_FUNCTION(function) \
    static const bool function##Registered = TestRegistry::add(__FILE__, &function);
