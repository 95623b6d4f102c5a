// A test executable for tst_warningguard to run: its one test passes, after emitting the warning
// named by CACHESCOPE_CHILD_WARNING from another thread (or, with CACHESCOPE_CHILD_EXPECTED=1, from
// this thread after QTest::ignoreMessage()). Not a test of its own: tst_warningguard checks what
// the guard makes of it.
#include "testmain.h"

#include <QTest>

#include <thread>

class WarningGuardChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passesAfterAWarning()
    {
        const QByteArray warning = qgetenv("CACHESCOPE_CHILD_WARNING");
        QVERIFY(!warning.isEmpty());
        if (qEnvironmentVariableIntValue("CACHESCOPE_CHILD_EXPECTED") == 1) {
            QTest::ignoreMessage(QtWarningMsg, warning.constData());
            qWarning("%s", warning.constData());
            return;
        }
        std::thread([warning] { qWarning("%s", warning.constData()); }).join();
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(WarningGuardChild)
#include "warningguard_child.moc"
