// cachescope-cli rejects a malformed label or field selector before it makes any request. The
// server in the kubeconfig listens on loopback but never answers; it only counts connections,
// so a command that tried to reach it would show up there (and hang until its timeout).
#include "testmain.h"
#include "testpaths.h"

#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

class TestCliSelectors : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTcpServer m_server;
    QString m_kubeconfig;

    QStringList withKubeconfig(const QStringList &arguments) const { return QStringList{u"--kubeconfig"_s, m_kubeconfig} + arguments; }

    // connectionsSoFar() takes every connection the kernel has completed; on loopback a
    // client's connect() has completed by the time it returns, so once the process has exited
    // nothing it did can still be on its way.
    int connectionsSoFar()
    {
        int count = 0;
        while (m_server.waitForNewConnection(0) || m_server.hasPendingConnections()) {
            if (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->deleteLater();
                ++count;
            }
        }
        return count;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_server.listen(QHostAddress::LocalHost));
        m_kubeconfig = m_dir.filePath(u"kubeconfig"_s);
        QFile file(m_kubeconfig);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(u"apiVersion: v1\nkind: Config\ncurrent-context: silent\n"
                   u"clusters:\n- name: silent\n  cluster:\n    server: http://127.0.0.1:%1\n"
                   u"users:\n- name: someone\n  user:\n    token: not-a-secret\n"
                   u"contexts:\n- name: silent\n  context:\n    cluster: silent\n    user: someone\n"_s.arg(m_server.serverPort())
                       .toUtf8());
    }

    void rejectsBeforeAnyRequest_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("pointer"); // the selector as typed, and a caret under the error

        QTest::newRow("get -l with an unclosed value set")
            << QStringList{u"get"_s, u"pods"_s, u"-l"_s, u"app in (web"_s}
            << u"error: -l: unable to parse requirement: found '', expected: ',' or ')' (at character 12)"_s << u"    app in (web\n               ^"_s;
        QTest::newRow("watch -l without a key") << QStringList{u"watch"_s, u"pods"_s, u"-l"_s, u"=web"_s}
                                                << u"error: -l: found '=', expected: !, identifier, or 'end of string' (at character 1)"_s
                                                << u"    =web\n    ^"_s;
        QTest::newRow("control -l with a non-integer bound")
            << QStringList{u"control"_s, u"pods"_s, u"-l"_s, u"app<web"_s}
            << u"error: -l: unable to parse requirement: values[0]: Invalid value: \"web\": for 'Gt', 'Lt' operators, the value must be an integer (at character 5)"_s
            << u"    app<web\n        ^"_s;
        QTest::newRow("get --field-selector without an operator")
            << QStringList{u"get"_s, u"pods"_s, u"--field-selector"_s, u"metadata.name=a,spec.nodeName"_s}
            << u"error: --field-selector: invalid selector: 'metadata.name=a,spec.nodeName'; can't understand 'spec.nodeName' (at character 17)"_s
            << u"    metadata.name=a,spec.nodeName\n                    ^"_s;
    }

    void rejectsBeforeAnyRequest()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QFETCH(QString, pointer);

        QProcess process;
        process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), withKubeconfig(arguments));
        QVERIFY(process.waitForStarted(10000));
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            QFAIL("the command did not stop on its own: it waits for the silent server");
        }
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 1);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(err, message + u'\n' + pointer + u'\n');
        QCOMPARE(connectionsSoFar(), 0);
    }

    // The same server does see a command whose selectors are fine: the check above can fail.
    void aValidSelectorReachesTheServer()
    {
        QProcess process;
        process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"),
                      withKubeconfig({u"get"_s, u"pods"_s, u"-l"_s, u"app in (web)"_s, u"--field-selector"_s, u"spec.nodeName=n1"_s}));
        QVERIFY(process.waitForStarted(10000));
        const bool connected = m_server.waitForNewConnection(60000);
        process.kill();
        process.waitForFinished();
        QVERIFY(connected);
        connectionsSoFar();
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestCliSelectors)
#include "tst_cliselectors.moc"
