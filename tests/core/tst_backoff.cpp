#include "core/cache/backoff.h"
#include "core/util/fakeclock.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace std::chrono_literals;

class TestBackoff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sequence_data();
    void sequence();
    void jitterStaysWithinFactor();
    void resetInterval_data();
    void resetInterval();
};

void TestBackoff::sequence_data()
{
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("doubles from 800 ms and caps at 30 s") << QList<qint64>{800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};
}

void TestBackoff::sequence()
{
    QFETCH(QList<qint64>, expected);
    Backoff::Parameters parameters;
    parameters.jitter = 0;
    const auto clock = std::make_shared<FakeClock>();
    Backoff backoff(parameters, clock);
    for (qint64 ms : expected) {
        QCOMPARE(backoff.next().count(), ms);
        clock->step(1s);
    }
}

void TestBackoff::jitterStaysWithinFactor()
{
    Backoff backoff(Backoff::Parameters(), std::make_shared<FakeClock>(), 7);
    bool sawJitter = false;
    for (qint64 base : {800, 1600, 3200}) {
        const qint64 d = backoff.next().count();
        QVERIFY2(d >= base && d <= 2 * base, qPrintable(QString::number(d)));
        sawJitter = sawJitter || d != base;
    }
    QVERIFY(sawJitter);
}

void TestBackoff::resetInterval_data()
{
    // Seconds at which next() is called, and the delays (jitter off) it must return.
    QTest::addColumn<QList<qint64>>("callsAt");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("starts over after a healthy period of more than 2 minutes") << QList<qint64>{0, 0, 119, 239} << QList<qint64>{800, 1600, 3200, 800};
    QTest::newRow("starts over 2 minutes after the last reset even while failing")
        << QList<qint64>{0, 30, 60, 90, 119, 121, 150} << QList<qint64>{800, 1600, 3200, 6400, 12800, 800, 1600};
    QTest::newRow("exactly 2 minutes after the last reset does not start over yet") << QList<qint64>{0, 120, 121} << QList<qint64>{800, 1600, 800};
}

void TestBackoff::resetInterval()
{
    QFETCH(QList<qint64>, callsAt);
    QFETCH(QList<qint64>, expected);
    Backoff::Parameters parameters;
    parameters.jitter = 0;
    const auto clock = std::make_shared<FakeClock>();
    const TimePoint start = clock->now();
    Backoff backoff(parameters, clock);
    for (qsizetype i = 0; i < callsAt.size(); ++i) {
        clock->setTime(start + std::chrono::seconds(callsAt.at(i)));
        QCOMPARE(backoff.next().count(), expected.at(i));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
