// Integration test: Debian's python3-kubernetes client against the cachescope-sim binary.
// Each row runs one scenario of sim_python_client.py, which asserts and exits non-zero on a
// failed check.
#include "simprocess.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;

class TestSimPython : public QObject
{
    Q_OBJECT

private:
    SimProcess m_sim;
    static constexpr int Pods = 9;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_sim.start({u"--pods"_s,
                              QString::number(Pods),
                              u"--seed"_s,
                              u"5"_s,
                              u"--history"_s,
                              u"50"_s,
                              u"--history-window"_s,
                              u"0"_s,
                              u"--bookmark-interval"_s,
                              u"200"_s},
                             &error),
                 qPrintable(error));
        // Use the Debian interpreter explicitly: the python3 on PATH may lack the module.
        QVERIFY2(QFile::exists(u"/usr/bin/python3"_s), "python3-kubernetes needs /usr/bin/python3");
    }

    void scenario_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("list_* with selectors") << u"list"_s;
        QTest::newRow("pagination with limit and continue") << u"paginate"_s;
        QTest::newRow("watch with bookmarks, then resume") << u"watch-bookmarks-resume"_s;
        QTest::newRow("watch from a too old resourceVersion gets 410") << u"too-old"_s;
        QTest::newRow("client certificate user") << u"cert-user"_s;
        QTest::newRow("create, patch, stale replace, delete") << u"write"_s;
    }
    void scenario()
    {
        QFETCH(QString, scenario);
        QProcess python;
        QProcessEnvironment environment = m_sim.clientEnvironment();
        environment.insert(u"SIM_PODS"_s, QString::number(Pods));
        python.setProcessEnvironment(environment);
        python.setProcessChannelMode(QProcess::MergedChannels);
        python.start(u"/usr/bin/python3"_s, {QStringLiteral(CACHESCOPE_PYTHON_CLIENT), scenario});
        QVERIFY(python.waitForStarted());
        QVERIFY(python.waitForFinished(120000));
        const QByteArray output = python.readAll();
        QVERIFY2(python.exitCode() == 0, output.constData());
        QVERIFY2(output.contains("done"), output.constData());
    }

    void cleanupTestCase() { QCOMPARE(m_sim.stop(), 0); }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimPython)
#include "tst_simpython.moc"
