#pragma once

// The main() of every Cachescope test executable: QTEST_MAIN / QTEST_GUILESS_MAIN, except that a
// Qt warning about threads, timers or connections fails the run (see warningguard.h).

#include "warningguard.h"

#include "testmain.h"

#include <QTest>

#ifdef QT_WIDGETS_LIB
#include <QApplication>

#define CACHESCOPE_TEST_MAIN(TestObject)                                                                                                                       \
    int main(int argc, char *argv[])                                                                                                                           \
    {                                                                                                                                                          \
        QApplication app(argc, argv);                                                                                                                          \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                                                             \
        CachescopeTest::WarningGuard guard;                                                                                                                    \
        int result = 0;                                                                                                                                        \
        {                                                                                                                                                      \
            TestObject test;                                                                                                                                   \
            result = guard.exec(&test, argc, argv);                                                                                                            \
        }                                                                                                                                                      \
        return guard.finish(result);                                                                                                                           \
    }
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>

// Models link Qt Gui but no widgets (cachescope-models): a QGuiApplication serves them.
#define CACHESCOPE_TEST_MAIN(TestObject)                                                                                                                       \
    int main(int argc, char *argv[])                                                                                                                           \
    {                                                                                                                                                          \
        QGuiApplication app(argc, argv);                                                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                                                             \
        CachescopeTest::WarningGuard guard;                                                                                                                    \
        int result = 0;                                                                                                                                        \
        {                                                                                                                                                      \
            TestObject test;                                                                                                                                   \
            result = guard.exec(&test, argc, argv);                                                                                                            \
        }                                                                                                                                                      \
        return guard.finish(result);                                                                                                                           \
    }
#endif

#define CACHESCOPE_TEST_GUILESS_MAIN(TestObject)                                                                                                               \
    int main(int argc, char *argv[])                                                                                                                           \
    {                                                                                                                                                          \
        QCoreApplication app(argc, argv);                                                                                                                      \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                                                             \
        CachescopeTest::WarningGuard guard;                                                                                                                    \
        int result = 0;                                                                                                                                        \
        {                                                                                                                                                      \
            TestObject test;                                                                                                                                   \
            result = guard.exec(&test, argc, argv);                                                                                                            \
        }                                                                                                                                                      \
        return guard.finish(result);                                                                                                                           \
    }
