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
    void listExpiredFallsBackToConsistentRead_data();
    void listExpiredFallsBackToConsistentRead();
    void expiredContinueTokenFallsBackToFullList();
    void listErrorRetriesAfterBackoff();
    void retryAfterIsHonoured();
    void retryNowEndsABackoff();
    void streamingListIsTheDefault();
    void streamingListReplacesThenWatchesOnSameStream();
    void streamingListKeepsATemporaryStore_data();
    void streamingListKeepsATemporaryStore();
    void streamingListErrorFallsBackToList();
    void streamingListRecovery_data();
    void streamingListRecovery();
    void listPaging_data();
    void listPaging();
    void undecodableListItemFailsTheList();
    void veryShortWatch_data();
    void veryShortWatch();
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
        // Most scenarios here are about the paged list; the streaming ones turn it back on.
        options.useWatchList = false;
        return options;
    }
    // tooLarge() is the apiserver's answer to a resourceVersion it has not reached yet
    // (apimachinery's NewTooLargeResourceVersionError).
    static ApiError tooLarge(bool withCause = true)
    {
        ApiError error(ApiError::Kind::Http, u"Too large resource version: 1000, current: 60"_s, 504, u"Timeout"_s);
        if (withCause) {
            error.setCauseTypes({u"ResourceVersionTooLarge"_s});
        }
        return error;
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
    // Reopening is a reconnect, whatever the reason the stream ended.
    QCOMPARE(reflector.status().reconnects, 1u);
    QCOMPARE(reflector.status().errors, 0u);
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
    // kind Decode as an event stands for an undecodable object (a Malformed event).
    QTest::newRow("an undecodable object in the watch relists instead of resuming at the same version")
        << int(ApiError::Kind::Decode) << 0 << QString() << true << true << false;
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
        if (error.kind() == ApiError::Kind::Decode) {
            e.type = ObjectEvent::Type::Malformed;
            e.decodeError = u"unexpected character"_s;
        }
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

void TestReflector::listExpiredFallsBackToConsistentRead_data()
{
    QTest::addColumn<int>("answer");
    QTest::newRow("a relist at an expired version lists again with resourceVersion \"\"") << 0;
    QTest::newRow("a relist at a version the server has not reached (etcd restore) lists again with \"\"") << 1;
    QTest::newRow("a 504 saying \"Too large resource version\" without a cause lists again with \"\"") << 2;
}

void TestReflector::listExpiredFallsBackToConsistentRead()
{
    QFETCH(int, answer);
    Fixture f;
    int calls = 0;
    f.lw.onList = [&calls, answer](const ListOptions &options) {
        ++calls;
        if (calls == 1) {
            return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
        }
        if (!options.resourceVersion.isEmpty()) {
            if (answer == 0) {
                return errorPage(410, u"Expired"_s);
            }
            ObjectListPage p;
            p.error = tooLarge(answer == 1);
            return p;
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
    QCOMPARE(f.lw.listCalls.size(), 3);
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

// retryNow() (no client-go counterpart: for a server known to be back) ends a backoff of a
// minute at once, counts the retry as any other, and the next failure backs off from the initial
// delay again; outside a backoff it does nothing.
void TestReflector::retryNowEndsABackoff()
{
    Fixture f;
    int calls = 0;
    bool failing = true;
    f.lw.onList = [&](const ListOptions &) {
        ++calls;
        return failing ? errorPage(503, u"ServiceUnavailable"_s) : page({}, u"7"_s);
    };
    Reflector::Options options = fastOptions();
    options.backoff.initial = std::chrono::minutes(1);
    options.backoff.cap = std::chrono::minutes(5);
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.retryNow(); // not running: nothing
    reflector.start();
    QTRY_COMPARE(reflector.status().state, Reflector::State::BackingOff);
    QCOMPARE(calls, 1);
    const qint64 firstRetryAt = reflector.status().retryAtMs;
    QVERIFY(firstRetryAt - QDateTime::currentMSecsSinceEpoch() > 30000);

    // Still failing: tried again now, then a backoff from the initial delay (not doubled).
    reflector.retryNow();
    QTRY_COMPARE(calls, 2);
    QTRY_COMPARE(reflector.status().state, Reflector::State::BackingOff);
    QCOMPARE(reflector.status().errors, 2u);
    const qint64 secondDelay = reflector.status().retryAtMs - QDateTime::currentMSecsSinceEpoch();
    QVERIFY2(secondDelay <= 60000 && secondDelay > 30000, qPrintable(QString::number(secondDelay))); // doubled, it would be 2 min

    // The server is back: the retry lists and the reflector watches.
    failing = false;
    reflector.retryNow();
    QVERIFY(synced.wait(10000));
    QCOMPARE(calls, 3);
    QTRY_COMPARE(reflector.status().state, Reflector::State::Watching);
    reflector.retryNow(); // watching: nothing
    QTest::qWait(50);
    QCOMPARE(calls, 3);
    QCOMPARE(reflector.status().state, Reflector::State::Watching);
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

void TestReflector::streamingListIsTheDefault()
{
    // client-go's WatchListClient is on by default since 1.35.
    QVERIFY(Reflector::Options().useWatchList);
    Fixture f;
    Reflector::Options options;
    options.name = u"pods"_s;
    Reflector reflector(&f.lw, &f.queue, options);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    QCOMPARE(f.lw.listCalls.size(), 0);
    QVERIFY(f.lw.watchCalls[0].sendInitialEvents);
    QVERIFY(f.lw.watchCalls[0].resourceVersion.isEmpty());
    reflector.stop();
}

void TestReflector::streamingListKeepsATemporaryStore_data()
{
    QTest::addColumn<QList<int>>("types");
    QTest::addColumn<QStringList>("objects"); // name@rv per event
    QTest::addColumn<QStringList>("replaced"); // what the replace() holds, name@rv
    const int added = int(ObjectEvent::Type::Added);
    const int modified = int(ObjectEvent::Type::Modified);
    const int deleted = int(ObjectEvent::Type::Deleted);
    QTest::newRow("a MODIFIED before the initial-events-end bookmark updates the streamed object")
        << QList<int>{added, added, modified} << QStringList{u"a@3"_s, u"b@4"_s, u"a@5"_s} << QStringList{u"a@5"_s, u"b@4"_s};
    QTest::newRow("a DELETED before the initial-events-end bookmark removes the streamed object")
        << QList<int>{added, added, deleted} << QStringList{u"a@3"_s, u"b@4"_s, u"b@5"_s} << QStringList{u"a@3"_s};
    QTest::newRow("an object deleted and added again before the bookmark is listed once")
        << QList<int>{added, deleted, added} << QStringList{u"a@3"_s, u"a@4"_s, u"a@5"_s} << QStringList{u"a@5"_s};
    QTest::newRow("a DELETED of an object not streamed, and a second DELETED, change nothing")
        << QList<int>{added, deleted, added, deleted, deleted} << QStringList{u"a@3"_s, u"x@4"_s, u"b@5"_s, u"a@6"_s, u"a@7"_s} << QStringList{u"b@5"_s};
    QTest::newRow("deleted, another added, the first added again: both listed")
        << QList<int>{added, deleted, added, added, modified} << QStringList{u"a@3"_s, u"a@4"_s, u"b@5"_s, u"a@6"_s, u"b@7"_s}
        << QStringList{u"a@6"_s, u"b@7"_s};
}

void TestReflector::streamingListKeepsATemporaryStore()
{
    QFETCH(QList<int>, types);
    QFETCH(QStringList, objects);
    QFETCH(QStringList, replaced);
    Fixture f;
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QTRY_VERIFY(f.lw.current());
    QList<ObjectEvent> events;
    for (qsizetype i = 0; i < types.size(); ++i) {
        events.append(watchEvent(ObjectEvent::Type(types.at(i)), pod(objects.at(i).section(u'@', 0, 0), objects.at(i).section(u'@', 1))));
    }
    f.lw.current()->send(events);
    f.lw.current()->send({watchEvent(ObjectEvent::Type::Bookmark, bookmark(u"20"_s, true))});
    QCOMPARE(synced.size(), 1);
    QCOMPARE(reflector.status().itemsListed, qint64(replaced.size()));
    QStringList got;
    for (const Delta &delta : drain(f)) {
        QCOMPARE(delta.type, DeltaType::Replaced);
        got.append(delta.kubeObject().name() + u'@' + delta.kubeObject().resourceVersion());
    }
    got.sort();
    QCOMPARE(got, replaced);
}

void TestReflector::streamingListRecovery_data()
{
    QTest::addColumn<QString>("how"); // "event", "end", "close" (clean, after an event), "silence"
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<bool>("tooLargeCause");
    QTest::addColumn<bool>("expectBackoff");
    QTest::addColumn<QString>("expectedVersion"); // of the next streaming list; "-" = a paged list follows
    const int http = int(ApiError::Kind::Http);
    QTest::newRow("a streaming list answered 429 backs off and streams again") << u"end"_s << http << 429 << u"TooManyRequests"_s << false << true << u"20"_s;
    QTest::newRow("a streaming list that cannot connect backs off and streams again")
        << u"end"_s << int(ApiError::Kind::Network) << 0 << QString() << false << true << u"20"_s;
    QTest::newRow("an expired streaming list streams again at once from the newest state")
        << u"event"_s << http << 410 << u"Expired"_s << false << false << QString();
    QTest::newRow("a streaming list at a version the server has not reached streams again from the newest state")
        << u"end"_s << http << 504 << u"Timeout"_s << true << false << QString();
    QTest::newRow("a streaming list the server closes before the bookmark streams again at once")
        << u"close"_s << int(ApiError::Kind::None) << 0 << QString() << false << false << u"20"_s;
    QTest::newRow("a server that refuses streaming lists gets a paged list this round") << u"end"_s << http << 422 << u"Invalid"_s << false << false << u"-"_s;
    QTest::newRow("silence alone does not fall back to a paged list")
        << u"silence"_s << int(ApiError::Kind::None) << 0 << QString() << false << false << u"none"_s;
}

void TestReflector::streamingListRecovery()
{
    QFETCH(QString, how);
    QFETCH(int, kind);
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(bool, tooLargeCause);
    QFETCH(bool, expectBackoff);
    QFETCH(QString, expectedVersion);
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"30"_s)}, u"40"_s);
    };
    Reflector::Options options = fastOptions();
    options.useWatchList = true;
    // Long enough that the backoff is seen, short enough for the test.
    options.backoff.initial = std::chrono::milliseconds(300);
    options.backoff.cap = std::chrono::milliseconds(300);
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    // First sync by a streaming list, then a watch error makes the next round stream at "20".
    QTRY_VERIFY(f.lw.current());
    f.lw.current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"a"_s, u"3"_s)), watchEvent(ObjectEvent::Type::Bookmark, bookmark(u"20"_s, true))});
    QCOMPARE(synced.size(), 1);
    f.lw.current()->send({errorEvent(500, u"InternalError"_s)});
    QTRY_COMPARE_WITH_TIMEOUT(f.lw.watchCalls.size(), 2, 5000);
    QTRY_VERIFY(f.lw.current());
    QVERIFY(f.lw.watchCalls[1].sendInitialEvents);
    QCOMPARE(f.lw.watchCalls[1].resourceVersion, u"20"_s);
    const quint64 errorsBefore = reflector.status().errors;

    ApiError error(ApiError::Kind(kind), u"test"_s, code, reason);
    if (tooLargeCause) {
        error = tooLarge();
    }
    if (how == u"event"_s) {
        ObjectEvent e;
        e.type = ObjectEvent::Type::Error;
        e.error = error;
        f.lw.current()->send({e});
    } else if (how == u"end"_s) {
        f.lw.current()->end(error);
    } else if (how == u"close"_s) {
        f.lw.current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"a"_s, u"21"_s))});
        f.lw.current()->end();
    }
    if (how == u"silence"_s) {
        // The streaming list keeps waiting for its bookmark: no paged list, no new stream. (Longer
        // than the 10 s of silence after which the reflector used to give up and list.)
        QVERIFY(!QTest::qWaitFor([&] { return !f.lw.listCalls.isEmpty() || f.lw.watchCalls.size() > 2; }, 11000));
        QVERIFY(f.lw.current());
        QCOMPARE(reflector.status().state, Reflector::State::Listing);
        return;
    }
    QCOMPARE(reflector.status().state == Reflector::State::BackingOff, expectBackoff);
    if (error.isError()) {
        QCOMPARE(reflector.status().errors, errorsBefore + 1);
    }
    if (expectedVersion == u"-"_s) {
        QTRY_COMPARE(synced.size(), 1);
        QTRY_COMPARE(f.lw.listCalls.size(), 1);
        // A list at a specific version, whole (see listPaging), then a plain watch.
        QCOMPARE(f.lw.listCalls[0].resourceVersion, u"20"_s);
        QTRY_COMPARE(f.lw.watchCalls.size(), 3);
        QVERIFY(!f.lw.watchCalls[2].sendInitialEvents);
        QCOMPARE(f.lw.watchCalls[2].resourceVersion, u"40"_s);
        return;
    }
    QTRY_COMPARE_WITH_TIMEOUT(f.lw.watchCalls.size(), 3, 5000);
    QVERIFY(f.lw.watchCalls[2].sendInitialEvents);
    QCOMPARE(f.lw.watchCalls[2].resourceVersion, expectedVersion);
    QCOMPARE(f.lw.listCalls.size(), 0);
    QCOMPARE(reflector.status().reconnects, 1u);
}

void TestReflector::listPaging_data()
{
    QTest::addColumn<bool>("firstListPaged");
    QTest::addColumn<QString>("relistAfter"); // "watch error": relist at the last version; "expired": relist at ""
    QTest::addColumn<qint64>("expectedLimit");
    QTest::newRow("a relist at a specific resourceVersion is not paged") << false << u"watch error"_s << qint64(0);
    QTest::newRow("a relist with resourceVersion \"\" is paged") << false << u"expired"_s << qint64(2);
    QTest::newRow("a relist is paged once the \"0\" list came back paged (no watch cache)") << true << u"watch error"_s << qint64(2);
}

void TestReflector::listPaging()
{
    QFETCH(bool, firstListPaged);
    QFETCH(QString, relistAfter);
    QFETCH(qint64, expectedLimit);
    Fixture f;
    const bool expired = relistAfter == u"expired"_s;
    f.lw.onList = [firstListPaged, expired](const ListOptions &options) {
        if (options.resourceVersion == u"0"_s && firstListPaged) {
            return page({pod(u"a"_s, u"5"_s)}, u"10"_s, u"more"_s);
        }
        if (expired && options.resourceVersion == u"10"_s) {
            return errorPage(410, u"Expired"_s);
        }
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    // The first list (resourceVersion "0") is paged.
    QCOMPARE(f.lw.listCalls[0].resourceVersion, u"0"_s);
    QCOMPARE(f.lw.listCalls[0].limit, 2);
    const qsizetype before = f.lw.listCalls.size();
    QTRY_VERIFY(f.lw.current());
    f.lw.current()->send({errorEvent(500, u"InternalError"_s)});
    QTRY_COMPARE(reflector.status().relists, 1u);
    const ListOptions relist = f.lw.listCalls.constLast();
    QCOMPARE(relist.resourceVersion, expired ? QString() : u"10"_s);
    QCOMPARE(relist.limit, expectedLimit);
    QCOMPARE(f.lw.listCalls.size(), before + (expired ? 2 : 1));
}

void TestReflector::undecodableListItemFailsTheList()
{
    Fixture f;
    int calls = 0;
    f.lw.onList = [&calls](const ListOptions &) {
        ++calls;
        if (calls == 1) {
            return page({pod(u"a"_s, u"1"_s), pod(u"b"_s, u"2"_s)}, u"10"_s);
        }
        ObjectListPage p = page({pod(u"a"_s, u"1"_s)}, u"12"_s);
        if (calls == 2) {
            p.malformedItems = 1; // b, which the server still has, did not decode
        } else {
            p.items.append(pod(u"b"_s, u"2"_s));
        }
        return p;
    };
    Reflector reflector(&f.lw, &f.queue, fastOptions());
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    drain(f);
    f.lw.current()->send({errorEvent(500, u"InternalError"_s)});
    QTRY_COMPARE(reflector.status().relists, 1u);
    QCOMPARE(calls, 3);
    QCOMPARE(reflector.status().lastSyncResourceVersion, u"12"_s);
    // The list with the undecodable item was an error, not a replace that dropped b.
    QCOMPARE(reflector.status().lastError.kind(), ApiError::Kind::Decode);
    for (const Delta &delta : drain(f)) {
        QVERIFY2(delta.type != DeltaType::Deleted, qPrintable(delta.kubeObject().name()));
    }
    QCOMPARE(f.indexer.size(), 2);
}

void TestReflector::veryShortWatch_data()
{
    QTest::addColumn<bool>("deliverFirst");
    QTest::addColumn<bool>("expectRelist");
    QTest::newRow("a watch closed in under 1 s having delivered nothing backs off and relists") << false << true;
    QTest::newRow("a watch closed having delivered an event reopens at once") << true << false;
}

void TestReflector::veryShortWatch()
{
    QFETCH(bool, deliverFirst);
    QFETCH(bool, expectRelist);
    Fixture f;
    f.lw.onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"5"_s)}, u"10"_s);
    };
    Reflector::Options options = fastOptions();
    options.backoff.initial = std::chrono::milliseconds(300);
    options.backoff.cap = std::chrono::milliseconds(300);
    options.veryShortWatch = std::chrono::seconds(60); // "short" even on a loaded machine
    Reflector reflector(&f.lw, &f.queue, options);
    QSignalSpy synced(&reflector, &Reflector::synced);
    reflector.start();
    QVERIFY(synced.wait());
    QTRY_VERIFY(f.lw.current());
    if (deliverFirst) {
        f.lw.current()->send({watchEvent(ObjectEvent::Type::Modified, pod(u"a"_s, u"11"_s))});
    }
    f.lw.current()->end();
    if (expectRelist) {
        QCOMPARE(reflector.status().state, Reflector::State::BackingOff);
        QCOMPARE(reflector.status().errors, 1u);
        QCOMPARE(f.lw.watchCalls.size(), 1);
        QTRY_COMPARE(f.lw.listCalls.size(), 2);
        QTRY_COMPARE(f.lw.watchCalls.size(), 2);
    } else {
        QCOMPARE(f.lw.watchCalls.size(), 2);
        QCOMPARE(reflector.status().errors, 0u);
        QCOMPARE(f.lw.listCalls.size(), 1);
    }
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
