// Integration test: a real kubectl (the one on PATH) against the cachescope-sim binary.
#include "simprocess.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QVariantMap>

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
    QString m_logPod; // the pod logsWork's rows read, in order

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

    // The value at a dotted path ("spec.template.spec.containers.0.image") of a JSON object.
    static QJsonValue valueAt(const QJsonObject &object, const QString &path)
    {
        QJsonValue value = object;
        for (const QString &part : path.split(u'.')) {
            bool index = false;
            const int position = part.toInt(&index);
            value = index ? value.toArray().at(position) : value.toObject().value(part);
        }
        return value;
    }

    QString writeManifest(const QString &name, const QByteArray &content)
    {
        const QString path = m_sim.home() + u'/' + name;
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(content);
        return path;
    }

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

    // kubectl's typed commands write protobuf (create namespace/configmap/secret/deployment);
    // the rest of the flow (apply, scale, label, delete) then works on what they made. The rows
    // run in order: later ones use the objects of earlier ones. Each checks the object through
    // the API (`get --raw`), in the JSON the simulator stores.
    void typedCommandsWork_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QVariantMap>("expected"); // dotted path -> value; empty: the object is gone

        const QString manifestJson = writeManifest(u"typed-apply.json"_s,
                                                   R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied-json","namespace":"typed"},)"
                                                   R"("data":{"format":"json"}})");
        const QString manifestYaml = writeManifest(
            u"typed-apply.yaml"_s,
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: applied\n  namespace: typed\nspec:\n  replicas: 2\n  selector:\n    "
            "matchLabels:\n      app: applied\n  template:\n    metadata:\n      labels:\n        app: applied\n    spec:\n      containers:\n      "
            "- name: c\n        image: busybox:1.36\n");
        const QString base64Secret = QString::fromLatin1(QByteArray("s3cr3t").toBase64());

        QTest::newRow("create namespace writes protobuf and the Namespace is stored")
            << QStringList{u"create"_s, u"namespace"_s, u"typed"_s} << u"namespace/typed created"_s << u"/api/v1/namespaces/typed"_s
            << QVariantMap{{u"kind"_s, u"Namespace"_s}, {u"metadata.name"_s, u"typed"_s}};
        QTest::newRow("create configmap --from-literal stores the literals")
            << QStringList{u"create"_s, u"configmap"_s, u"literals"_s, u"-n"_s, u"typed"_s, u"--from-literal=a=b"_s, u"--from-literal=greeting=hello"_s}
            << u"configmap/literals created"_s << u"/api/v1/namespaces/typed/configmaps/literals"_s
            << QVariantMap{{u"data.a"_s, u"b"_s}, {u"data.greeting"_s, u"hello"_s}, {u"metadata.namespace"_s, u"typed"_s}};
        QTest::newRow("create secret generic stores the bytes base64-encoded")
            << QStringList{u"create"_s, u"secret"_s, u"generic"_s, u"db"_s, u"-n"_s, u"typed"_s, u"--from-literal=password=s3cr3t"_s} << u"secret/db created"_s
            << u"/api/v1/namespaces/typed/secrets/db"_s << QVariantMap{{u"data.password"_s, base64Secret}};
        QTest::newRow("create deployment --image stores the pod template")
            << QStringList{u"create"_s, u"deployment"_s, u"web"_s, u"-n"_s, u"typed"_s, u"--image=nginx:1.27"_s, u"--port=8080"_s}
            << u"deployment.apps/web created"_s << u"/apis/apps/v1/namespaces/typed/deployments/web"_s
            << QVariantMap{{u"spec.replicas"_s, 1},
                           {u"spec.selector.matchLabels.app"_s, u"web"_s},
                           {u"spec.template.spec.containers.0.image"_s, u"nginx:1.27"_s},
                           {u"spec.template.spec.containers.0.ports.0.containerPort"_s, 8080}};
        QTest::newRow("create deployment --replicas=0 keeps the zero")
            << QStringList{u"create"_s, u"deployment"_s, u"idle"_s, u"-n"_s, u"typed"_s, u"--image=nginx"_s, u"--replicas=0"_s}
            << u"deployment.apps/idle created"_s << u"/apis/apps/v1/namespaces/typed/deployments/idle"_s << QVariantMap{{u"spec.replicas"_s, 0}};
        QTest::newRow("apply -f JSON into the typed namespace")
            << QStringList{u"apply"_s, u"-f"_s, manifestJson} << u"configmap/applied-json created"_s << u"/api/v1/namespaces/typed/configmaps/applied-json"_s
            << QVariantMap{{u"data.format"_s, u"json"_s}};
        QTest::newRow("apply -f YAML into the typed namespace")
            << QStringList{u"apply"_s, u"-f"_s, manifestYaml} << u"deployment.apps/applied created"_s << u"/apis/apps/v1/namespaces/typed/deployments/applied"_s
            << QVariantMap{{u"spec.replicas"_s, 2}, {u"spec.template.spec.containers.0.image"_s, u"busybox:1.36"_s}};
        QTest::newRow("scale a deployment that create deployment made")
            << QStringList{u"scale"_s, u"-n"_s, u"typed"_s, u"deployment/web"_s, u"--replicas=3"_s} << u"deployment.apps/web scaled"_s
            << u"/apis/apps/v1/namespaces/typed/deployments/web"_s << QVariantMap{{u"spec.replicas"_s, 3}};
        QTest::newRow("label a configmap that create configmap made")
            << QStringList{u"label"_s, u"-n"_s, u"typed"_s, u"configmap/literals"_s, u"tier=test"_s} << u"configmap/literals labeled"_s
            << u"/api/v1/namespaces/typed/configmaps/literals"_s << QVariantMap{{u"metadata.labels.tier"_s, u"test"_s}, {u"data.a"_s, u"b"_s}};
        QTest::newRow("delete a secret that create secret made") << QStringList{u"delete"_s, u"-n"_s, u"typed"_s, u"secret/db"_s} << u"secret \"db\" deleted"_s
                                                                 << u"/api/v1/namespaces/typed/secrets/db"_s << QVariantMap{};
    }

    void typedCommandsWork()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, output);
        QFETCH(QString, path);
        QFETCH(QVariantMap, expected);
        const KubectlResult result = kubectl(arguments);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(result.out.trimmed(), output);
        const KubectlResult raw = kubectl({u"get"_s, u"--raw"_s, path});
        if (expected.isEmpty()) {
            QVERIFY(raw.exitCode != 0);
            QVERIFY2(raw.err.contains(u"NotFound"_s), qPrintable(raw.err));
            return;
        }
        QVERIFY2(raw.exitCode == 0, qPrintable(raw.err));
        const QJsonObject object = QJsonDocument::fromJson(raw.out.toUtf8()).object();
        for (auto it = expected.cbegin(); it != expected.cend(); ++it)
            QCOMPARE(valueAt(object, it.key()).toVariant(), it.value());
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
        // `create -f` writes JSON, `create configmap` protobuf: the watch sees both.
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
        const KubectlResult typed = kubectl({u"create"_s, u"configmap"_s, u"watched-typed"_s, u"-n"_s, u"shop"_s, u"--from-literal=a=b"_s});
        QVERIFY2(typed.exitCode == 0, qPrintable(typed.err));
        QVERIFY2(waitFor("watched-typed"), output.constData());
        QCOMPARE(watch.state(), QProcess::Running);
        watch.kill();
        watch.waitForFinished();
    }

    // The oldest running pod of a namespace (the longest log) whose container never restarted.
    QString oldestRunningPod(const QString &namespaceName)
    {
        const KubectlResult result = kubectl({u"get"_s, u"pods"_s, u"-n"_s, namespaceName, u"-o"_s, u"json"_s});
        QString oldest;
        QString oldestStart;
        for (const QJsonValue &item : QJsonDocument::fromJson(result.out.toUtf8()).object().value(u"items"_s).toArray()) {
            const QJsonObject pod = item.toObject();
            const QString start = valueAt(pod, u"status.startTime"_s).toString();
            if (valueAt(pod, u"status.phase"_s).toString() == u"Running" && valueAt(pod, u"status.containerStatuses.0.restartCount"_s).toInt(-1) == 0 &&
                !start.isEmpty() && (oldest.isEmpty() || start < oldestStart)) {
                oldest = valueAt(pod, u"metadata.name"_s).toString();
                oldestStart = start;
            }
        }
        return oldest;
    }

    // kubectl logs against the simulator's generated container logs. The rows run in order on
    // the oldest running pod of "shop": "restarted" rows after its status says the container
    // restarted twice (an OOMKill), "duo" rows on a pod of two containers that a row creates.
    void logsWork_data()
    {
        QTest::addColumn<QStringList>("arguments"); // POD and DUO are replaced
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("lines"); // -1: any number, at least one
        QTest::addColumn<QString>("outPattern"); // every line of the output matches; empty: no check
        QTest::addColumn<QString>("errContains");

        const QString timestamp = u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z "_s;
        QTest::newRow("logs prints the container's log") << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s} << 0 << -1 << QString() << QString();
        QTest::newRow("-c names the one container") << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"-c"_s, u"app"_s} << 0 << -1 << QString()
                                                    << QString();
        QTest::newRow("--tail=5 prints exactly five lines")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--tail=5"_s} << 0 << 5 << QString() << QString();
        QTest::newRow("--timestamps prefixes the kubelet's RFC 3339 time")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--timestamps"_s, u"--tail=20"_s} << 0 << 20 << timestamp << QString();
        QTest::newRow("--limit-bytes=64 cuts the stream at 64 bytes")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--limit-bytes=64"_s} << 0 << -1 << QString() << QString();
        QTest::newRow("a missing container is refused with kubectl's words")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"-c"_s, u"nope"_s} << 1 << 0 << QString() << u"container nope is not valid for pod"_s;
        QTest::newRow("--previous of a container that never restarted is refused") << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--previous"_s} << 1
                                                                                   << 0 << QString() << u"previous terminated container \"app\" in pod"_s;
        QTest::newRow("a missing pod is NotFound") << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"no-such-pod"_s} << 1 << 0 << QString()
                                                   << u"pods \"no-such-pod\" not found"_s;
        QTest::newRow("restarted: --previous prints the killed instance, ending with its crash")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--previous"_s, u"--tail=1"_s} << 0 << 1 << u"^fatal error: runtime: out of memory$"_s
            << QString();
        QTest::newRow("restarted: the current instance says it was restarted")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"POD"_s, u"--tail=-1"_s} << 0 << -1 << QString() << QString();
        QTest::newRow("duo: kubectl picks the first of two containers and says so")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"DUO"_s} << 0 << -1 << QString() << u"Defaulted container \"a\" out of: a, b"_s;
        QTest::newRow("duo: -c reads the other container")
            << QStringList{u"logs"_s, u"-n"_s, u"shop"_s, u"DUO"_s, u"-c"_s, u"b"_s, u"--tail=3"_s} << 0 << 3 << QString() << QString();
        QTest::newRow("duo: the server itself wants a container name")
            << QStringList{u"get"_s, u"--raw"_s, u"/api/v1/namespaces/shop/pods/DUO/log"_s} << 1 << 0 << QString()
            << u"a container name must be specified for pod duo, choose one of: [a b]"_s;
    }
    void logsWork()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(int, lines);
        QFETCH(QString, outPattern);
        QFETCH(QString, errContains);
        if (m_logPod.isEmpty())
            m_logPod = oldestRunningPod(u"shop"_s);
        const QString pod = m_logPod;
        QVERIFY(!pod.isEmpty());
        const QString row = QString::fromUtf8(QTest::currentDataTag());
        if (row.startsWith(u"restarted:") &&
            !kubectl({u"get"_s, u"pod"_s, u"-n"_s, u"shop"_s, pod, u"-o"_s, u"jsonpath={.status.containerStatuses[0].restartCount}"_s}).out.startsWith(u'2')) {
            // The status a kubelet writes after two OOMKills; the last instance ran 20 minutes.
            const QDateTime now = QDateTime::currentDateTimeUtc();
            const QJsonObject status{
                {u"status"_s,
                 QJsonObject{
                     {u"containerStatuses"_s,
                      QJsonArray{QJsonObject{{u"name"_s, u"app"_s},
                                             {u"ready"_s, true},
                                             {u"restartCount"_s, 2},
                                             {u"image"_s, u"nginx"_s},
                                             {u"imageID"_s, QString()},
                                             {u"state"_s, QJsonObject{{u"running"_s, QJsonObject{{u"startedAt"_s, now.addSecs(-60).toString(Qt::ISODate)}}}}},
                                             {u"lastState"_s,
                                              QJsonObject{{u"terminated"_s,
                                                           QJsonObject{{u"exitCode"_s, 137},
                                                                       {u"reason"_s, u"OOMKilled"_s},
                                                                       {u"startedAt"_s, now.addSecs(-1300).toString(Qt::ISODate)},
                                                                       {u"finishedAt"_s, now.addSecs(-70).toString(Qt::ISODate)}}}}}}}}}}};
            const KubectlResult patched = kubectl({u"patch"_s,
                                                   u"pod"_s,
                                                   u"-n"_s,
                                                   u"shop"_s,
                                                   pod,
                                                   u"--subresource=status"_s,
                                                   u"--type=merge"_s,
                                                   u"-p"_s,
                                                   QString::fromUtf8(QJsonDocument(status).toJson(QJsonDocument::Compact))});
            QVERIFY2(patched.exitCode == 0, qPrintable(patched.err));
        }
        if (row.startsWith(u"duo:") && kubectl({u"get"_s, u"pod"_s, u"-n"_s, u"shop"_s, u"duo"_s}).exitCode != 0) {
            const QString manifest = writeManifest(u"duo.yaml"_s,
                                                   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: duo\n  namespace: shop\nspec:\n  containers:\n  - name: a\n"
                                                   "    image: nginx:1.27\n  - name: b\n    image: ghcr.io/example/worker:0.9.1\n");
            QStringList create{u"create"_s, u"-f"_s, manifest};
            if (m_minor < 25)
                create << u"--validate=false"_s;
            const KubectlResult created = kubectl(create);
            QVERIFY2(created.exitCode == 0, qPrintable(created.err));
        }
        arguments.replaceInStrings(u"POD"_s, pod);
        arguments.replaceInStrings(u"DUO"_s, u"duo"_s);
        const KubectlResult result = kubectl(arguments);
        QVERIFY2(result.exitCode == exitCode, qPrintable(result.err));
        if (!errContains.isEmpty())
            QVERIFY2(result.err.contains(errContains), qPrintable(result.err));
        const QStringList output = result.out.split(u'\n', Qt::SkipEmptyParts);
        if (lines >= 0)
            QCOMPARE(output.size(), lines);
        else
            QVERIFY(!output.isEmpty());
        if (!outPattern.isEmpty()) {
            const QRegularExpression pattern(outPattern);
            for (const QString &line : output)
                QVERIFY2(pattern.match(line).hasMatch(), qPrintable(line));
        }
        if (row.startsWith(u"--limit-bytes"))
            QCOMPARE(result.out.toUtf8().size(), 64);
        if (row.startsWith(u"restarted: the current"))
            QVERIFY2(result.out.contains(u"(restart 2)"_s) || result.out.contains(u"restarts=2"_s), qPrintable(output.mid(0, 5).join(u'\n')));
    }

    // --since=10s: only the lines of the last ten seconds, each with its time to prove it.
    void logsSinceKeepsTheLastSeconds()
    {
        const QString pod = oldestRunningPod(u"data"_s);
        QVERIFY(!pod.isEmpty());
        const KubectlResult all = kubectl({u"logs"_s, u"-n"_s, u"data"_s, pod});
        QVERIFY2(all.exitCode == 0, qPrintable(all.err));
        const QDateTime asked = QDateTime::currentDateTimeUtc();
        const KubectlResult recent = kubectl({u"logs"_s, u"-n"_s, u"data"_s, pod, u"--since=10s"_s, u"--timestamps"_s});
        QVERIFY2(recent.exitCode == 0, qPrintable(recent.err));
        const QStringList lines = recent.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() < all.out.count(u'\n'));
        for (const QString &line : lines) {
            const QDateTime time = QDateTime::fromString(line.section(u' ', 0, 0), Qt::ISODateWithMs);
            QVERIFY2(time.isValid(), qPrintable(line));
            // Ten seconds before the server answered, which is after `asked`; a second of slack.
            QVERIFY2(time >= asked.addSecs(-11), qPrintable(line));
        }
    }

    // -f: the lines there are, then new ones as the container writes them; killed, as a user does.
    void logsFollowStreamsNewLines()
    {
        const QString pod = oldestRunningPod(u"data"_s);
        QProcess follow;
        follow.setProcessEnvironment(m_sim.clientEnvironment());
        follow.start(u"kubectl"_s, baseArguments() + QStringList{u"logs"_s, u"-n"_s, u"data"_s, pod, u"-f"_s, u"--tail=1"_s, u"--timestamps"_s});
        QVERIFY(follow.waitForStarted());
        QByteArray output;
        const QDeadlineTimer deadline(30000);
        while (output.count('\n') < 4 && !deadline.hasExpired() && follow.state() == QProcess::Running) {
            follow.waitForReadyRead(200);
            output += follow.readAllStandardOutput();
        }
        QVERIFY2(output.count('\n') >= 4, output.constData());
        // Still following: the server keeps the stream open.
        QCOMPARE(follow.state(), QProcess::Running);
        follow.kill();
        follow.waitForFinished();
        const QList<QByteArray> lines = output.split('\n');
        QVERIFY(QDateTime::fromString(QString::fromLatin1(lines.at(3).split(' ').value(0)), Qt::ISODateWithMs) >
                QDateTime::fromString(QString::fromLatin1(lines.at(0).split(' ').value(0)), Qt::ISODateWithMs));
    }

    // Events follow the workload and answer field selectors on involvedObject, as for kubectl
    // describe: a pod's own events only, with its uid, counts and the reporting component.
    void eventsByInvolvedObject()
    {
        const QString pod = oldestRunningPod(u"data"_s);
        const QString uid = kubectl({u"get"_s, u"pod"_s, u"-n"_s, u"data"_s, pod, u"-o"_s, u"jsonpath={.metadata.uid}"_s}).out;
        QVERIFY(!uid.isEmpty());
        KubectlResult result = kubectl({u"get"_s, u"events"_s, u"-n"_s, u"data"_s, u"--field-selector"_s, u"involvedObject.name="_s + pod, u"-o"_s, u"json"_s});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QJsonArray items = QJsonDocument::fromJson(result.out.toUtf8()).object().value(u"items"_s).toArray();
        QStringList reasons;
        for (const QJsonValue &item : items) {
            const QJsonObject event = item.toObject();
            QCOMPARE(valueAt(event, u"involvedObject.name"_s).toString(), pod);
            QCOMPARE(valueAt(event, u"involvedObject.uid"_s).toString(), uid);
            QCOMPARE(valueAt(event, u"involvedObject.kind"_s).toString(), u"Pod"_s);
            QVERIFY(valueAt(event, u"count"_s).toInt() >= 1);
            QVERIFY(!valueAt(event, u"source.component"_s).toString().isEmpty());
            reasons.append(event.value(u"reason"_s).toString());
        }
        for (const QString &reason : {u"Scheduled"_s, u"Pulling"_s, u"Pulled"_s, u"Created"_s, u"Started"_s})
            QVERIFY2(reasons.contains(reason), qPrintable(reasons.join(u',')));
        // The table kubectl prints, one pod's rows only.
        result = kubectl({u"get"_s, u"events"_s, u"-n"_s, u"data"_s, u"--field-selector"_s, u"involvedObject.name="_s + pod});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QStringList rows = dataLines(result.out);
        QCOMPARE(rows.size(), items.size());
        for (const QString &row : rows)
            QVERIFY2(row.contains(u"pod/"_s + pod), qPrintable(row));
        // A field the apiserver does not register for events is refused.
        result = kubectl({u"get"_s, u"events"_s, u"-n"_s, u"data"_s, u"--field-selector"_s, u"spec.nodeName=x"_s});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains(u"field label not supported"_s), qPrintable(result.err));
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
