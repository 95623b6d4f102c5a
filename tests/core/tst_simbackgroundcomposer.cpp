// core/sim/backgroundcomposer: objects' JSON is written on pool threads and complete once finish()
// returns; the composers are freed on the thread that added them; add() waits once too many
// batches are waiting or being written.
#include "core/sim/backgroundcomposer.h"

#include "core/util/backgroundpool.h"
#include "testmain.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

using namespace Cachescope;
using namespace Cachescope::Sim;

namespace {

// Records, when the last copy of it goes, the thread that freed it.
struct FreedOn
{
    std::shared_ptr<std::mutex> mutex;
    std::shared_ptr<std::set<Qt::HANDLE>> threads;
    ~FreedOn()
    {
        if (mutex) {
            const std::lock_guard lock(*mutex);
            threads->insert(QThread::currentThreadId());
        }
    }
};

std::shared_ptr<StoredObject> object(int serial)
{
    auto stored = std::make_shared<StoredObject>();
    stored->uid = QString::number(serial);
    stored->resourceVersion = quint64(serial) * 7;
    return stored;
}

} // namespace

class TestSimBackgroundComposer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyObjectHasItsJsonOnceFinished();
    void composersAreFreedOnTheAddingThread();
    void addWaitsWhileTooManyBatchesAreUnwritten();
};

void TestSimBackgroundComposer::everyObjectHasItsJsonOnceFinished()
{
    constexpr int count = 20000; // many batches, the last one partial
    std::mutex mutex;
    std::set<Qt::HANDLE> composedOn;
    std::vector<std::shared_ptr<StoredObject>> objects;
    BackgroundComposer composer;
    for (int i = 0; i < count; ++i) {
        objects.push_back(object(i));
        composer.add(objects.back(), [&mutex, &composedOn, i](const QString &uid, quint64 rv) -> QByteArray {
            {
                const std::lock_guard lock(mutex);
                composedOn.insert(QThread::currentThreadId());
            }
            return QByteArray::number(i) + ':' + uid.toUtf8() + ':' + QByteArray::number(rv);
        });
    }
    composer.finish();
    for (int i = 0; i < count; ++i)
        QCOMPARE(objects[std::size_t(i)]->json, QByteArray::number(i) + ':' + QByteArray::number(i) + ':' + QByteArray::number(quint64(i) * 7));
    QVERIFY(!composedOn.empty());
    QVERIFY(!composedOn.count(QThread::currentThreadId())); // written off the adding thread
}

void TestSimBackgroundComposer::composersAreFreedOnTheAddingThread()
{
    auto mutex = std::make_shared<std::mutex>();
    auto freedOn = std::make_shared<std::set<Qt::HANDLE>>();
    {
        BackgroundComposer composer;
        for (int i = 0; i < 5000; ++i) {
            auto captured = std::make_shared<FreedOn>(FreedOn{mutex, freedOn});
            composer.add(object(i), [captured](const QString &, quint64) { return QByteArray("{}"); });
        }
        composer.finish();
    }
    const std::lock_guard lock(*mutex);
    QCOMPARE(freedOn->size(), std::size_t(1));
    QCOMPARE(*freedOn->begin(), QThread::currentThreadId());
}

void TestSimBackgroundComposer::addWaitsWhileTooManyBatchesAreUnwritten()
{
    // Composers block until the gate opens: the adding thread may get at most 2 batches per
    // pool thread ahead (one more being filled), then waits in add().
    const int maxBatches = 2 * std::max(1, backgroundPool()->maxThreadCount());
    const int batch = int(BackgroundComposer::BatchSize);
    const int count = (maxBatches + 3) * batch;
    QSemaphore gate;
    std::atomic<int> added = 0;
    std::atomic<int> written = 0;
    std::vector<std::shared_ptr<StoredObject>> objects;
    for (int i = 0; i < count; ++i)
        objects.push_back(object(i));
    std::thread adder([&] {
        BackgroundComposer composer;
        for (int i = 0; i < count; ++i) {
            composer.add(objects[std::size_t(i)], [&gate, &written](const QString &, quint64) {
                if (written.load() == 0) {
                    gate.acquire();
                    gate.release(); // open for every later composer
                }
                ++written;
                return QByteArray("{}");
            });
            ++added;
        }
        composer.finish();
    });
    // Without the bound every object would be added at once.
    QTRY_VERIFY_WITH_TIMEOUT(added.load() >= maxBatches * batch, 10000);
    QTest::qWait(300);
    QVERIFY2(added.load() <= (maxBatches + 1) * batch, qPrintable(QString::number(added.load())));
    QCOMPARE(written.load(), 0);
    gate.release();
    adder.join();
    QCOMPARE(added.load(), count);
    QCOMPARE(written.load(), count);
    for (const auto &stored : objects)
        QCOMPARE(stored->json, QByteArray("{}"));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestSimBackgroundComposer)
#include "tst_simbackgroundcomposer.moc"
