#include "core/cache/reflector.h"

#include "core/cache/indexer.h"
#include "core/cache/realfifo.h"
#include "fakelisterwatcher.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;

// Scenarios of client-go's reflector_test.go (list/watch resume, relist on 410, paging,
// continue-token expiry, streaming lists), against a scripted ListerWatcher.
class TestReflector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstListAsksForAnyVersionThenWatchesFromIt();
    void pagesAreJoinedIntoOneReplace();
    void watchEventsReachQueueAndAdvanceVersion_data();
    void watchEventsReachQueueAndAdvanceVersion();
    void watchEndRecovery_data();
    void watchEndRecovery();
    void listExpiredFallsBackToConsistentRead();
    void expiredContinueTokenFallsBackToFullList();
    void listErrorRetriesAfterBackoff();
    void retryAfterIsHonoured();
    void streamingListReplacesThenWatchesOnSameStream();
    void streamingListErrorFallsBackToList();
    void streamingListErrorLeavesNoTimerToKillTheNextWatch();
    void streamingListMalformedFrameRetriesOnlyAfterBackoff();
    void resyncQueuesSyncDeltas();
    void stopEndsWatchAndIgnoresLateAnswers();

private:
    struct Fixture
    {
        Indexer indexer;
        RealFifo queue{RealFifo::Options{metaNamespaceKey, &indexer}};
        FakeListerWatcher lw;
    };
    static Reflector::Options fastOptions()
    {
        Reflector::Options options;
        options.name = u"pods"_s;
        options.pageSize = 2;
        options.backoff.initial = std::chrono::milliseconds(1);
        options.backoff.cap = std::chrono::milliseconds(5);
        options.backoff.jitter = 0;
        options.seed = 42;
        return options;
    }
    // Pops everything queued, as the informer would, applying it to the indexer.
    static QList<Delta> drain(Fixture &f)
    {
        QList<Delta> all;
        while (f.queue.counters().depth > 0) {
            (void)f.queue.pop(
                [&](const Deltas &deltas, bool) {
                    for (const Delta &d : deltas) {
                        all.append(d);
                        if (d.type == DeltaType::Deleted) {
                            f.indexer.remove(d.object);
                        } else if (f.indexer.get(d.kubeObject()).isValid()) {
                            f.indexer.update(d.kubeObject());
                        } else {
                            f.indexer.add(d.kubeObject());
                        }
                    }
                },
                QDeadlineTimer(0));
        }
        return all;
    }
};

void TestReflector::firstListAsksForAnyVersionThenWatchesFromIt()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.minWatchTimeout = std::chrono::seconds(300);
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    QCOMPARE(f.lw.listCalls.size(), 1);
    QCOMPARE(f.lw.listCalls[0].resourceVersion, u"0"_s);
    QCOMPARE(f.lw.listCalls[0].limit, 2);
    QCOMPARE(f.lw.watchCalls.size(), 1);
    QCOMPARE(f.lw.watchCalls[0].resourceVersion, u"10"_s);
    QVERIFY(f.lw.watchCalls[0].allowWatchBookmarks);
    QVERIFY(f.lw.watchCalls[0].timeoutSeconds >= 300 && f.lw.watchCalls[0].timeoutSeconds <= 600);
    QCOMPARE(reflector.status().state, Reflector::State::Watching);
    QCOMPARE(reflector.status().lastSyncResourceVersion, u"10"_s);
    const QList<Delta> deltas = drain(f);
    QCOMPARE(deltas.size(), 1);
    QCOMPARE(deltas[0].type, DeltaType::Replaced);
}

void TestReflector::pagesAreJoinedIntoOneReplace()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &options) {
        if (options.continueToken.isEmpty()) {
            ObjectListPage p = page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s, u"page2"_s);
            p.remainingItemCount = 1;
            return p;
        }
        return page({pod(u"c"_s, u"3"_s)}, u"10"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy progress(&reflector, &Reflector::listProgress);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    QCOMPARE(f.lw.listCalls.size(), 2);
    QCOMPARE(f.lw.listCalls[1].continueToken, u"page2"_s);
    QVERIFY2(f.lw.listCalls[1].resourceVersion.isEmpty(), "a continue request carries no resourceVersion");
    QCOMPARE(progress.size(), 2);
    QCOMPARE(progress[0][0].toLongLong(), 2);
    QCOMPARE(progress[0][1].toLongLong(), 1);
    QCOMPARE(drain(f).size(), 3);
    QCOMPARE(f.indexer.size(), 3);
}

void TestReflector::watchEventsReachQueueAndAdvanceVersion_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("expectedDeltaType");
    QTest::addColumn<int>("expectedDeltas");
    QTest::newRow("added event queues an Added delta") << int(ObjectEvent::Type::Added) << int(DeltaType::Added) << 1;
    QTest::newRow("modified event queues an Updated delta") << int(ObjectEvent::Type::Modified) << int(DeltaType::Updated) << 1;
    QTest::newRow("deleted event queues a Deleted delta") << int(ObjectEvent::Type::Deleted) << int(DeltaType::Deleted) << 1;
    QTest::newRow("bookmark advances the version but queues nothing") << int(ObjectEvent::Type::Bookmark) << -1 << 0;
}

void TestReflector::watchEventsReachQueueAndAdvanceVersion()
{
    QFETCH(int, type);
    QFETCH(int, expectedDeltaType);
    QFETCH(int, expectedDeltas);
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    drain(f);

    const auto eventType = ObjectEvent::Type(type);
    const KubeObject object = eventType == ObjectEvent::Type::Bookmark ? bookmark(u"11"_s) : pod(u"a"_s, u"11"_s);
    QVERIFY(f.lw.current());
    f.lw.current()->send({watchEvent(eventType, object)});
    const QList<Delta> deltas = drain(f);
    QCOMPARE(deltas.size(), expectedDeltas);
    if (expectedDeltas) {
        QCOMPARE(int(deltas[0].type), expectedDeltaType);
    }
    QCOMPARE(reflector.status().lastSyncResourceVersion, u"11"_s);
    QCOMPARE(reflector.status().bookmarks, eventType == ObjectEvent::Type::Bookmark ? 1u : 0u);

    // The server closes the stream: the next watch resumes at once from the version reached.
    f.lw.current()->end();
    QTRY_COMPARE(f.lw.watchCalls.size(), 2);
    QCOMPARE(f.lw.watchCalls[1].resourceVersion, u"11"_s);
    QCOMPARE(f.lw.listCalls.size(), 1);
}

void TestReflector::watchEndRecovery_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("asEvent");
    QTest::addColumn<bool>("expectRelist");
    QTest::addColumn<bool>("expectReconnect");

    const int http = int(ApiError::Kind::Http);
    QTest::newRow("410 Expired event relists") << http << 410 << u"Expired"_s << true << true << false;
    QTest::newRow("410 Gone answer to the watch request relists") << http << 410 << u"Gone"_s << false << true << false;
    QTest::newRow("broken connection rewatches from last version") << int(ApiError::Kind::Network) << 0 << QString() << false << false << true;
    QTest::newRow("idle watchdog timeout rewatches from last version") << int(ApiError::Kind::Timeout) << 0 << QString() << false << false << true;
    QTest::newRow("429 rewatches without relisting") << http << 429 << u"TooManyRequests"_s << false << false << true;
    QTest::newRow("500 error event relists") << http << 500 << u"InternalError"_s << true << true << false;
    QTest::newRow("403 answer to the watch relists") << http << 403 << u"Forbidden"_s << false << true << false;
}

void TestReflector::watchEndRecovery()
{
    QFETCH(int, kind);
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(bool, asEvent);
    QFETCH(bool, expectRelist);
    QFETCH(bool, expectReconnect);

    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    QSignalSpy errors(&reflector, &Reflector::errorOccurred);
    reflector.start();
    QVERIFY(synced.wait());
    f.lw.current()->send({watchEvent(ObjectEvent::Type::Modified, pod(u"a"_s, u"12"_s))});

    const ApiError error(ApiError::Kind(kind), u"test"_s, code, reason);
    if (asEvent) {
        ObjectEvent e;
        e.type = ObjectEvent::Type::Error;
        e.error = error;
        f.lw.current()->send({e});
    } else {
        f.lw.current()->end(error);
    }
    QTRY_COMPARE(errors.size(), 1);
    if (expectRelist) {
        QTRY_COMPARE(f.lw.listCalls.size(), 2);
        // A relist after a watch error is not older than what we had (client-go keeps the last
        // synced version; only a 410 on the list itself falls back to "").
        QCOMPARE(f.lw.listCalls[1].resourceVersion, u"12"_s);
        QTRY_COMPARE(reflector.status().relists, 1u);
        QCOMPARE(reflector.status().reconnects, 0u);
    }
    if (expectReconnect) {
        QTRY_COMPARE(f.lw.watchCalls.size(), 2);
        QCOMPARE(f.lw.watchCalls[1].resourceVersion, u"12"_s);
        QCOMPARE(reflector.status().reconnects, 1u);
        QCOMPARE(f.lw.listCalls.size(), 1);
    }
}

void TestReflector::listExpiredFallsBackToConsistentRead()
{
    Fixture f;
    int calls = 0;
    f.lw.onList = [&calls](const ListOptions &options) {
        ++calls;
        if (calls == 1) {
            return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
        }
        if (!options.resourceVersion.isEmpty()) {
            return errorPage(410, u"Expired"_s);
        }
        return page({pod(u"a"_s, u"50"_s)}, u"60"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    f.lw.current()->send({errorEvent(410, u"Expired"_s)});
    QTRY_COMPARE(f.lw.listCalls.size(), 3);
    QCOMPARE(f.lw.listCalls[1].resourceVersion, u"10"_s);
    QCOMPARE(f.lw.listCalls[2].resourceVersion, QString());
    QTRY_COMPARE(reflector.status().lastSyncResourceVersion, u"60"_s);
    QTRY_COMPARE(f.lw.watchCalls.size(), 2);
    QCOMPARE(f.lw.watchCalls[1].resourceVersion, u"60"_s);
}

void TestReflector::expiredContinueTokenFallsBackToFullList()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &options) {
        if (!options.continueToken.isEmpty()) {
            return errorPage(410, u"Expired"_s);
        }
        if (options.limit > 0) {
            return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s, u"page2"_s);
        }
        return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s), pod(u"c"_s, u"3"_s)}, u"11"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    QCOMPARE(f.lw.listCalls.size(), 3);
    QCOMPARE(f.lw.listCalls[2].limit, 0);
    QVERIFY(f.lw.listCalls[2].continueToken.isEmpty());
    QCOMPARE(drain(f).size(), 3);
    QCOMPARE(reflector.status().lastSyncResourceVersion, u"11"_s);
}

void TestReflector::listErrorRetriesAfterBackoff()
{
    Fixture f;
    int calls = 0;
    f.lw.onList = [&calls](const ListOptions &) {
        return ++calls < 3 ? errorPage(503, u"ServiceUnavailable"_s) : page({}, u"7"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    QSignalSpy states(&reflector, &Reflector::stateChanged);
    reflector.start();
    QVERIFY(synced.wait());
    QCOMPARE(calls, 3);
    QCOMPARE(reflector.status().errors, 2u);
    bool backedOff = false;
    for (const auto &args : std::as_const(states)) {
        backedOff = backedOff || args[0].value<Reflector::State>() == Reflector::State::BackingOff;
    }
    QVERIFY(backedOff);
}

void TestReflector::retryAfterIsHonoured()
{
    Fixture f;
    int calls = 0;
    f.lw.onList = [&calls](const ListOptions &) {
        if (++calls == 1) {
            ObjectListPage p = errorPage(429, u"TooManyRequests"_s);
            p.error.setRetryAfter(std::chrono::seconds(1));
            return p;
        }
        return page({}, u"7"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    QElapsedTimer elapsed;
    elapsed.start();
    reflector.start();
    QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 1000);
    // The backoff alone is 1 ms; the server asked for a second, so no retry comes before that.
    QVERIFY(!synced.wait(500));
    QCOMPARE(calls, 1);
    QVERIFY(synced.wait(3000));
    QVERIFY(elapsed.elapsed() >= 1000);
}

void TestReflector::streamingListReplacesThenWatchesOnSameStream()
{
    Fixture f;
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    QVERIFY(f.lw.watchCalls[0].sendInitialEvents);
    f.lw.current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"a"_s, u"3"_s)), watchEvent(ObjectEvent::Type::Added, pod(u"b"_s, u"4"_s))});
    QCOMPARE(synced.size(), 0);
    QCOMPARE(drain(f).size(), 0);
    f.lw.current()->send({watchEvent(ObjectEvent::Type::Bookmark, bookmark(u"20"_s, true))});
    QCOMPARE(synced.size(), 1);
    const QList<Delta> initial = drain(f);
    QCOMPARE(initial.size(), 2);
    QCOMPARE(initial[0].type, DeltaType::Replaced);
    QCOMPARE(reflector.status().lastSyncResourceVersion, u"20"_s);
    QCOMPARE(f.lw.listCalls.size(), 0);

    f.lw.current()->send({watchEvent(ObjectEvent::Type::Modified, pod(u"a"_s, u"21"_s))});
    const QList<Delta> later = drain(f);
    QCOMPARE(later.size(), 1);
    QCOMPARE(later[0].type, DeltaType::Updated);
    QCOMPARE(f.lw.watchCalls.size(), 1);
}

void TestReflector::streamingListErrorFallsBackToList()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    f.lw.current()->end(ApiError(ApiError::Kind::Http, u"unknown parameter"_s, 400, u"BadRequest"_s));
    QVERIFY(synced.wait());
    QCOMPARE(f.lw.listCalls.size(), 1);
    QCOMPARE(drain(f).size(), 1);
}

// An ERROR event inside a streaming list falls back to a paged list and a plain watch; the
// initial-events timer of the abandoned streaming list must not fire later and tear that healthy
// watch down for a needless relist.
void TestReflector::streamingListErrorLeavesNoTimerToKillTheNextWatch()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    options.initialEventsTimeout = std::chrono::milliseconds(200);
    Reflector reflector(&f.lw, &f.queue, options);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    f.lw.current()->send({errorEvent(500, u"InternalError"_s)});
    QTRY_COMPARE(f.lw.watchCalls.size(), 2);
    QVERIFY(!f.lw.watchCalls[1].sendInitialEvents);
    QCOMPARE(f.lw.listCalls.size(), 1);
    // Several initial-events timeouts later, still the same watch and no second list.
    QVERIFY(!QTest::qWaitFor([&] { return f.lw.listCalls.size() > 1 || !f.lw.current(); }, 1000));
    QCOMPARE(f.lw.watchCalls.size(), 2);
    QCOMPARE(reflector.status().state, Reflector::State::Watching);
}

// A malformed frame inside a streaming list retries the streaming list after the backoff; the
// initial-events timer must not start a paged list meanwhile (backoffs may be longer than it).
void TestReflector::streamingListMalformedFrameRetriesOnlyAfterBackoff()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    options.initialEventsTimeout = std::chrono::milliseconds(100);
    options.backoff.initial = std::chrono::milliseconds(800);
    options.backoff.cap = std::chrono::milliseconds(800);
    Reflector reflector(&f.lw, &f.queue, options);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    ObjectEvent malformed;
    malformed.type = ObjectEvent::Type::Malformed;
    malformed.decodeError = u"unexpected end of input"_s;
    f.lw.current()->send({malformed});
    QCOMPARE(reflector.status().state, Reflector::State::BackingOff);
    QTRY_COMPARE_WITH_TIMEOUT(f.lw.watchCalls.size(), 2, 5000);
    QVERIFY(f.lw.watchCalls[1].sendInitialEvents);
    QCOMPARE(f.lw.listCalls.size(), 0);
}

void TestReflector::resyncQueuesSyncDeltas()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.resyncPeriod = std::chrono::milliseconds(20);
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    drain(f);
    QTRY_VERIFY(f.queue.counters().depth > 0);
    const QList<Delta> deltas = drain(f);
    QVERIFY(!deltas.isEmpty());
    QCOMPARE(deltas[0].type, DeltaType::Sync);
}

void TestReflector::stopEndsWatchAndIgnoresLateAnswers()
{
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    QPointer<FakeWatchSession> session = f.lw.current();
    QVERIFY(session);
    reflector.stop();
    QCOMPARE(reflector.status().state, Reflector::State::Stopped);
    QVERIFY(!session); // the reflector deleted its session
    // A list answer in flight when stopped is dropped.
    reflector.start();
    reflector.stop();
    QTest::qWait(20);
    QCOMPARE(f.lw.watchCalls.size(), 1);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestReflector)
#include "tst_reflector.moc"
