// NotificationBatcher: what a receiver gets per flush, in both modes, and that it is fed
// correctly from a handler called on another thread.
#include "cachetesthelpers.h"

#include "core/cache/notificationbatcher.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

#include <thread>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CacheTest::object;

namespace {

// A script step: "+key@rv" add, "~key@rv" update, "-key@rv" delete.
void play(ResourceEventHandler &handler, const QStringList &script, QHash<QString, KubeObject> &known)
{
    for (const QString &step : script) {
        const QChar op = step.front();
        const QString key = step.mid(1).section(u'@', 0, 0);
        const QString rv = step.section(u'@', 1);
        const KubeObject current = object(key, rv);
        if (op == u'+') {
            handler.onAdd(current, false);
            known.insert(key, current);
        } else if (op == u'~') {
            handler.onUpdate(known.value(key), current);
            known.insert(key, current);
        } else {
            handler.onDelete(known.take(key));
        }
    }
}

// describe() renders one delivered notification: "+key@rv", "~key@oldRv>newRv", "-key@rv".
QString describe(const Notification &n)
{
    switch (n.type) {
    case Notification::Type::Add:
        return u"+"_s + n.key + u'@' + n.object.resourceVersion();
    case Notification::Type::Update:
        return u"~"_s + n.key + u'@' + n.oldObject.resourceVersion() + u'>' + n.object.resourceVersion();
    case Notification::Type::Delete:
        return u"-"_s + n.key + u'@' + n.object.resourceVersion();
    }
    return {};
}

QStringList describe(const QList<Notification> &batch)
{
    QStringList out;
    for (const Notification &n : batch) {
        out.append(describe(n));
    }
    return out;
}

} // namespace

class TestNotificationBatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void delivers_data();
    void delivers();
    void everyModeDropsOldestBeyondCapacity();
    void flushesOnTheReceiverThreadInBatches();
    void handlerOutlivesBatcher();
};

void TestNotificationBatcher::delivers_data()
{
    QTest::addColumn<bool>("coalesce");
    QTest::addColumn<QStringList>("script");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("coalesce: add then updates is one add of the newest")
        << true << QStringList{u"+ns/a@1"_s, u"~ns/a@2"_s, u"~ns/a@3"_s} << QStringList{u"+ns/a@3"_s};
    QTest::newRow("coalesce: add then delete delivers nothing") << true << QStringList{u"+ns/a@1"_s, u"~ns/a@2"_s, u"-ns/a@2"_s} << QStringList{};
    QTest::newRow("coalesce: updates merge from the first old to the last new")
        << true << QStringList{u"~ns/a@2"_s, u"~ns/a@3"_s} << QStringList{u"~ns/a@1>3"_s};
    QTest::newRow("coalesce: update then delete is a delete") << true << QStringList{u"~ns/a@2"_s, u"-ns/a@2"_s} << QStringList{u"-ns/a@2"_s};
    QTest::newRow("coalesce: delete then add is an update from the deleted object")
        << true << QStringList{u"-ns/a@1"_s, u"+ns/a@5"_s} << QStringList{u"~ns/a@1>5"_s};
    QTest::newRow("coalesce: keys keep the order they first changed in")
        << true << QStringList{u"+ns/b@1"_s, u"+ns/a@1"_s, u"~ns/b@2"_s, u"+ns/c@1"_s} << QStringList{u"+ns/b@2"_s, u"+ns/a@1"_s, u"+ns/c@1"_s};
    QTest::newRow("coalesce: a cancelled key does not disturb the others")
        << true << QStringList{u"+ns/a@1"_s, u"+ns/b@1"_s, u"-ns/a@1"_s, u"~ns/b@2"_s, u"+ns/a@3"_s} << QStringList{u"+ns/b@2"_s, u"+ns/a@3"_s};
    QTest::newRow("every: each notification in order")
        << false << QStringList{u"+ns/a@1"_s, u"~ns/a@2"_s, u"-ns/a@2"_s} << QStringList{u"+ns/a@1"_s, u"~ns/a@1>2"_s, u"-ns/a@2"_s};
}

void TestNotificationBatcher::delivers()
{
    QFETCH(bool, coalesce);
    QFETCH(QStringList, script);
    QFETCH(QStringList, expected);

    NotificationBatcher batcher(coalesce ? NotificationBatcher::Mode::Coalesce : NotificationBatcher::Mode::Every);
    QSignalSpy ready(&batcher, &NotificationBatcher::notificationsReady);
    // Objects that exist before the script starts, at resourceVersion 1.
    QHash<QString, KubeObject> known{{u"ns/a"_s, object(u"ns/a"_s, u"1"_s)}, {u"ns/b"_s, object(u"ns/b"_s, u"1"_s)}};
    if (script.front().startsWith(u'+')) {
        known.clear();
    }
    play(*batcher.handler(), script, known);
    batcher.flush();
    if (expected.isEmpty()) {
        QCOMPARE(ready.count(), 0);
        return;
    }
    QCOMPARE(ready.count(), 1);
    QCOMPARE(describe(ready.at(0).at(0).value<QList<Notification>>()), expected);
    QCOMPARE(batcher.pending(), 0);
}

void TestNotificationBatcher::everyModeDropsOldestBeyondCapacity()
{
    NotificationBatcher batcher(NotificationBatcher::Mode::Every);
    batcher.setCapacity(3);
    QSignalSpy ready(&batcher, &NotificationBatcher::notificationsReady);
    QHash<QString, KubeObject> known;
    play(*batcher.handler(), {u"+ns/a@1"_s, u"+ns/b@1"_s, u"+ns/c@1"_s, u"+ns/d@1"_s, u"+ns/e@1"_s}, known);
    QCOMPARE(batcher.received(), 5u);
    QCOMPARE(batcher.dropped(), 2u);
    batcher.flush();
    QCOMPARE(describe(ready.at(0).at(0).value<QList<Notification>>()), (QStringList{u"+ns/c@1"_s, u"+ns/d@1"_s, u"+ns/e@1"_s}));
}

void TestNotificationBatcher::flushesOnTheReceiverThreadInBatches()
{
    NotificationBatcher batcher(NotificationBatcher::Mode::Every);
    batcher.setInterval(std::chrono::milliseconds(50));
    QList<Notification> delivered;
    int batches = 0;
    connect(&batcher, &NotificationBatcher::notificationsReady, this, [&](const QList<Notification> &batch) {
        QCOMPARE(QThread::currentThread(), thread());
        delivered += batch;
        ++batches;
    });
    const int total = 2000;
    std::thread producer([handler = batcher.handler()] {
        for (int i = 0; i < total; ++i) {
            handler->onAdd(object(u"ns/p"_s + QString::number(i)), false);
        }
    });
    producer.join();
    QTRY_COMPARE(delivered.size(), total);
    // All of it arrived while the producer was already done: one flush carries everything,
    // rather than one signal per event.
    QCOMPARE(batches, 1);
    for (int i = 0; i < total; ++i) {
        QCOMPARE(delivered.at(i).key, u"ns/p"_s + QString::number(i));
    }
}

void TestNotificationBatcher::handlerOutlivesBatcher()
{
    std::shared_ptr<ResourceEventHandler> handler;
    {
        NotificationBatcher batcher(NotificationBatcher::Mode::Coalesce);
        handler = batcher.handler();
        handler->onAdd(object(u"ns/a"_s), false);
    }
    // The batcher is gone with a flush still queued: later calls are dropped, nothing crashes.
    handler->onAdd(object(u"ns/b"_s), false);
    QCoreApplication::processEvents();
    QVERIFY(handler.use_count() == 1);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestNotificationBatcher)
#include "tst_notificationbatcher.moc"
