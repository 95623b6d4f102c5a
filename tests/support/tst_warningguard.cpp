// The warning guard of every test executable (warningguard.h): a run whose tests all pass fails
// when Qt warned about threads, timers or connections, and only then.
#include "testmain.h"
#include "testpaths.h"

#include <QProcess>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

class TestWarningGuard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runFailsOnlyOnGuardedWarnings_data()
    {
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("expected");
        QTest::addColumn<bool>("fails");
        QTest::newRow("a timer started from another thread") << u"QObject::startTimer: Timers cannot be started from another thread"_s << false << true;
        QTest::newRow("a child made for a parent in another thread")
            << u"QObject: Cannot create children for a parent that is in a different thread."_s << false << true;
        QTest::newRow("a connection to a signal that does not exist") << u"QObject::connect: No such signal Foo::bar()"_s << false << true;
        QTest::newRow("a warning about something else") << u"the disk is nearly full"_s << false << false;
        QTest::newRow("a guarded warning the test expects") << u"QObject::startTimer: Timers cannot be started from another thread"_s << true << false;
    }
    void runFailsOnlyOnGuardedWarnings()
    {
        QFETCH(QString, warning);
        QFETCH(bool, expected);
        QFETCH(bool, fails);
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"CACHESCOPE_CHILD_WARNING"_s, warning);
        environment.insert(u"CACHESCOPE_CHILD_EXPECTED"_s, expected ? u"1"_s : u"0"_s);
        child.setProcessEnvironment(environment);
        child.start(QStringLiteral(CACHESCOPE_BIN_DIR "/../tests/warningguard_child"), QStringList());
        QVERIFY(child.waitForFinished(60000));
        const QString output = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
        QVERIFY2(output.contains(u"PASS   : WarningGuardChild::passesAfterAWarning()"_s), qPrintable(output));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode() != 0, fails);
        if (fails) {
            QVERIFY2(output.contains(u"Qt warning(s) about threads, timers or connections"_s) && output.contains(warning), qPrintable(output));
        }
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestWarningGuard)
#include "tst_warningguard.moc"
