// Integration test: a real kubectl (the one on PATH) against the cachescope-sim binary.
#include "simprocess.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

struct KubectlResult
{
    int exitCode = -1;
    QString out;
    QString err;
};

class TestSimKubectl : public QObject
{
    Q_OBJECT

private:
    SimProcess m_sim;
    int m_minor = 0;

    QStringList baseArguments() const { return {u"--cache-dir"_s, m_sim.home() + u"/kube-cache"_s, u"--request-timeout=30s"_s}; }

    KubectlResult kubectl(const QStringList &arguments)
    {
        QProcess process;
        process.setProcessEnvironment(m_sim.clientEnvironment());
        process.start(u"kubectl"_s, baseArguments() + arguments);
        KubectlResult result;
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitCode();
        result.out = QString::fromUtf8(process.readAllStandardOutput());
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }

    static QStringList dataLines(const QString &output) { return output.split(u'\n', Qt::SkipEmptyParts).mid(1); }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_sim.start({u"--pods"_s, u"12"_s, u"--namespaces"_s, u"2"_s, u"--seed"_s, u"3"_s}, &error), qPrintable(error));
        QVERIFY(m_sim.url().startsWith(u"https://127.0.0.1:"_s));
        QProcess version;
        version.start(u"kubectl"_s, {u"version"_s, u"--client"_s, u"-o"_s, u"json"_s});
        QVERIFY2(version.waitForFinished(30000), "kubectl is not on PATH");
        const QJsonObject client = QJsonDocument::fromJson(version.readAllStandardOutput()).object().value(u"clientVersion").toObject();
        m_minor = client.value(u"minor").toString().remove(QRegularExpression(u"\\D"_s)).toInt();
        QVERIFY(m_minor >= 20);
    }

    void getPrintsServerSideTables()
    {
        const KubectlResult result = kubectl({u"get"_s, u"pods"_s, u"-A"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QStringList header = result.out.section(u'\n', 0, 0).split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(header, (QStringList{u"NAMESPACE"_s, u"NAME"_s, u"READY"_s, u"STATUS"_s, u"RESTARTS"_s, u"AGE"_s}));
        QCOMPARE(dataLines(result.out).size(), 12);
        const KubectlResult nodes = kubectl({u"get"_s, u"nodes"_s});
        QVERIFY(nodes.out.contains(u"STATUS"_s) && nodes.out.contains(u"Ready"_s) && nodes.out.contains(u"v1.32.0"_s));
        const KubectlResult deployments = kubectl({u"get"_s, u"deploy"_s, u"-A"_s});
        QVERIFY(deployments.out.contains(u"UP-TO-DATE"_s));
    }

    // kubectl (Go's HTTP/2 transport) negotiates h2 by ALPN when the server offers it, as against a
    // real apiserver. GODEBUG=http2debug=1 makes Go's transport log its HTTP/2 connections; a
    // connection that stayed HTTP/1.1 logs none.
    void kubectlNegotiatesHttp2_data()
    {
        QTest::addColumn<bool>("http1Only");
        QTest::addColumn<bool>("http2");
        QTest::newRow("kubectl speaks h2 to the simulator over TLS") << false << true;
        QTest::newRow("against --http1-only kubectl speaks HTTP/1.1") << true << false;
    }
    void kubectlNegotiatesHttp2()
    {
        QFETCH(bool, http1Only);
        QFETCH(bool, http2);
        SimProcess http1Sim;
        const SimProcess *sim = &m_sim;
        if (http1Only) {
            QString error;
            QVERIFY2(http1Sim.start({u"--pods"_s, u"2"_s, u"--http1-only"_s}, &error), qPrintable(error));
            sim = &http1Sim;
        }
        QProcess process;
        QProcessEnvironment environment = sim->clientEnvironment();
        environment.insert(u"GODEBUG"_s, u"http2debug=1"_s);
        process.setProcessEnvironment(environment);
        process.start(u"kubectl"_s, {u"--cache-dir"_s, sim->home() + u"/kube-cache"_s, u"--request-timeout=30s"_s, u"get"_s, u"namespaces"_s});
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(err));
        QVERIFY(QString::fromUtf8(process.readAllStandardOutput()).contains(u"default"_s));
        QCOMPARE(err.contains(u"http2: Transport creating client conn"_s), http2);
    }

    void getJsonWithChunkSizePaginates()
    {
        const KubectlResult chunked = kubectl({u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"json"_s, u"--chunk-size"_s, u"5"_s, u"-v=6"_s});
        QVERIFY2(chunked.exitCode == 0, qPrintable(chunked.err));
        // Three pages: limit=5, then two continuations.
        QCOMPARE(chunked.err.count(u"limit=5"_s), 3);
        QCOMPARE(chunked.err.count(u"continue="_s), 2);
        const KubectlResult whole = kubectl({u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"json"_s, u"--chunk-size"_s, u"0"_s});
        auto names = [](const QString &json) {
            QStringList result;
            for (const QJsonValue &item : QJsonDocument::fromJson(json.toUtf8()).object().value(u"items").toArray())
                result.append(item.toObject().value(u"metadata").toObject().value(u"name").toString());
            return result;
        };
        QCOMPARE(names(chunked.out).size(), 12);
        QCOMPARE(names(chunked.out), names(whole.out));
    }

    void apiResourcesListsBuiltinsAndTheCrd()
    {
        const KubectlResult result = kubectl({u"api-resources"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(QRegularExpression(u"widgets\\s+wdg\\s+demo.cachescope.io/v1\\s+true\\s+Widget"_s)));
        QVERIFY(result.out.contains(QRegularExpression(u"deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment"_s)));
        QVERIFY(result.out.contains(QRegularExpression(u"nodes\\s+no\\s+v1\\s+false\\s+Node"_s)));
        QVERIFY(result.out.contains(QRegularExpression(u"jobs\\s+batch/v1\\s+true\\s+Job"_s)));
        const KubectlResult widgets = kubectl({u"get"_s, u"widgets"_s, u"-A"_s});
        QVERIFY2(widgets.exitCode == 0, qPrintable(widgets.err));
        QCOMPARE(dataLines(widgets.out).size(), 2);
        // The CRD's additionalPrinterColumns, rendered by the server's Table: Name, then exactly those.
        QVERIFY2(widgets.out.contains(QRegularExpression(u"NAMESPACE\\s+NAME\\s+COLOR\\s+SIZE\\s+AGE\\n"_s)), qPrintable(widgets.out));
        QVERIFY2(widgets.out.contains(QRegularExpression(u"widget-0\\s+green\\s+1\\s+\\d+[smhd]"_s)), qPrintable(widgets.out));
    }

    void createLabelAnnotateDelete()
    {
        const QString manifest = m_sim.home() + u"/pod.yaml"_s;
        QFile file(manifest);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: hello\n  labels:\n    app: hello\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n");
        file.close();
        QStringList create{u"create"_s, u"-f"_s, manifest};
        if (m_minor < 25)
            create << u"--validate=false"_s; // old kubectl validates against /openapi/v2, not served
        KubectlResult result = kubectl(create);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(result.out.trimmed(), u"pod/hello created"_s);
        result = kubectl(create); // the same flags: old kubectl needs --validate=false here too
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains(u"AlreadyExists"_s) || result.err.contains(u"already exists"_s), qPrintable(result.err));

        result = kubectl({u"label"_s, u"pod"_s, u"hello"_s, u"tier=test"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(result.out.trimmed(), u"pod/hello labeled"_s);
        result = kubectl({u"annotate"_s, u"pod"_s, u"hello"_s, u"note=hi"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        result =
            kubectl({u"get"_s, u"pods"_s, u"-l"_s, u"tier=test"_s, u"-o"_s, u"jsonpath={.items[*].metadata.name} {.items[*].metadata.annotations.note}"_s});
        QCOMPARE(result.out, u"hello hi"_s);

        result = kubectl({u"delete"_s, u"pod"_s, u"hello"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(result.out.trimmed(), u"pod \"hello\" deleted"_s);
        result = kubectl({u"get"_s, u"pod"_s, u"hello"_s});
        QCOMPARE(result.exitCode, 1);
        QVERIFY(result.err.contains(u"NotFound"_s));
    }

    void scaleAdjustsReplicas()
    {
        const KubectlResult list = kubectl({u"get"_s, u"deploy"_s, u"-n"_s, u"shop"_s, u"-o"_s, u"jsonpath={.items[0].metadata.name}"_s});
        const QString deployment = list.out.trimmed();
        QVERIFY(!deployment.isEmpty());
        KubectlResult result = kubectl({u"scale"_s, u"-n"_s, u"shop"_s, u"deploy/"_s + deployment, u"--replicas=4"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(result.out.trimmed(), u"deployment.apps/%1 scaled"_s.arg(deployment));
        // The simulated controllers create the pods.
        QTRY_COMPARE_WITH_TIMEOUT(dataLines(kubectl({u"get"_s, u"pods"_s, u"-n"_s, u"shop"_s, u"-l"_s, u"app="_s + deployment}).out).size(), 4, 20000);
    }

    void watchStreamsChanges()
    {
        QProcess watch;
        watch.setProcessEnvironment(m_sim.clientEnvironment());
        watch.start(u"kubectl"_s, baseArguments() + QStringList{u"get"_s, u"configmaps"_s, u"-n"_s, u"shop"_s, u"-w"_s});
        QVERIFY(watch.waitForStarted());
        QByteArray output;
        auto waitFor = [&](const QByteArray &needle) {
            const QDeadlineTimer deadline(30000);
            while (!output.contains(needle) && !deadline.hasExpired() && watch.state() == QProcess::Running) {
                watch.waitForReadyRead(200);
                output += watch.readAllStandardOutput();
            }
            return output.contains(needle);
        };
        QVERIFY2(waitFor("kube-root-ca.crt"), output.constData());
        QVERIFY(output.startsWith("NAME"));
        // `create -f` writes JSON; `create configmap` would write protobuf, which is not served.
        const QString manifest = m_sim.home() + u"/configmap.yaml"_s;
        QFile file(manifest);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n  namespace: shop\ndata:\n  a: b\n");
        file.close();
        QStringList create{u"create"_s, u"-f"_s, manifest};
        if (m_minor < 25)
            create << u"--validate=false"_s;
        const KubectlResult created = kubectl(create);
        QVERIFY2(created.exitCode == 0, qPrintable(created.err));
        QVERIFY2(waitFor("watched"), output.constData());
        QCOMPARE(watch.state(), QProcess::Running);
        watch.kill();
        watch.waitForFinished();
    }

    void clientCertificateContextWorks()
    {
        const KubectlResult result = kubectl({u"--context"_s, u"sim-cert"_s, u"get"_s, u"namespaces"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(u"kube-system"_s));
        // A wrong token is refused with 401.
        const KubectlResult denied = kubectl({u"--token"_s, u"wrong"_s, u"get"_s, u"namespaces"_s});
        QVERIFY(denied.exitCode != 0);
        QVERIFY2(denied.err.contains(u"Unauthorized"_s) || denied.err.contains(u"provide credentials"_s), qPrintable(denied.err));
    }

    void cleanupTestCase()
    {
        // SIGTERM ends the simulator cleanly.
        QCOMPARE(m_sim.stop(), 0);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimKubectl)
#include "tst_simkubectl.moc"
