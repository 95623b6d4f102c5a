// Tests of KubeProtobuf: Kubernetes protobuf bodies, as kubectl writes them, into the JSON the
// apiserver stores. Golden rows live in tests/data/protobuf/ (README.md there says where each
// body and its JSON come from).
#include "core/sim/kubeprotobuf.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope::Sim;

namespace {

QByteArray readData(const QString &name)
{
    QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/protobuf/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// A protobuf varint and a length-delimited field, to build bodies by hand.
QByteArray varint(quint64 value)
{
    QByteArray bytes;
    do {
        char byte = char(value & 0x7f);
        value >>= 7;
        if (value)
            byte = char(byte | 0x80);
        bytes.append(byte);
    } while (value);
    return bytes;
}

QByteArray field(int number, const QByteArray &payload)
{
    return varint(quint64(number) << 3 | 2) + varint(quint64(payload.size())) + payload;
}

QByteArray envelope(const QByteArray &apiVersion, const QByteArray &kind, const QByteArray &raw, const QByteArray &contentEncoding = {})
{
    return QByteArrayView("k8s\0", 4).toByteArray() + field(1, field(1, apiVersion) + field(2, kind)) + field(2, raw) + field(3, contentEncoding);
}

} // namespace

class TestKubeProtobuf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesWhatTheApiserverStores_data()
    {
        QTest::addColumn<QString>("name");
        // Bodies kubectl 1.32 sent (captured on loopback), JSON from the same command's
        // --dry-run=client -o json.
        QTest::newRow("create namespace: creationTimestamp null, empty spec and status kept") << u"namespace"_s;
        QTest::newRow("create configmap --from-literal: the data map") << u"configmap"_s;
        QTest::newRow("create secret generic: bytes in data are base64") << u"secret"_s;
        QTest::newRow("create deployment --replicas=0 --port: a pointer's zero stays, resources {} and strategy {} kept") << u"deployment-web"_s;
        QTest::newRow("create deployment with two images: two containers, replicas 1") << u"deployment-api"_s;
        QTest::newRow("create service clusterip: targetPort as an int and as a name") << u"service-clusterip"_s;
        QTest::newRow("create service nodeport: nodePort and type") << u"service-nodeport"_s;
        QTest::newRow("create serviceaccount") << u"serviceaccount"_s;
        QTest::newRow("create job: command and restartPolicy Never") << u"job"_s;
        QTest::newRow("create cronjob: schedule and the job template") << u"cronjob"_s;
        // Kinds kubectl never writes typed: bodies encoded from the .txtpb beside them with
        // the descriptors kubectl registers, JSON as the Go types marshal it.
        QTest::newRow("pod: Time as RFC 3339, inline volume source and key selector, probe handler, quantities, FieldsV1") << u"pod"_s;
        QTest::newRow("node: quantities map, zero Time in a condition is null, Port keeps its capital") << u"node"_s;
        QTest::newRow("event: MicroTime with microseconds, series, zero strings left out") << u"event"_s;
        QTest::newRow("endpoints: an empty pointer string stays") << u"endpoints"_s;
        QTest::newRow("replicaset: label selector expressions") << u"replicaset"_s;
        QTest::newRow("statefulset: volume claim templates, a pointer partition of 0") << u"statefulset"_s;
        QTest::newRow("daemonset: IntOrString percentages, a plain zero left out") << u"daemonset"_s;
        QTest::newRow("scale: omitempty replicas 0 leaves an empty spec") << u"scale"_s;
        QTest::newRow("delete options: pointer grace period 0, preconditions, dryRun") << u"deleteoptions"_s;
    }

    void decodesWhatTheApiserverStores()
    {
        QFETCH(QString, name);
        const QByteArray body = readData(name + u".pb"_s);
        QVERIFY2(!body.isEmpty(), qPrintable(name));
        const QJsonObject expected = QJsonDocument::fromJson(readData(name + u".json"_s)).object();
        QVERIFY(!expected.isEmpty());
        QString error;
        const std::optional<QJsonObject> decoded = KubeProtobuf::decode(body, &error);
        QVERIFY2(decoded, qPrintable(error));
        if (*decoded != expected) {
            qInfo("decoded:  %s", QJsonDocument(*decoded).toJson(QJsonDocument::Compact).constData());
            qInfo("expected: %s", QJsonDocument(expected).toJson(QJsonDocument::Compact).constData());
        }
        QCOMPARE(*decoded, expected);
    }

    void refusesWhatItCannotRepresent_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        const QByteArray configMap = field(1, field(1, "cm")) + field(2, field(1, "a") + field(2, "b"));
        QTest::newRow("a JSON body has no magic") << QByteArray(R"({"kind":"ConfigMap"})") << u"k8s\\0"_s;
        QTest::newRow("a broken envelope") << QByteArray("k8s\0\x0a\x7f", 6) << u"runtime.Unknown"_s;
        QTest::newRow("a gzip content encoding") << envelope("v1", "ConfigMap", configMap, "gzip") << u"content encoding gzip"_s;
        QTest::newRow("a kind with no protobuf form here (a custom resource)")
            << envelope("demo.cachescope.io/v1", "Widget", configMap) << u"demo.cachescope.io/v1, Kind=Widget"_s;
        QTest::newRow("a kind in another group version") << envelope("apps/v1beta1", "Deployment", {}) << u"apps/v1beta1, Kind=Deployment"_s;
        QTest::newRow("a broken object message") << envelope("v1", "ConfigMap", QByteArray("\x0a\x7f", 2)) << u"k8s.io.api.core.v1.ConfigMap"_s;
        // A newer client's field: ConfigMap has no field 9, ObjectMeta no field 99.
        QTest::newRow("an unknown top-level field is named, not dropped")
            << envelope("v1", "ConfigMap", configMap + field(9, "new")) << u"field 9 of k8s.io.api.core.v1.ConfigMap"_s;
        QTest::newRow("an unknown nested field is named, not dropped")
            << envelope("v1", "ConfigMap", field(1, field(1, "cm") + field(99, "x"))) << u"field 99 of k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"_s;
    }

    void refusesWhatItCannotRepresent()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!KubeProtobuf::decode(body, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void supportsTheServedKinds_data()
    {
        QTest::addColumn<QString>("apiVersion");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("supported");
        for (const char *kind : {"Namespace", "Node", "Pod", "Service", "Endpoints", "ConfigMap", "Secret", "Event", "ServiceAccount"})
            QTest::addRow("v1 %s", kind) << u"v1"_s << QString::fromLatin1(kind) << true;
        for (const char *kind : {"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"})
            QTest::addRow("apps/v1 %s", kind) << u"apps/v1"_s << QString::fromLatin1(kind) << true;
        QTest::newRow("batch/v1 Job") << u"batch/v1"_s << u"Job"_s << true;
        QTest::newRow("batch/v1 CronJob") << u"batch/v1"_s << u"CronJob"_s << true;
        QTest::newRow("autoscaling/v1 Scale") << u"autoscaling/v1"_s << u"Scale"_s << true;
        QTest::newRow("a CRD is JSON only") << u"apiextensions.k8s.io/v1"_s << u"CustomResourceDefinition"_s << false;
        QTest::newRow("a kind of the wrong group") << u"v1"_s << u"Deployment"_s << false;
    }

    void supportsTheServedKinds()
    {
        QFETCH(QString, apiVersion);
        QFETCH(QString, kind);
        QFETCH(bool, supported);
        QCOMPARE(KubeProtobuf::supports(apiVersion, kind), supported);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestKubeProtobuf)
#include "tst_kubeprotobuf.moc"
