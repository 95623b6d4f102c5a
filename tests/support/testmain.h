#pragma once

// The main() of every Cachescope test executable: QTEST_MAIN / QTEST_GUILESS_MAIN, except that a
// Qt warning about threads, timers or connections fails the run (see warningguard.h).

#include "warningguard.h"

#include <QCoreApplication>
#include <QTest>

namespace CachescopeTest {

inline void prepareApplication(QCoreApplication &)
{
}

} // namespace CachescopeTest

// One main() for every application class: the test runs inside the warning guard, and the test
// object is destroyed before the guard reports.
#define CACHESCOPE_TEST_MAIN_FOR(ApplicationClass, TestObject)                                                                                                 \
    int main(int argc, char *argv[])                                                                                                                           \
    {                                                                                                                                                          \
        ApplicationClass app(argc, argv);                                                                                                                      \
        CachescopeTest::prepareApplication(app);                                                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                                                             \
        CachescopeTest::WarningGuard guard;                                                                                                                    \
        int result = 0;                                                                                                                                        \
        {                                                                                                                                                      \
            TestObject test;                                                                                                                                   \
            result = guard.exec(&test, argc, argv);                                                                                                            \
        }                                                                                                                                                      \
        return guard.finish(result);                                                                                                                           \
    }

#ifdef QT_WIDGETS_LIB
#include <QApplication>

namespace CachescopeTest {

// Widget tests measure text in pixels: 96 dpi makes those measures the same on every machine.
inline void prepareApplication(QApplication &app)
{
    app.setAttribute(Qt::AA_Use96Dpi, true);
}

} // namespace CachescopeTest

#define CACHESCOPE_TEST_MAIN(TestObject) CACHESCOPE_TEST_MAIN_FOR(QApplication, TestObject)
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>

// Models link Qt Gui but no widgets (cachescope-models): a QGuiApplication serves them.
#define CACHESCOPE_TEST_MAIN(TestObject) CACHESCOPE_TEST_MAIN_FOR(QGuiApplication, TestObject)
#endif

#define CACHESCOPE_TEST_GUILESS_MAIN(TestObject) CACHESCOPE_TEST_MAIN_FOR(QCoreApplication, TestObject)
