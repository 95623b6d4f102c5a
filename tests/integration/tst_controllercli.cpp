// `cachescope-cli control` end to end: the cachescope-sim binary serves a churning cluster, the
// CLI syncs an informer of it, runs a built-in controller for a while and prints the findings
// and the workqueue metrics.
#include "simprocess.h"

#include "testmain.h"
#include "testpaths.h"

#include <QProcess>
#include <QTest>

class TestControllerCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void control_data();
    void control();
    void helpListsTheControllers();
};

void TestControllerCli::control_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("stdoutLines"); // each must start a line of stdout
    QTest::addColumn<QString>("stderrText");

    const QStringList metrics{u"METRIC            VALUE"_s,
                              u"depth             "_s,
                              u"adds              "_s,
                              u"retries           "_s,
                              u"queue latency     p50 "_s,
                              u"work duration     p50 "_s,
                              u"unfinished work   "_s,
                              u"longest running   "_s};
    QTest::newRow("pod-health over every namespace reports unhealthy pods")
        << QStringList{u"control"_s, u"pods"_s, u"-A"_s, u"--controller"_s, u"pod-health"_s, u"--param"_s, u"restartThreshold=1"_s, u"--for"_s, u"1s"_s} << 0
        << (QStringList{u"KEY "_s} + metrics + QStringList{u"Processed "_s}) << QString();
    QTest::newRow("label-policy in one namespace") << QStringList{u"control"_s,
                                                                  u"configmaps"_s,
                                                                  u"-n"_s,
                                                                  u"shop"_s,
                                                                  u"--controller"_s,
                                                                  u"label-policy"_s,
                                                                  u"--param"_s,
                                                                  u"required=team"_s,
                                                                  u"--for"_s,
                                                                  u"500ms"_s}
                                                   << 0
                                                   << (QStringList{u"shop/kube-root-ca.crt    Warning    MissingLabel   label \"team\" is missing"_s} + metrics)
                                                   << QString();
    QTest::newRow("owner-references finds every owner")
        << QStringList{u"control"_s, u"pods"_s, u"-A"_s, u"--controller"_s, u"owner-references"_s, u"--for"_s, u"500ms"_s} << 0
        << (QStringList{u"No findings."_s} + metrics) << QString();
    QTest::newRow("simulated-work gives up on keys that keep failing") << QStringList{u"control"_s,
                                                                                      u"pods"_s,
                                                                                      u"-A"_s,
                                                                                      u"--controller"_s,
                                                                                      u"simulated-work"_s,
                                                                                      u"--param"_s,
                                                                                      u"failureRate=1"_s,
                                                                                      u"--param"_s,
                                                                                      u"durationMs=0"_s,
                                                                                      u"--max-retries"_s,
                                                                                      u"1"_s,
                                                                                      u"--workers"_s,
                                                                                      u"4"_s,
                                                                                      u"--for"_s,
                                                                                      u"1s"_s}
                                                                       << 0 << (QStringList{u"No findings."_s} + metrics) << u"warning: gave up on "_s;
    QTest::newRow("an unknown controller is refused before connecting")
        << QStringList{u"control"_s, u"pods"_s, u"--controller"_s, u"pod-doctor"_s} << 1 << QStringList{} << u"error: unknown controller \"pod-doctor\""_s;
    QTest::newRow("control needs a controller") << QStringList{u"control"_s, u"pods"_s} << 1 << QStringList{} << u"error: control needs --controller NAME"_s;
    QTest::newRow("a bad worker count is refused") << QStringList{u"control"_s, u"pods"_s, u"--controller"_s, u"pod-health"_s, u"--workers"_s, u"0"_s} << 1
                                                   << QStringList{} << u"error: --workers"_s;
}

void TestControllerCli::control()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QStringList, stdoutLines);
    QFETCH(QString, stderrText);

    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({u"--pods"_s, u"60"_s, u"--churn"_s, u"40"_s, u"--seed"_s, u"3"_s}, &error), qPrintable(error));
    QProcess cli;
    cli.setProcessEnvironment(sim.clientEnvironment());
    cli.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), QStringList{u"--kubeconfig"_s, sim.kubeconfig()} + args);
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QVERIFY2(cli.exitCode() == exitCode, qPrintable(u"exit code %1, stderr: %2"_s.arg(cli.exitCode()).arg(err)));
    const QStringList lines = out.split(u'\n');
    for (const QString &expected : stdoutLines) {
        QVERIFY2(std::any_of(lines.cbegin(), lines.cend(), [&expected](const QString &line) { return line.startsWith(expected); }),
                 qPrintable(u"no line starts with \"%1\" in:\n%2"_s.arg(expected, out)));
    }
    if (stdoutLines.isEmpty()) {
        QVERIFY2(out.isEmpty(), qPrintable(out));
    }
    QVERIFY2(stderrText.isEmpty() ? err.isEmpty() : err.startsWith(stderrText), qPrintable(err));
    QCOMPARE(sim.stop(), 0);
}

void TestControllerCli::helpListsTheControllers()
{
    QProcess cli;
    cli.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"control"_s, u"--help"_s});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 0);
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    for (const QString &line : {u"  pod-health        Pods that are not ready, restart often or stay pending too long."_s,
                                u"  owner-references  Objects whose ownerReferences point to an owner that does not exist."_s,
                                u"  label-policy      Objects that lack any of the required label keys."_s,
                                u"  simulated-work    Works for a while and fails at random on purpose, to show backoff and retries."_s}) {
        QVERIFY2(out.contains(line + u'\n'), qPrintable(out));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerCli)
#include "tst_controllercli.moc"
