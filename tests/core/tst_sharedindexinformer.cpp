#include "core/cache/sharedindexinformer.h"

#include "core/cache/indexfunctions.h"
#include "fakelisterwatcher.h"

#include "testmain.h"

#include <QMutex>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;

namespace {

// RecordingHandler writes each call as a line: "add a 5 initial", "update a 5->6",
// "delete a" / "delete a tombstone". Thread-safe: calls come from the listener's thread.
class RecordingHandler final : public ResourceEventHandler
{
public:
    void onAdd(const KubeObject &object, bool isInInitialList) override
    {
        record(u"add "_s + object.name() + u' ' + object.resourceVersion() + (isInInitialList ? u" initial"_s : QString()));
    }
    void onUpdate(const KubeObject &oldObject, const KubeObject &newObject) override
    {
        record(u"update "_s + newObject.name() + u' ' + oldObject.resourceVersion() + u"->"_s + newObject.resourceVersion());
    }
    void onDelete(const DeltaObject &object) override
    {
        if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
            record(u"delete "_s + tombstone->key + u" tombstone"_s);
        } else {
            record(u"delete "_s + std::get<KubeObject>(object).name());
        }
    }
    QStringList calls() const
    {
        QMutexLocker locker(&m_mutex);
        return m_calls;
    }
    QSemaphore *gate = nullptr; // when set, every call waits for a permit

private:
    void record(const QString &call)
    {
        if (gate) {
            gate->acquire();
        }
        QMutexLocker locker(&m_mutex);
        m_calls.append(call);
    }
    mutable QMutex m_mutex;
    QStringList m_calls;
};

// SnapshotHandler records, for each call, the keys the informer's indexer holds at that moment.
class SnapshotHandler final : public ResourceEventHandler
{
public:
    explicit SnapshotHandler(const Indexer *indexer)
        : m_indexer(indexer)
    {
    }
    void onAdd(const KubeObject &, bool) override { record(); }
    void onUpdate(const KubeObject &, const KubeObject &) override { record(); }
    void onDelete(const DeltaObject &) override { record(); }
    QStringList snapshots() const
    {
        QMutexLocker locker(&m_mutex);
        return m_snapshots;
    }

private:
    void record()
    {
        QStringList keys = m_indexer->listKeys();
        keys.sort();
        QMutexLocker locker(&m_mutex);
        m_snapshots.append(keys.join(u' '));
    }
    const Indexer *m_indexer;
    mutable QMutex m_mutex;
    QStringList m_snapshots;
};

} // namespace

// Scenarios of client-go's shared_informer_test.go: handlers before and after start, late
// handlers' synthetic adds, per-handler sync, resync only to due handlers, relists with
// tombstones, slow handlers isolated; each for both queues where the queue matters.
class TestSharedIndexInformer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initialListThenWatch_data();
    void initialListThenWatch();
    void relistDeletesVanishedWithTombstone_data();
    void relistDeletesVanishedWithTombstone();
    void relistModes_data();
    void relistModes();
    void lateHandlerGetsSyntheticAdds();
    void emptyListSyncs();
    void slowHandlerDoesNotBlockOthers();
    void resyncReachesOnlyDueHandlers();
    void handlerResyncPeriod_data();
    void handlerResyncPeriod();
    void indexesFollowChanges();
    void removedHandlerGetsNothingMore();
    void readersNeverWaitForAListBeingApplied();

private:
    struct Fixture
    {
        FakeListerWatcher *lw = nullptr; // owned by the informer
        std::unique_ptr<SharedIndexInformer> informer;
    };
    static Fixture
    make(DeltaQueue::Kind kind, std::function<ObjectListPage(const ListOptions &)> onList, std::chrono::milliseconds resync = {}, bool atomicReplace = true)
    {
        auto lw = std::make_unique<FakeListerWatcher>();
        lw->onList = std::move(onList);
        Fixture f;
        f.lw = lw.get();
        SharedIndexInformer::Options options;
        options.name = u"pods"_s;
        options.queueKind = kind;
        options.atomicReplace = atomicReplace;
        options.resyncPeriod = resync;
        options.indexers.insert(u"nodeName"_s, nodeNameIndexFunction());
        options.reflector.useWatchList = false; // the fake serves paged lists
        options.reflector.backoff.initial = std::chrono::milliseconds(1);
        options.reflector.backoff.jitter = 0;
        f.informer = std::make_unique<SharedIndexInformer>(std::move(lw), QThread::currentThread(), options);
        return f;
    }
};

void TestSharedIndexInformer::initialListThenWatch_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("RealFifo") << int(DeltaQueue::Kind::RealFifo);
    QTest::newRow("DeltaFifo") << int(DeltaQueue::Kind::DeltaFifo);
}

void TestSharedIndexInformer::initialListThenWatch()
{
    QFETCH(int, kind);
    Fixture f = make(DeltaQueue::Kind(kind), [](const ListOptions &) { return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s); });
    auto handler = std::make_shared<RecordingHandler>();
    const auto registration = f.informer->addEventHandler(handler);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QVERIFY(f.informer->hasSynced());
    QTRY_VERIFY(registration.hasSynced());
    QStringList initial = handler->calls();
    initial.sort();
    QCOMPARE(initial, (QStringList{u"add a 1 initial"_s, u"add b 2 initial"_s}));
    QCOMPARE(f.informer->indexer().size(), 2);

    QTRY_VERIFY(f.lw->current());
    f.lw->current()->send({watchEvent(ObjectEvent::Type::Modified, pod(u"a"_s, u"11"_s)),
                           watchEvent(ObjectEvent::Type::Added, pod(u"c"_s, u"12"_s)),
                           watchEvent(ObjectEvent::Type::Deleted, pod(u"b"_s, u"13"_s))});
    QTRY_COMPARE(handler->calls().size(), 5);
    QCOMPARE(handler->calls().mid(2), (QStringList{u"update a 1->11"_s, u"add c 12"_s, u"delete b"_s}));
    QTRY_COMPARE(f.informer->indexer().size(), 2);
    QCOMPARE(f.informer->indexer().getByKey(u"default/a"_s).resourceVersion(), u"11"_s);
    QVERIFY(!f.informer->indexer().getByKey(u"default/b"_s).isValid());
    f.informer->stop();
}

void TestSharedIndexInformer::relistDeletesVanishedWithTombstone_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("RealFifo: after a relist every handler gets an update for an unchanged object, resync off") << int(DeltaQueue::Kind::RealFifo);
    QTest::newRow("DeltaFifo: after a relist every handler gets an update for an unchanged object, resync off") << int(DeltaQueue::Kind::DeltaFifo);
}

void TestSharedIndexInformer::relistDeletesVanishedWithTombstone()
{
    QFETCH(int, kind);
    int lists = 0;
    Fixture f = make(DeltaQueue::Kind(kind), [&lists](const ListOptions &) {
        ++lists;
        if (lists == 1) {
            return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s);
        }
        // b was deleted while the watch was down; a is unchanged; c is new.
        return page({pod(u"a"_s, u"1"_s), pod(u"c"_s, u"30"_s)}, u"40"_s);
    });
    auto handler = std::make_shared<RecordingHandler>();
    f.informer->addEventHandler(handler);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_COMPARE(handler->calls().size(), 2);
    QTRY_VERIFY(f.lw->current());
    f.lw->current()->send({errorEvent(410, u"Expired"_s)});
    QTRY_COMPARE(handler->calls().size(), 5);
    QStringList after = handler->calls().mid(2);
    after.sort();
    // c is added; b is deleted with a tombstone since its final state was never seen; a comes
    // back unchanged, which client-go counts as a resync, and with resync off every listener
    // stays among the resync receivers (sharedProcessor.addListener marks each one syncing).
    QCOMPARE(after, (QStringList{u"add c 30"_s, u"delete default/b tombstone"_s, u"update a 1->1"_s}));
    QCOMPARE(f.informer->indexer().getByKey(u"default/a"_s).resourceVersion(), u"1"_s);
    QCOMPARE(f.informer->indexer().size(), 2);
    QCOMPARE(f.informer->counters().reflector.relists, 1u);
}

void TestSharedIndexInformer::relistModes_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("atomicReplace");
    QTest::addColumn<quint64>("queuedForRelist");
    QTest::newRow("RealFifo (1.36): a relist is one atomic replace, the store swapped before any handler hears of it")
        << int(DeltaQueue::Kind::RealFifo) << true << quint64(1);
    QTest::newRow("RealFifo (1.33-1.35): a relist is a delta per object") << int(DeltaQueue::Kind::RealFifo) << false << quint64(3);
    QTest::newRow("DeltaFifo: a relist is a delta per object") << int(DeltaQueue::Kind::DeltaFifo) << false << quint64(3);
}

void TestSharedIndexInformer::relistModes()
{
    QFETCH(int, kind);
    QFETCH(bool, atomicReplace);
    QFETCH(quint64, queuedForRelist);
    int lists = 0;
    Fixture f = make(
        DeltaQueue::Kind(kind),
        [&lists](const ListOptions &) {
            ++lists;
            if (lists == 1) {
                return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s);
            }
            return page({pod(u"a"_s, u"1"_s), pod(u"c"_s, u"30"_s)}, u"40"_s);
        },
        {},
        atomicReplace);
    auto recording = std::make_shared<RecordingHandler>();
    auto snapshots = std::make_shared<SnapshotHandler>(&f.informer->indexer());
    f.informer->addEventHandler(recording);
    f.informer->addEventHandler(snapshots);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_COMPARE(snapshots->snapshots().size(), 2);
    QCOMPARE(f.informer->counters().atomicReplace, atomicReplace);
    const quint64 queuedBefore = f.informer->counters().queue.queued;
    QTRY_VERIFY(f.lw->current());
    f.lw->current()->send({errorEvent(410, u"Expired"_s)});
    QTRY_COMPARE(recording->calls().size(), 5);
    QStringList after = recording->calls().mid(2);
    after.sort();
    // The same notifications either way: what vanished, what is new, what stayed.
    QCOMPARE(after, (QStringList{u"add c 30"_s, u"delete default/b tombstone"_s, u"update a 1->1"_s}));
    QCOMPARE(f.informer->counters().queue.queued - queuedBefore, queuedForRelist);
    if (atomicReplace) {
        // Every notification of the relist was made after the indexer held the new list.
        QTRY_COMPARE(snapshots->snapshots().size(), 5);
        const QStringList relist = snapshots->snapshots().mid(2);
        QCOMPARE(relist, (QStringList(3, u"default/a default/c"_s)));
    }
}

void TestSharedIndexInformer::lateHandlerGetsSyntheticAdds()
{
    Fixture f = make(DeltaQueue::Kind::RealFifo, [](const ListOptions &) { return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s); });
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    auto late = std::make_shared<RecordingHandler>();
    QSemaphore gate;
    late->gate = &gate;
    const auto registration = f.informer->addEventHandler(late);
    // Not synced until the handler has returned from every synthetic add.
    QVERIFY(!registration.hasSynced());
    gate.release(2);
    QTRY_VERIFY(registration.hasSynced());
    QStringList calls = late->calls();
    calls.sort();
    QCOMPARE(calls, (QStringList{u"add a 1 initial"_s, u"add b 2 initial"_s}));

    // And from then on, the same events as everyone.
    gate.release(1);
    f.lw->current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"c"_s, u"11"_s))});
    QTRY_COMPARE(late->calls().size(), 3);
    QCOMPARE(late->calls().constLast(), u"add c 11"_s);
}

void TestSharedIndexInformer::emptyListSyncs()
{
    Fixture f = make(DeltaQueue::Kind::DeltaFifo, [](const ListOptions &) { return page({}, u"10"_s); });
    auto handler = std::make_shared<RecordingHandler>();
    const auto registration = f.informer->addEventHandler(handler);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_VERIFY(registration.hasSynced());
    QVERIFY(handler->calls().isEmpty());
}

void TestSharedIndexInformer::slowHandlerDoesNotBlockOthers()
{
    Fixture f = make(DeltaQueue::Kind::RealFifo, [](const ListOptions &) {
        QList<KubeObject> items;
        for (int i = 0; i < 50; ++i) {
            items.append(pod(u"p%1"_s.arg(i), QString::number(i + 1)));
        }
        return page(items, u"100"_s);
    });
    auto slow = std::make_shared<RecordingHandler>();
    QSemaphore gate;
    slow->gate = &gate;
    auto fast = std::make_shared<RecordingHandler>();
    const auto slowRegistration = f.informer->addEventHandler(slow);
    const auto fastRegistration = f.informer->addEventHandler(fast);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_VERIFY(fastRegistration.hasSynced());
    QCOMPARE(fast->calls().size(), 50);
    QVERIFY(!slowRegistration.hasSynced());
    QCOMPARE(f.informer->indexer().size(), 50);
    const auto backlogs = f.informer->counters().handlerBacklogs;
    QCOMPARE(backlogs.size(), 2);
    QVERIFY(backlogs[0] >= 49); // the slow one holds everything but the call it is stuck in
    QCOMPARE(backlogs[1], 0);
    gate.release(50);
    QTRY_VERIFY(slowRegistration.hasSynced());
    QCOMPARE(slow->calls().size(), 50);
}

void TestSharedIndexInformer::resyncReachesOnlyDueHandlers()
{
    // 1 s is the shortest resync client-go allows.
    Fixture f = make(
        DeltaQueue::Kind::DeltaFifo, [](const ListOptions &) { return page({pod(u"a"_s, u"1"_s)}, u"10"_s); }, std::chrono::seconds(1));
    auto resyncing = std::make_shared<RecordingHandler>();
    auto quiet = std::make_shared<RecordingHandler>();
    f.informer->addEventHandler(resyncing, std::chrono::seconds(1));
    f.informer->addEventHandler(quiet, std::chrono::milliseconds(0));
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_VERIFY_WITH_TIMEOUT(resyncing->calls().contains(u"update a 1->1"_s), 10000);
    QCOMPARE(quiet->calls(), (QStringList{u"add a 1 initial"_s}));
}

void TestSharedIndexInformer::handlerResyncPeriod_data()
{
    QTest::addColumn<qint64>("informerPeriod");
    QTest::addColumn<qint64>("requested");
    QTest::addColumn<bool>("addedAfterRun");
    QTest::addColumn<qint64>("expected");
    QTest::addColumn<qint64>("expectedCheckPeriod");
    QTest::newRow("a handler's resync below 1 s is raised to 1 s") << qint64(10000) << qint64(100) << false << qint64(1000) << qint64(1000);
    QTest::newRow("a handler added before run lowers the informer's check period") << qint64(10000) << qint64(2000) << false << qint64(2000) << qint64(2000);
    QTest::newRow("a handler added after run is raised to the informer's period") << qint64(10000) << qint64(2000) << true << qint64(10000) << qint64(10000);
    QTest::newRow("a handler's resync is disabled when the informer's is 0") << qint64(0) << qint64(2000) << false << qint64(0) << qint64(0);
    QTest::newRow("a handler that asks for no resync gets none") << qint64(10000) << qint64(0) << false << qint64(0) << qint64(10000);
}

void TestSharedIndexInformer::handlerResyncPeriod()
{
    QFETCH(qint64, informerPeriod);
    QFETCH(qint64, requested);
    QFETCH(bool, addedAfterRun);
    QFETCH(qint64, expected);
    QFETCH(qint64, expectedCheckPeriod);
    Fixture f = make(
        DeltaQueue::Kind::RealFifo, [](const ListOptions &) { return page({}, u"10"_s); }, std::chrono::milliseconds(informerPeriod));
    auto handler = std::make_shared<RecordingHandler>();
    SharedIndexInformer::Registration registration;
    if (!addedAfterRun) {
        registration = f.informer->addEventHandler(handler, std::chrono::milliseconds(requested));
    }
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    if (addedAfterRun) {
        registration = f.informer->addEventHandler(handler, std::chrono::milliseconds(requested));
    }
    QCOMPARE(registration.resyncPeriod().count(), expected);
    QVERIFY(synced.wait());
    // The reflector checks at the informer's (possibly lowered) period.
    QCOMPARE(f.informer->resyncCheckPeriod().count(), expectedCheckPeriod);
}

void TestSharedIndexInformer::indexesFollowChanges()
{
    Fixture f = make(DeltaQueue::Kind::RealFifo, [](const ListOptions &) { return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s); });
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QCOMPARE(f.informer->indexer().indexKeys(u"nodeName"_s, u"node-1"_s).size(), 2);
    f.lw->current()->send({watchEvent(ObjectEvent::Type::Deleted, pod(u"a"_s, u"11"_s))});
    QTRY_COMPARE(f.informer->indexer().indexKeys(u"nodeName"_s, u"node-1"_s).size(), 1);
    QVERIFY(f.informer->addIndexers({{u"namespace"_s, namespaceIndexFunction()}}));
    QCOMPARE(f.informer->indexer().indexKeys(u"namespace"_s, u"default"_s), QStringList{u"default/b"_s});
}

void TestSharedIndexInformer::removedHandlerGetsNothingMore()
{
    Fixture f = make(DeltaQueue::Kind::RealFifo, [](const ListOptions &) { return page({pod(u"a"_s, u"1"_s)}, u"10"_s); });
    auto handler = std::make_shared<RecordingHandler>();
    auto other = std::make_shared<RecordingHandler>();
    const auto registration = f.informer->addEventHandler(handler);
    f.informer->addEventHandler(other);
    QSignalSpy synced(f.informer.get(), &SharedIndexInformer::synced);
    f.informer->run();
    QVERIFY(synced.wait());
    QTRY_COMPARE(handler->calls().size(), 1);
    f.informer->removeEventHandler(registration);
    f.lw->current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"b"_s, u"11"_s))});
    QTRY_COMPARE(other->calls().size(), 2);
    QCOMPARE(handler->calls().size(), 1);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestSharedIndexInformer)
// While a list is applied (here held in the middle of indexing it), what views ask for answers
// at once, with the content from before: counters() (the pipeline, the contexts' states, the
// status bar) and the indexer's size() and list(). They once waited for the whole list: the
// GUI of the demo at 100k pods froze 2.6 s in counters(), behind the informer's lock, and the
// store's write lock was held while every index was rebuilt.
void TestSharedIndexInformer::readersNeverWaitForAListBeingApplied()
{
    auto lw = std::make_unique<FakeListerWatcher>();
    lw->onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s), pod(u"c"_s, u"3"_s)}, u"10"_s);
    };
    QSemaphore indexing;
    QSemaphore gate;
    std::atomic<bool> held{false};
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.useWatchList = false;
    // An index function that stops on b, the first time, until the gate opens.
    options.indexers.insert(u"gated"_s, [&](const KubeObject &object) {
        if (object.name() == u"b"_s && !held.exchange(true)) {
            indexing.release();
            gate.acquire();
        }
        return QStringList{object.name()};
    });
    SharedIndexInformer informer(std::move(lw), QThread::currentThread(), options);
    // Whatever fails below, the gate opens before the informer stops.
    const auto openGate = qScopeGuard([&] { gate.release(); });
    informer.addEventHandler(std::make_shared<RecordingHandler>());
    informer.run();
    QVERIFY(QTest::qWaitFor([&] { return indexing.tryAcquire(); }, 30000));

    // The readers run on a thread of their own, so that a reader that waits fails the test
    // rather than hanging it: the gate opens when they are done, or after 30 s.
    std::atomic<bool> answered{false};
    SharedIndexInformer::Counters counters;
    qsizetype size = -1;
    qsizetype listed = -1;
    std::thread reader([&] {
        counters = informer.counters();
        size = informer.indexer().size();
        listed = informer.indexer().list().size();
        answered = true;
    });
    const bool inTime = QTest::qWaitFor([&] { return answered.load(); }, 30000);
    gate.release(); // (and once more by openGate: unused)
    reader.join();
    QVERIFY2(inTime, "a reader waited for the list being applied");
    QCOMPARE(size, 0);
    QCOMPARE(listed, 0);
    QCOMPARE(counters.storeSize, 0);
    QCOMPARE(counters.handlerBacklogs.size(), 1);

    // Then the list is there, whole, with its index.
    QTRY_VERIFY(informer.hasSynced());
    QCOMPARE(informer.indexer().size(), 3);
    QCOMPARE(informer.indexer().byIndex(u"gated"_s, u"b"_s).size(), 1);
    informer.stop();
}

#include "tst_sharedindexinformer.moc"
