// core/util/backgroundpool: inParallel() does every piece exactly once, on the caller and on the
// pool's free threads, and never waits for a pool thread that is busy with other work.
#include "core/util/backgroundpool.h"

#include "testmain.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <vector>

using namespace Cachescope;

class TestBackgroundPool : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyIndexOnce_data()
    {
        QTest::addColumn<qsizetype>("count");
        QTest::addColumn<qsizetype>("piece");

        QTest::newRow("nothing") << qsizetype(0) << qsizetype(10);
        QTest::newRow("one") << qsizetype(1) << qsizetype(10);
        QTest::newRow("one short of a piece") << qsizetype(9) << qsizetype(10);
        QTest::newRow("a piece and one") << qsizetype(11) << qsizetype(10);
        QTest::newRow("pieces of one") << qsizetype(1000) << qsizetype(1);
        QTest::newRow("many pieces") << qsizetype(1000003) << qsizetype(4096);
        QTest::newRow("a piece of zero is a piece of one") << qsizetype(5) << qsizetype(0);
    }

    void everyIndexOnce()
    {
        QFETCH(qsizetype, count);
        QFETCH(qsizetype, piece);

        std::vector<std::atomic<int>> visits(static_cast<size_t>(count));
        std::atomic<qsizetype> calls{0};
        std::atomic<bool> tooLarge{false};
        inParallel(count, piece, [&](qsizetype begin, qsizetype end) {
            ++calls;
            tooLarge = tooLarge || end - begin > std::max<qsizetype>(1, piece) || begin >= end;
            for (qsizetype i = begin; i < end; ++i) {
                ++visits[size_t(i)];
            }
        });
        QVERIFY(!tooLarge);
        for (size_t i = 0; i < visits.size(); ++i) {
            QVERIFY2(visits[i] == 1, qPrintable(QStringLiteral("index %1 visited %2 times").arg(i).arg(visits[i].load())));
        }
        const qsizetype pieces = count == 0 ? 0 : (count + std::max<qsizetype>(1, piece) - 1) / std::max<qsizetype>(1, piece);
        QCOMPARE(calls.load(), pieces);
    }

    // With every pool thread held by other work, the caller does all the pieces and returns
    // while the pool is still held; the helpers queued meanwhile (none could start) do nothing
    // once the pool frees up.
    void aBusyPoolLeavesTheWorkToTheCaller()
    {
        QThreadPool *pool = backgroundPool();
        const int threads = pool->maxThreadCount();
        QSemaphore started;
        QSemaphore release;
        for (int i = 0; i < threads; ++i) {
            pool->start([&started, &release] {
                started.release();
                release.acquire();
            });
        }
        QVERIFY(started.tryAcquire(threads, 10000));

        std::mutex mutex;
        std::set<Qt::HANDLE> workers;
        qsizetype done = 0;
        inParallel(100, 1, [&](qsizetype begin, qsizetype end) {
            const std::lock_guard lock(mutex);
            workers.insert(QThread::currentThreadId());
            done += end - begin;
        });
        QCOMPARE(done, qsizetype(100));
        QCOMPARE(workers, std::set<Qt::HANDLE>{QThread::currentThreadId()});

        release.release(threads);
        QVERIFY(pool->waitForDone(10000));
    }

    // With the pool free, its threads take pieces too: each piece waits (up to 10 s, for a
    // loaded machine) until a thread other than the one running it has taken one.
    void aFreePoolJoinsTheWork()
    {
        QThreadPool *pool = backgroundPool();
        QVERIFY(pool->waitForDone(10000));
        if (pool->maxThreadCount() < 1) {
            QSKIP("the pool has no thread");
        }
        std::mutex mutex;
        std::condition_variable joined;
        std::set<Qt::HANDLE> workers;
        bool gaveUp = false;
        inParallel(20, 1, [&](qsizetype, qsizetype) {
            std::unique_lock lock(mutex);
            workers.insert(QThread::currentThreadId());
            joined.notify_all();
            if (!joined.wait_for(lock, std::chrono::seconds(10), [&] { return workers.size() > 1 || gaveUp; })) {
                gaveUp = true; // once: the other pieces do not wait again
            }
        });
        QVERIFY2(workers.size() > 1, "no pool thread took a piece in 10 s");
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestBackgroundPool)
#include "tst_backgroundpool.moc"
