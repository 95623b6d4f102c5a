#pragma once

#include <QByteArrayList>
#include <QMutex>
#include <QStringList>

class QObject;

namespace CachescopeTest {

// WarningGuard makes a Qt warning about threads, timers or connections fail a test executable.
// Such a warning is always a bug: "QObject::startTimer: Timers cannot be started from another
// thread" is how a timer that stayed behind on the wrong thread announces that it will never
// fire (a reflector waited out its backoff forever that way, and no test saw it).
//
// QTest::failOnWarning() only lasts for one test function and must be called from the test
// thread; a warning comes from any thread, at any time. So exec() runs QTest::qExec() with an
// extra plain-text log in a temporary file beside the usual output, and reads it afterwards:
// every warning QtTest logged (those a test expects with QTest::ignoreMessage() are not logged)
// is checked against the patterns below. Warnings after qExec() (the test object's destructor)
// are caught by a message handler that finish() checks.
//
// Thread: exec() and finish() on the main thread; the handler is thread-safe.
class WarningGuard
{
public:
    WarningGuard();
    ~WarningGuard();
    WarningGuard(const WarningGuard &) = delete;
    WarningGuard &operator=(const WarningGuard &) = delete;

    // exec() is QTest::qExec(testObject, argc, argv), failing (non-zero) on a guarded warning.
    int exec(QObject *testObject, int argc, char **argv);
    // finish() returns result, or 1 when a guarded warning came after exec().
    int finish(int result);

    // isGuarded() says whether a warning's text is about threads, timers or connections.
    static bool isGuarded(const QString &message);

private:
    static void handleMessage(QtMsgType type, const QMessageLogContext &context, const QString &message);
};

} // namespace CachescopeTest
