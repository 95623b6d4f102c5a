// PodSummary: kubectl's READY, STATUS and RESTARTS of a pod, from the pod's JSON.
#include "core/printers/podsummary.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestPodSummary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void summarises_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("ready");
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("restarts");

        const QByteArray head = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"n","resourceVersion":"1")";
        const QByteArray twoContainers = R"("spec":{"containers":[{"name":"a"},{"name":"b"}]})";
        QTest::newRow("running and ready") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":1,"state":{"running":{}}},{"ready":true,"restartCount":2,"state":{"running":{}}}]}})"
                                           << u"2/2"_s << u"Running"_s << 3;
        QTest::newRow("a waiting container's reason wins over the phase") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}},{"ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"
                                                                          << u"1/2"_s << u"CrashLoopBackOff"_s << 7;
        QTest::newRow("terminated without reason shows the exit code") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"exitCode":3}}}]}})"
                                                                       << u"0/2"_s << u"ExitCode:3"_s << 0;
        QTest::newRow("pending with no statuses") << head + "}," + twoContainers + R"(,"status":{"phase":"Pending"}})" << u"0/2"_s << u"Pending"_s << 0;
        const QByteArray withInit = R"("spec":{"initContainers":[{"name":"i"},{"name":"j"}],"containers":[{"name":"a"},{"name":"b"}]})";
        QTest::newRow("an init container still running") << head + "}," + withInit +
                R"(,"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":0,"state":{"terminated":{"exitCode":0}}},{"restartCount":1,"state":{"running":{}}}]}})"
                                                         << u"0/2"_s << u"Init:1/2"_s << 1;
        QTest::newRow("a failing init container") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"
                                                  << u"0/2"_s << u"Init:CrashLoopBackOff"_s << 4;
        QTest::newRow("the pod's own reason (evicted)")
            << head + "}," + twoContainers + R"(,"status":{"phase":"Failed","reason":"Evicted"}})" << u"0/2"_s << u"Evicted"_s << 0;
        // kubectl's printPod, also the simulator's Table rows (core/sim/tableconverter uses PodSummary).
        QTest::newRow("terminated by a signal without reason") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"exitCode":137,"signal":9}}}]}})"
                                                               << u"0/2"_s << u"Signal:9"_s << 0;
        QTest::newRow("the first container's reason wins") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Running","containerStatuses":[{"ready":false,"restartCount":1,"state":{"waiting":{"reason":"ErrImagePull"}}},{"ready":false,"restartCount":2,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"
                                                           << u"0/2"_s << u"ErrImagePull"_s << 3;
        QTest::newRow("completed beside a running container, pod ready: Running") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}},{"ready":false,"restartCount":1,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}})"
                                                                                  << u"1/2"_s << u"Running"_s << 1;
        QTest::newRow("completed beside a running container, pod not ready: NotReady") << head + "}," + twoContainers +
                R"(,"status":{"phase":"Running","conditions":[{"type":"Ready","status":"False"}],"containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}},{"ready":false,"restartCount":1,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}})"
                                                                                       << u"1/2"_s << u"NotReady"_s << 1;
        QTest::newRow("an init container terminated without reason")
            << head + "}," + withInit + R"(,"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":2,"state":{"terminated":{"exitCode":1}}}]}})"
            << u"0/2"_s << u"Init:ExitCode:1"_s << 2;
        QTest::newRow("an init container waiting in PodInitializing counts as its index") << head + "}," + withInit +
                R"(,"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]}})"
                                                                                          << u"0/2"_s << u"Init:0/2"_s << 0;
        QTest::newRow("a deleted pod on a lost node is Unknown")
            << head + R"(,"deletionTimestamp":"2026-01-01T00:00:00Z"},)" + twoContainers + R"(,"status":{"phase":"Running","reason":"NodeLost"}})" << u"0/2"_s
            << u"Unknown"_s << 0;
        QTest::newRow("a finished pod being deleted keeps its status")
            << head + R"(,"deletionTimestamp":"2026-01-01T00:00:00Z"},)" + twoContainers + R"(,"status":{"phase":"Succeeded"}})" << u"0/2"_s << u"Succeeded"_s
            << 0;
        QTest::newRow("deletion timestamp is Terminating") << head + R"(,"deletionTimestamp":"2026-01-01T00:00:00Z"},)" + twoContainers +
                R"(,"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}}]}})"
                                                           << u"1/2"_s << u"Terminating"_s << 0;
    }

    void summarises()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, ready);
        QFETCH(QString, status);
        QFETCH(int, restarts);
        QString error;
        const auto pod = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
        QVERIFY2(pod, qPrintable(error));
        const PodSummary summary = PodSummary::fromObject(*pod);
        QCOMPARE(summary.ready(), ready);
        QCOMPARE(summary.status, status);
        QCOMPARE(summary.restarts, restarts);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestPodSummary)
#include "tst_podsummary.moc"
