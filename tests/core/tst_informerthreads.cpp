#include "core/cache/sharedindexinformer.h"

#include "fakelisterwatcher.h"

#include "testmain.h"

#include <QTest>
#include <QThread>

#include <atomic>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;

namespace {

// ThreadedListerWatcher answers from the thread it is called on, as ApiListerWatcher does on a
// cluster's worker thread: the first failedLists lists fail with 403, the first failedWatches
// watches end at once with a broken connection. Counters are atomic: the test reads them from
// its own thread.
class ThreadedListerWatcher final : public ListerWatcher
{
public:
    int failedLists = 0;
    int failedWatches = 0;
    std::atomic<int> lists{0};
    std::atomic<int> watches{0};

    void list(const ListOptions &, QObject *context, ListCallback done) override
    {
        const int call = lists.fetch_add(1);
        const ObjectListPage answer = call < failedLists ? errorPage(403, u"Forbidden"_s) : page({pod(u"a"_s, u"1"_s)}, u"10"_s);
        QTimer::singleShot(0, context, [done, answer] { done(answer); });
    }

    std::unique_ptr<WatchSession> watch(const WatchOptions &) override
    {
        const int call = watches.fetch_add(1);
        auto session = std::make_unique<FakeWatchSession>();
        if (call < failedWatches) {
            QTimer::singleShot(0, session.get(), [s = session.get()] { s->end(ApiError(ApiError::Kind::Network, u"connection reset"_s)); });
        }
        return session;
    }
};

class CountingHandler final : public ResourceEventHandler
{
public:
    std::atomic<int> adds{0};
    std::atomic<int> updates{0};
    void onAdd(const KubeObject &, bool) override { ++adds; }
    void onUpdate(const KubeObject &, const KubeObject &) override { ++updates; }
    void onDelete(const DeltaObject &) override { }
};

} // namespace

// Informers as the app and the CLI run them: the informer on this thread, its reflector moved to
// a network thread of its own (a Cluster's worker thread). Every timer of the reflector must work
// there; the warning guard of testmain.h also fails this test on "Timers cannot be started from
// another thread".
class TestInformerThreads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_network = std::make_unique<QThread>();
        m_network->setObjectName(u"network"_s);
        m_network->start();
    }
    void cleanup()
    {
        m_network->quit();
        QVERIFY(m_network->wait(10000));
        m_network.reset();
    }

    void reflectorTimersFireOnTheNetworkThread_data()
    {
        QTest::addColumn<int>("failedLists");
        QTest::addColumn<int>("failedWatches");
        QTest::addColumn<int>("resyncMs");
        QTest::newRow("a forbidden list is retried after its backoff") << 2 << 0 << 0;
        QTest::newRow("a broken watch is reopened after its backoff") << 0 << 2 << 0;
        QTest::newRow("resync runs on its period") << 0 << 0 << 20;
        QTest::newRow("nothing fails, no resync") << 0 << 0 << 0;
    }
    void reflectorTimersFireOnTheNetworkThread()
    {
        QFETCH(int, failedLists);
        QFETCH(int, failedWatches);
        QFETCH(int, resyncMs);
        auto owned = std::make_unique<ThreadedListerWatcher>();
        ThreadedListerWatcher *lw = owned.get();
        lw->failedLists = failedLists;
        lw->failedWatches = failedWatches;
        SharedIndexInformer::Options options;
        options.name = u"pods"_s;
        options.resyncPeriod = std::chrono::milliseconds(resyncMs);
        options.reflector.useWatchList = false; // the fake serves paged lists
        options.reflector.backoff.initial = std::chrono::milliseconds(5);
        options.reflector.backoff.jitter = 0;
        SharedIndexInformer informer(std::move(owned), m_network.get(), options);
        auto handler = std::make_shared<CountingHandler>();
        informer.addEventHandler(handler, std::chrono::milliseconds(resyncMs));
        informer.run();

        QTRY_VERIFY2_WITH_TIMEOUT(informer.hasSynced(), qPrintable(describe(informer, *lw)), 10000);
        QCOMPARE(lw->lists.load(), failedLists + 1);
        QTRY_COMPARE_WITH_TIMEOUT(lw->watches.load(), failedWatches + 1, 10000);
        const Reflector::Status status = informer.counters().reflector;
        QCOMPARE(status.errors, quint64(failedLists + failedWatches));
        QCOMPARE(status.reconnects, quint64(failedWatches));
        QCOMPARE(status.state, Reflector::State::Watching);
        if (resyncMs > 0) {
            QTRY_VERIFY_WITH_TIMEOUT(handler->updates.load() >= 2, 10000);
        }
        informer.stop();
    }

    // The CLI prints its summary after stopping the informer: the counters must survive stop().
    void countersSurviveStop()
    {
        auto owned = std::make_unique<ThreadedListerWatcher>();
        ThreadedListerWatcher *lw = owned.get();
        owned->failedLists = 1;
        SharedIndexInformer::Options options;
        options.name = u"pods"_s;
        options.reflector.useWatchList = false; // the fake serves paged lists
        options.reflector.backoff.initial = std::chrono::milliseconds(5);
        options.reflector.backoff.jitter = 0;
        SharedIndexInformer informer(std::move(owned), m_network.get(), options);
        informer.run();
        QTRY_VERIFY2_WITH_TIMEOUT(informer.hasSynced(), qPrintable(describe(informer, *lw)), 10000);
        QTRY_COMPARE(informer.counters().reflector.watchesOpened, quint64(1));
        informer.stop();
        const Reflector::Status status = informer.counters().reflector;
        QCOMPARE(status.lists, quint64(1));
        QCOMPARE(status.errors, quint64(1));
        QCOMPARE(status.watchesOpened, quint64(1));
        QCOMPARE(status.state, Reflector::State::Stopped);
    }

private:
    static QString describe(const SharedIndexInformer &informer, const ThreadedListerWatcher &lw)
    {
        const SharedIndexInformer::Counters counters = informer.counters();
        return u"lists called %1, watches called %2; reflector: state %3, lists %4, errors %5, reconnects %6, last error: %7; queue synced %8, store %9"_s
            .arg(lw.lists.load())
            .arg(lw.watches.load())
            .arg(int(counters.reflector.state))
            .arg(counters.reflector.lists)
            .arg(counters.reflector.errors)
            .arg(counters.reflector.reconnects)
            .arg(counters.reflector.lastError.toString())
            .arg(counters.synced)
            .arg(counters.storeSize);
    }

    std::unique_ptr<QThread> m_network;
};

CACHESCOPE_TEST_GUILESS_MAIN(TestInformerThreads)
#include "tst_informerthreads.moc"
