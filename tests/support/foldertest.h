#pragma once
// Included before every source file of a folder's test program (tests/CMakeLists.txt): Qt Test's
// main macros register the test class with TestRegistry instead of defining main(), so a
// tst_*.cpp written the usual way, ending with QTEST_MAIN(Class) or QTEST_GUILESS_MAIN(Class),
// is one test of its folder's program. The function keeps Qt's own body (qtest.h,
// QTEST_MAIN_WRAPPER): the same application class, attributes and source path.

#include "testregistry.h"

#include <QtTest/qtest.h>

#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...) \
    static int TestObject##Main(int argc, char *argv[]) \
    { \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
        __VA_ARGS__ \
        TestObject tc; \
        QTEST_SET_MAIN_SOURCE_PATH \
        return QTest::qExec(&tc, argc, argv); \
    } \
    VERSUS_TEST_FUNCTION(TestObject##Main)
