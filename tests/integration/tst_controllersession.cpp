// ControllerSession without widgets, against an in-process simulated cluster: the controller the
// app runs is current until another replaces it (the old one drains off the caller's thread and
// is deleted once stopped), a stop leaves it current and drained, a wrong name or parameter
// leaves the current one untouched, owner-references waits for the owners' caches (saying which)
// before it starts, and a cluster going away stops, blocking, every controller reading it.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/controller/controller.h"
#include "core/controller/controllersession.h"
#include "core/controller/findingsstore.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

Sim::SimOptions simOptions(int pods)
{
    Sim::SimOptions options;
    options.pods = pods;
    options.namespaces = 2;
    options.churn = 0;
    return options;
}

ControllerSettings oneWorker()
{
    ControllerSettings settings;
    settings.workers = 1;
    return settings;
}

} // namespace

class TestControllerSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aRunReplacesTheCurrentController()
    {
        CachescopeTest::SimClusterFixture fixture(simOptions(40));
        QVERIFY(fixture.startDiscovered());
        SharedIndexInformer *pods = fixture.syncedInformer(u"pods"_s);
        QVERIFY(pods != nullptr);
        const auto podCount = quint64(pods->indexer().size());
        QCOMPARE(podCount, quint64(fixture.sim.truth(u"pods"_s).size()));

        ControllerSession session;
        QSignalSpy changed(&session, &ControllerSession::controllerChanged);
        QString error;
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"pod-health"_s, {}, oneWorker(), &error), qPrintable(error));
        QCOMPARE(changed.count(), 1);
        QPointer<Controller> first = session.controller();
        QVERIFY(first != nullptr);
        QCOMPARE(changed.at(0).at(0).value<Controller *>(), first.data());
        QCOMPARE(first->state(), Controller::State::Running);
        QTRY_COMPARE_WITH_TIMEOUT(first->counters().processed, podCount, 20000);

        session.pause();
        QCOMPARE(first->state(), Controller::State::Paused);
        session.resume();
        QCOMPARE(first->state(), Controller::State::Running);

        // Each piece of simulated work takes 200 ms on one worker: the replaced controller is
        // still draining when run() returns, so the session keeps it until it has stopped.
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"simulated-work"_s, {u"durationMs=200"_s, u"failureRate=0"_s}, oneWorker(), &error),
                 qPrintable(error));
        QPointer<Controller> second = session.controller();
        QVERIFY(second != nullptr && second != first);
        QCOMPARE(second->name(), u"simulated-work"_s);
        // Let go (null for the views), then the new one.
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.at(1).at(0).value<Controller *>(), nullptr);
        QCOMPARE(changed.at(2).at(0).value<Controller *>(), second.data());
        QTRY_VERIFY_WITH_TIMEOUT(first.isNull(), 10000);
        QCOMPARE(session.retiringCount(), 0);

        // Replaced while it works through 40 keys of 200 ms: it drains off this thread.
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"pod-health"_s, {}, oneWorker(), &error), qPrintable(error));
        QCOMPARE(session.retiringCount(), 1);
        QVERIFY(!second.isNull());
        QCOMPARE(second->state(), Controller::State::Draining);
        QTRY_VERIFY_WITH_TIMEOUT(second.isNull(), 30000);
        QCOMPARE(session.retiringCount(), 0);

        // A wrong name or parameter changes nothing.
        QPointer<Controller> third = session.controller();
        const qsizetype signalsBefore = changed.count();
        QVERIFY(!session.run(fixture.cluster.get(), pods, {}, u"no-such-controller"_s, {}, oneWorker(), &error));
        QVERIFY2(error.contains(u"no-such-controller"_s), qPrintable(error));
        error.clear();
        QVERIFY(!session.run(fixture.cluster.get(), pods, {}, u"simulated-work"_s, {u"durationMs"_s}, oneWorker(), &error));
        QVERIFY2(!error.isEmpty(), "a parameter without a value is refused");
        QCOMPARE(session.controller(), third.data());
        QCOMPARE(changed.count(), signalsBefore);

        // A stop drains; the stopped controller stays current with what it found. A handler
        // removed before the informer handed it every initial add never gets the rest (as
        // client-go's listener drops what it has not delivered), so the stop waits until the
        // registration synced: every key is then queued, and the drain processes them all.
        QTRY_VERIFY_WITH_TIMEOUT(third->registration().hasSynced(), 10000);
        session.stop();
        QCOMPARE(session.controller(), third.data());
        QTRY_COMPARE_WITH_TIMEOUT(third->state(), Controller::State::Stopped, 10000);
        QCOMPARE(third->counters().processed, podCount);
        QCOMPARE(changed.count(), signalsBefore);
    }

    void ownerReferencesWaitForTheOwnersCaches()
    {
        CachescopeTest::SimClusterFixture fixture(simOptions(60));
        QVERIFY(fixture.startDiscovered());
        SharedIndexInformer *pods = fixture.syncedInformer(u"pods"_s);
        QVERIFY(pods != nullptr);

        // The owners' lists answer late, so that the controller is seen waiting for them.
        fixture.sim.faults().setLatencyMs(1000);
        fixture.sim.faults().injectNext(Sim::FaultPlan::Fault::Latency, 100);
        ControllerSession session;
        QSignalSpy waiting(&session, &ControllerSession::waitingForOwnersChanged);
        QString error;
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"owner-references"_s, {}, oneWorker(), &error), qPrintable(error));
        Controller *controller = session.controller();
        QVERIFY(controller != nullptr);
        QCOMPARE(controller->state(), Controller::State::Idle);
        QVERIFY2(session.waitingForOwners().contains(u"ReplicaSet"_s), qPrintable(session.waitingForOwners().join(u", "_s)));
        QCOMPARE(waiting.count(), 1);
        QCOMPARE(waiting.at(0).at(0).toStringList(), session.waitingForOwners());

        // Once they synced it runs, and says it waits no more; every pod has its ReplicaSet.
        QTRY_COMPARE_WITH_TIMEOUT(controller->state(), Controller::State::Running, 30000);
        QCOMPARE(waiting.count(), 2);
        QVERIFY(waiting.at(1).at(0).toStringList().isEmpty());
        QVERIFY(session.waitingForOwners().isEmpty());
        const auto podCount = quint64(fixture.sim.truth(u"pods"_s).size());
        QTRY_COMPARE_WITH_TIMEOUT(controller->counters().processed, podCount, 20000);
        QCOMPARE(controller->findings()->keyCount(), 0);
    }

    void aClusterGoingAwayStopsItsControllers()
    {
        CachescopeTest::SimClusterFixture fixture(simOptions(30));
        QVERIFY(fixture.startDiscovered());
        SharedIndexInformer *pods = fixture.syncedInformer(u"pods"_s);
        QVERIFY(pods != nullptr);

        ControllerSession session;
        QString error;
        const QStringList slowWork{u"durationMs=200"_s, u"failureRate=0"_s};
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"simulated-work"_s, slowWork, oneWorker(), &error), qPrintable(error));
        QPointer<Controller> retired = session.controller();
        QVERIFY2(session.run(fixture.cluster.get(), pods, {}, u"simulated-work"_s, slowWork, oneWorker(), &error), qPrintable(error));
        QPointer<Controller> current = session.controller();
        QCOMPARE(session.retiringCount(), 1);

        // Another cluster leaving touches nothing.
        Cluster other(fixture.cluster->restConfig());
        session.stopControllersOf(&other);
        QCOMPARE(session.controller(), current.data());
        QCOMPARE(session.retiringCount(), 1);

        // This one: both are stopped before the call returns, the keys in flight finished.
        QSignalSpy changed(&session, &ControllerSession::controllerChanged);
        session.stopControllersOf(fixture.cluster.get());
        QVERIFY(session.controller() == nullptr);
        QVERIFY(current.isNull());
        QVERIFY(retired.isNull());
        QCOMPARE(session.retiringCount(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<Controller *>(), nullptr);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerSession)
#include "tst_controllersession.moc"
